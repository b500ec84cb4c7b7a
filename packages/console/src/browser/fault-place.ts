/**
 * Where on a refused field the console shows each of its faults. No DOM here, so it is tested in
 * Node.
 */
import type { Fault } from './problems.js';

/** A point the message names: "at [lon, lat]" or "near [lon, lat]" (packages/geo polygon checks). */
const NAMED_POINT = /\b(?:at|near) \[(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?), (-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)\]/i;

/**
 * The [longitude, latitude] at which to show a fault of the polygons sent, or null for a fault
 * about none of their rings. Paths are dotted (docs/interface.md §1):
 * `geometries.<polygon>.coordinates.<ring>[.<position>]`. A crossing or touch is shown where the
 * message says it is, not at the ring's first corner, which may be far from it; a bad position
 * at that position; any other fault of a ring at its first position.
 */
export function faultPlace(fault: Fault, polygons: readonly (readonly (readonly [number, number])[][])[]): [number, number] | null {
  const m = /^geometries\.(\d+)\.coordinates\.(\d+)(?:\.(\d+))?/.exec(fault.path);
  const ring = m ? polygons[Number(m[1])]?.[Number(m[2])] : undefined;
  if (!m || !ring || ring.length === 0) return null;
  const named = NAMED_POINT.exec(fault.message);
  if (named) return [Number(named[1]), Number(named[2])];
  const [lon, lat] = ring[m[3] ? Math.min(Number(m[3]), ring.length - 1) : 0]!;
  return [lon, lat];
}
