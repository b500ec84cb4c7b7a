/**
 * The name of a file the console saves: what it holds, where and when. No DOM here, so it is
 * tested in Node.
 */
import { type Place, placePath } from './place.js';

/**
 * `what`, the place and the period's bounds joined by `_`, each run of characters other than ASCII
 * letters, digits, `.` and `-` made one `-` (none left at a part's end), as the areas name their
 * CSV answers (docs/interface.md §1, Media type and version): a name every file system takes.
 */
export function downloadName(what: string, place: Place, period: readonly string[], extension: string): string {
  const parts = [what, ...placePath(place).split('/'), ...period].map((part) => part.replace(/[^A-Za-z0-9.-]+/g, '-').replace(/-+$/, ''));
  return `${parts.join('_')}.${extension}`;
}
