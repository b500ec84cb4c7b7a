import { errorText } from './status.js';

/**
 * What a panel shows of its reads: a field's alerts, a feed, a product's frames, each named by a
 * key. A read that fails must not leave the answer for another key on show as if it were this
 * one's (the last field's alerts under the field selected now); the same key's earlier answer may
 * stay, marked as failed, as when a feed's poll fails for now. No DOM here, so it is tested in Node.
 */
export interface Shown<T> {
  key: string;
  /** the key's latest answer, null when it has none */
  answer: T | null;
  /** why the key's latest read failed, null when it answered */
  error: string | null;
}

export class PanelView<T> {
  private shown: Shown<T> | null = null;

  /** What to show once `key`'s read answered. */
  answered(key: string, answer: T): Shown<T> {
    return (this.shown = { key, answer, error: null });
  }

  /** What to show once `key`'s read failed: the key's earlier answer, never another key's. */
  failed(key: string, err: unknown): Shown<T> {
    const answer = this.shown?.key === key ? this.shown.answer : null;
    return (this.shown = { key, answer, error: errorText(err) });
  }
}
