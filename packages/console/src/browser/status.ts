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

/** Shows a message the user can dismiss; errors stay until dismissed, notices fade. */
export function showMessage(text: string, kind: 'error' | 'info' = 'error'): void {
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
  if (kind === 'info') setTimeout(() => item.remove(), 4000);
}

/** Shows an error of any kind as its message. */
export function showError(err: unknown): void {
  showMessage(err instanceof Error ? err.message : String(err));
}
