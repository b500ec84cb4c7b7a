/**
 * The map by keyboard (WCAG 2.1.1): Leaflet's keyboard option pans with the arrow keys and zooms
 * with + and -; these keys pick the point under the mark at the map's centre, as a click does.
 * Only a key pressed on the map itself counts: Enter on a vertex handle of the shape editor is
 * that handle's click. No DOM here, so it is tested in Node.
 */

/** What a key does: pick the point, add a drawn polygon's vertex there, close or drop the polygon. */
export type MapKeyAction = 'pick' | 'add-vertex' | 'finish' | 'cancel';

/**
 * The action of `key` pressed with focus on `onMap` (the map's own element) while the draw tool
 * is `drawing` or not; null for a key the map leaves to Leaflet and the page.
 */
export function mapKeyAction(key: string, onMap: boolean, drawing: boolean): MapKeyAction | null {
  if (!onMap) return null;
  if (drawing) {
    if (key === 'Escape') return 'cancel';
    if (key === 'Enter') return 'finish';
    if (key === ' ') return 'add-vertex';
    return null;
  }
  return key === 'Enter' || key === ' ' ? 'pick' : null;
}
