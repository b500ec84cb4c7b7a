/// <reference lib="dom" />

/**
 * Saves `blob` as a file named `name`, as the browser saves a download: an anchor with the
 * `download` attribute (HTML, Downloading resources) at an object URL, clicked. The areas' answers
 * come from fetch with the key in a header (api.ts), which a plain link could not send.
 */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = Object.assign(document.createElement('a'), { href: url, download: name });
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // after the click's task: the browser has taken the URL's bytes by then
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
