/**
 * Windows of the grid around a place, as the areas read them (docs/architecture.md §6): how many
 * cell centres a window holds, counted before anything is read, and the window reads that cover
 * a bbox taken in one continuous longitude frame.
 */
import type { BBox } from './grid-source.js';

/** Cell centres origin + k d within lo..hi, as a window read selects them (centres inside the bbox). */
export function centresWithin(lo: number, hi: number, origin: number, d: number): number {
  return Math.max(0, Math.floor((hi - origin) / d + 1e-9) - Math.ceil((lo - origin) / d - 1e-9) + 1);
}

/** One window read: its bbox on the grid (-180..180), and the longitude added to its cells to meet the caller's frame. */
export interface WindowPart {
  bbox: BBox;
  shift: number;
}

/**
 * The window reads that cover `bbox` [west, south, east, north] grown by `margin` cells: the
 * bbox is in one continuous longitude frame (RFC 7946 section 3.1.9 sends a polygon at the
 * antimeridian cut at ±180, see @fieldcast/geo unwrapLongitudes), so its west may lie below -180
 * or its east past 180. First the part inside -180..180, then the part past 180 read from the
 * grid's west end (shift 360), then the part below -180 read from its east end (shift -360).
 */
export function windowParts(bbox: BBox, cell: { dLon: number; dLat: number }, margin: number): WindowPart[] {
  const [w, s, e, n] = bbox;
  const south = Math.max(-90, s - cell.dLat * margin),
    north = Math.min(90, n + cell.dLat * margin);
  const west = w - cell.dLon * margin,
    east = e + cell.dLon * margin;
  const parts: WindowPart[] = [{ bbox: [Math.max(-180, west), south, Math.min(180, east), north], shift: 0 }];
  if (east > 180) parts.push({ bbox: [-180, south, Math.min(180, east - 360), north], shift: 360 });
  if (west < -180) parts.push({ bbox: [Math.max(-180, west + 360), south, 180, north], shift: -360 });
  return parts;
}
