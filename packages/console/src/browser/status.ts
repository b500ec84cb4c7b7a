/// <reference lib="dom" />

/** Messages and the progress indicator: an API error is shown as text, never as a blank page. */

let pending = 0;

/** Runs work while the progress bar shows (docs: a long request shows a progress indicator). */
export async function withProgress<T>(work: () => Promise<T>): Promise<T> {
  const bar = document.getElementById('progress')!;
  pending += 1;
  bar.hidden = false;
  try {
    return await work();
  } finally {
    pending -= 1;
    if (pending === 0) bar.hidden = true;
  }
}

/** The text of each message shown, and the panels whose latest query failed with it (none: showError's). */
const shown = new WeakMap<Element, { text: string; panels: Set<string> }>();

/** Shows a message the user can dismiss; errors stay until dismissed, notices fade. */
export function showMessage(text: string, kind: 'error' | 'info' = 'error'): HTMLElement {
  const box = document.getElementById('messages')!;
  const item = document.createElement('div');
  item.className = `message ${kind}`;
  item.textContent = text;
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Dismiss';
  close.addEventListener('click', () => item.remove());
  item.append(close);
  box.append(item);
  shown.set(item, { text, panels: new Set() });
  if (kind === 'info') setTimeout(() => item.remove(), 4000);
  return item;
}

/** Shows an error of any kind as its message. */
export function showError(err: unknown): void {
  showMessage(errorText(err));
}

/** An error of any kind as text. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Shows the errors of a panel's latest query in place of those its earlier queries left, so a
 * query that succeeds (no errors) takes its panel's messages away. A message already shown is
 * not shown again: the field and the point use the same degree-day settings and fail alike; it
 * goes when none of the panels that report it still does.
 */
export function showPanelErrors(panel: string, errors: readonly unknown[]): void {
  const texts = new Set(errors.map(errorText));
  for (const item of Array.from(document.querySelectorAll('#messages .message.error'))) {
    const message = shown.get(item);
    if (!message) continue;
    // A message no panel reported (showError) is left to its dismissal.
    if (texts.delete(message.text)) {
      if (message.panels.size > 0) message.panels.add(panel);
    } else if (message.panels.delete(panel) && message.panels.size === 0) item.remove();
  }
  for (const text of texts) shown.get(showMessage(text))!.panels.add(panel);
}
