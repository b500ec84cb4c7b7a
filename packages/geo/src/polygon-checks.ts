import {
  adjacent,
  boundarySweep,
  type Cover,
  type Meeting,
  type Position,
  ringSegments,
  type Ring,
  type Segment,
  sweepSegments,
} from './boundary-sweep.js';
import { polygonBBox } from './grid-weights.js';
import { clipToBBox, containsPoint, intersectionOf } from './overlay.js';
import { areaOf } from './measures.js';
import { signedRingArea } from './rings.js';

export type { Position, Ring } from './boundary-sweep.js';

export interface GeometryFault {
  /** path below the polygon's coordinates, e.g. [0, 3] = ring 0, position 3 */
  path: (string | number)[];
  message: string;
}

/**
 * An overlap smaller than this share of the smaller polygon's area is digitising noise (shared
 * edges whose coordinates were rounded differently), not a second count of the same ground: at a
 * millionth it moves no area-weighted mean by more than a millionth.
 */
const OVERLAP_TOLERANCE = 1e-6;

/** Most faults reported for one polygon: enough to locate the problems, in a body of bounded size. */
const MAX_FAULTS = 20;

/**
 * What to do with a polygon across the antimeridian, where more than one Polygon is taken (a
 * field's, a coverage): RFC 7946 section 3.1.9 cuts it. polygonFaults' callers that take a single
 * Polygon give their own words.
 */
const CUT_AT_ANTIMERIDIAN =
  'a polygon that crosses the antimeridian must be cut in two at longitude ±180 and sent as two Polygons (RFC 7946 section 3.1.9)';

/**
 * Whether an edge runs along a pole: both ends at latitude 90, or both at -90. On the sphere it
 * is one point, whatever its longitudes, so its span says nothing of the antimeridian; the
 * world's box, [-180, -90] to [180, 90], is drawn with two such edges.
 */
function alongPole(a: Position, b: Position): boolean {
  return a[1] === b[1] && Math.abs(a[1]!) === 90;
}

/**
 * Whether the edge from `a` to `b` spans more than 180 degrees of longitude, but one along a
 * pole: an antimeridian crossing that was not cut (RFC 7946 section 3.1.9), which read as written
 * would go the long way round the globe.
 */
export function crossesUncut(a: Position, b: Position): boolean {
  return Math.abs(b[0]! - a[0]!) > 180 && !alongPole(a, b);
}

/**
 * Faults of one GeoJSON Polygon's coordinates (RFC 7946 section 3.1.6; OGC Simple Features
 * 1.2.1 section 6.1.11.1): a linear ring has at least four positions, is closed, encloses an area
 * and is simple (does not cross or touch itself); positions are [lon, lat] in WGS84 range; no
 * edge spans more than 180 degrees of longitude (such an edge is an antimeridian crossing that
 * was not cut, RFC 7946 section 3.1.9), but one along a pole; rings do not cross each other or share an edge, and may
 * touch only at points, and never so that their touches wall off part of the interior; every
 * hole lies inside the exterior ring; holes do not overlap each other. Returns every fault found,
 * empty when the polygon is valid. A fault of an edge or longitude across the antimeridian ends
 * with `antimeridian`, what to send instead (by default, the polygon cut in two).
 */
export function polygonFaults(rings: Ring[], antimeridian: string = CUT_AT_ANTIMERIDIAN): GeometryFault[] {
  const faults: GeometryFault[] = [];
  if (rings.length === 0) return [{ path: [], message: 'a polygon needs at least one linear ring' }];
  rings.forEach((ring, r) => {
    if (ring.length < 4) faults.push({ path: [r], message: `a linear ring needs at least 4 positions, got ${ring.length}` });
    ring.forEach((p, i) => {
      const [lon, lat] = p;
      if (p.length < 2 || !Number.isFinite(lon) || !Number.isFinite(lat)) {
        faults.push({ path: [r, i], message: 'a position is [longitude, latitude]' });
      } else if (lon! < -180 || lon! > 180 || lat! < -90 || lat! > 90) {
        const hint = lon! < -180 || lon! > 180 ? `; ${antimeridian}` : '';
        faults.push({ path: [r, i], message: `position [${lon}, ${lat}] is out of range: longitude -180..180, latitude -90..90${hint}` });
      } else if (i > 0 && crossesUncut(ring[i - 1]!, p)) {
        faults.push({ path: [r, i], message: `the edge to position ${i} spans more than 180 degrees of longitude; ${antimeridian}` });
      }
    });
    const first = ring[0];
    const last = ring[ring.length - 1];
    // "The first and last positions are equivalent, and they MUST contain identical values"
    // (RFC 7946 section 3.1.6): an altitude too, when either carries one.
    if (ring.length >= 4 && first && last && (first.length !== last.length || first.some((v, k) => v !== last[k]))) {
      faults.push({ path: [r], message: 'a linear ring must be closed: its last position equals its first' });
    }
  });
  if (faults.length > 0) return faults.slice(0, MAX_FAULTS);

  // One O(n log n) sweep decides (boundarySweep); the quadratic listing below only runs on rings
  // already found to meet wrongly, within a budget.
  // Each ring is its own group here: a face's cover counts the exterior ring (group 0) and the holes.
  const segments = ringSegments(rings, 0).map((s) => ({ ...s, group: s.ring }));
  const nesting = new Map<string, GeometryFault>();
  const touches = new RingTouches(rings.length);
  const stop = boundarySweep(segments, {
    simpleRings: true,
    fault: (a, b, meeting) => (a.ring !== b.ring ? meeting.kind !== 'touch' : meeting.kind !== 'touch' || !adjacent(a, b)),
    collinear: () => 0,
    face: (cover) => nestingFault(cover, nesting),
    junction: (x, y, passing) => touches.meet(x, y, passing),
  });
  if (stop) {
    const budget = { left: pairBudget(segments.length) };
    sweepSegments(
      segments,
      budget,
      () => faults.length >= MAX_FAULTS,
      (a, b, meeting) => {
        const fault = meetingFault(a, b, meeting);
        if (fault) faults.push(fault);
      },
    );
    // The budget ran out before the listing reached the meeting the sweep found: name that one.
    if (faults.length === 0) faults.push(meetingFault(stop.a, stop.b, stop.meeting)!);
    return dedupe(faults).slice(0, MAX_FAULTS);
  }
  // A ring whose positions all lie on one line meets itself in the sweep; this catches what is
  // left (a ring whose distinct positions are fewer than three, e.g. [a, a, a, a]).
  rings.forEach((ring, r) => {
    if (signedRingArea(ring) === 0) faults.push({ path: [r], message: 'a linear ring must enclose an area' });
  });
  if (faults.length > 0) return faults;
  if (nesting.size > 0)
    return [...nesting.values()]
      .sort(
        (x, y) =>
          Number(x.message.includes('overlaps')) - Number(y.message.includes('overlaps')) || (x.path[0] as number) - (y.path[0] as number),
      )
      .slice(0, MAX_FAULTS);
  const loop = touches.loop;
  if (!loop) return [];
  return [
    {
      path: [loop.ring],
      message: `ring ${loop.ring} touches ring ${loop.other} at [${shown(loop.at)}] though the two already meet, directly or through other rings: the touches enclose part of the interior and cut it off (OGC Simple Features 6.1.11.1: the interior of a polygon is connected)`,
    },
  ];
}

/**
 * The rings of a polygon joined by the points where they touch, to find the first touch that
 * closes a loop. Rings may touch at points, but a chain of touches that comes back to its start (a
 * hole touching the exterior ring twice, or two touching holes each touching it once) walls off
 * part of the interior. Rings that touch are joined (union-find); a touch between two rings joined
 * already closes a loop: the hole cycles by which JTS's IsValidOp finds a disconnected interior.
 */
class RingTouches {
  private readonly parent: Int32Array;
  loop: { ring: number; other: number; at: [number, number] } | null = null;

  constructor(rings: number) {
    this.parent = Int32Array.from({ length: rings }, (_, r) => r);
  }

  private root(r: number): number {
    const parent = this.parent;
    while (parent[r] !== r) r = parent[r] = parent[parent[r]!]!;
    return r;
  }

  /** The rings passing through one position (one edge of each). */
  meet(x: number, y: number, passing: readonly Segment[]): void {
    if (this.loop) return;
    const roots = passing.map((s) => this.root(s.ring));
    for (let i = 0; i < roots.length; i++)
      for (let j = i + 1; j < roots.length; j++)
        if (roots[i] === roots[j]) {
          const [a, b] = [passing[i]!.ring, passing[j]!.ring];
          this.loop = { ring: Math.max(a, b), other: Math.min(a, b), at: [x, y] };
          return;
        }
    for (const r of roots) this.parent[r] = roots[0]!;
  }
}

/** The fault of two edges of one polygon that meet, or null when they may (rings touching at a point). */
function meetingFault(a: Segment, b: Segment, meeting: Meeting): GeometryFault | null {
  if (a.ring === b.ring) {
    // Neighbouring edges share their common position; any other meeting makes the ring not simple.
    if (meeting.kind === 'overlap') return { path: [a.ring], message: `ring ${a.ring} runs along itself near [${shown(meeting.at)}]` };
    if (adjacent(a, b)) return null;
    return {
      path: [a.ring],
      message: `ring ${a.ring} ${meeting.kind === 'cross' ? 'crosses' : 'touches'} itself at [${shown(meeting.at)}]`,
    };
  }
  const [r1, r2] = a.ring < b.ring ? [a.ring, b.ring] : [b.ring, a.ring];
  if (meeting.kind === 'cross') return { path: [r2], message: `ring ${r2} crosses ring ${r1} at [${shown(meeting.at)}]` };
  if (meeting.kind === 'overlap')
    return {
      path: [r2],
      message: `ring ${r2} shares an edge with ring ${r1} near [${shown(meeting.at)}]; rings may touch only at points`,
    };
  return null;
}

/**
 * Faults of one face of a polygon whose rings neither cross nor share edges (OGC Simple Features
 * 6.1.11.1): every point inside a hole must be inside the exterior ring (group 0), and inside
 * one hole at most. Rings touching at points, even a hole passing through a position of the
 * exterior ring and out of it, are judged by the faces they bound, not by a point or an overlay.
 */
function nestingFault(cover: Cover, into: Map<string, GeometryFault>): void {
  const holes = cover.total - cover.zero;
  if (holes <= 0) return;
  const named = cover.groups.filter((g) => g !== 0);
  if (cover.zero === 0 && named[0] !== undefined) {
    const h = named[0];
    into.set(`out ${h}`, { path: [h], message: `hole ${h} is not inside the exterior ring (OGC Simple Features 6.1.11.1)` });
  }
  if (holes >= 2 && named.length >= 2) {
    const h1 = Math.min(named[0]!, named[1]!),
      h2 = Math.max(named[0]!, named[1]!);
    into.set(`${h1} ${h2}`, {
      path: [h2],
      message: `hole ${h2} overlaps hole ${h1}; holes may touch only at points (OGC Simple Features 6.1.11.1)`,
    });
  }
}

/**
 * Pair comparisons allowed to the quadratic listing of faults (sweepSegments) and, in
 * polygonOverlapFaults, positions fed to point-in-polygon and overlay: 4 n log n, at least
 * 250,000 (a few milliseconds to a few tens); real invalid rings are listed whole well within it.
 */
function pairBudget(edges: number): number {
  return Math.max(250_000, 4 * edges * Math.ceil(Math.log2(edges + 2)));
}

/**
 * Faults of a set of polygons that together make one area (a field's geometries; each polygon
 * already free of polygonFaults): their interiors must not intersect, as in an OGC Simple
 * Features MultiPolygon (1.2.1 section 6.1.14), or the overlap would be counted twice in every
 * area and area-weighted mean. Boundaries may touch, at points or along shared edges (adjacent
 * plots): a shared edge has no area. Paths are polygon indexes; one fault per overlapping pair,
 * at the later polygon, at most MAX_FAULTS.
 *
 * Bounding boxes that overlap pick the polygons to compare. One sweep over all their rings
 * (boundarySweep) counts how many polygons cover each face; a face covered twice names a pair
 * that may overlap. Boundaries of two polygons that cross stop that sweep; then the pairs are
 * found as before it (an all-pairs sweep of exterior rings, a point for nested polygons), within
 * a budget. Each pair found is measured by polygon overlay, clipped to the pair's common bbox, so
 * an overlap below OVERLAP_TOLERANCE (digitising noise along a shared edge) is not a fault.
 */
export function polygonOverlapFaults(polygons: Ring[][]): GeometryFault[] {
  const parts = polygons.map((rings, index) => ({ rings, index, bbox: polygonBBox(rings as number[][][]) }));
  const candidates = new Set<string>();
  forEachOverlappingBBox(parts, (a, b) => candidates.add(pairKey(a.index, b.index)));
  if (candidates.size === 0) return [];
  const involved = new Set([...candidates].flatMap((k) => k.split(',').map(Number)));
  let firstId = 0;
  const segments = parts
    .filter((p) => involved.has(p.index))
    .flatMap((p) => {
      // A hole takes its interior away from the polygon's count.
      const out = ringSegments(p.rings, p.index, (r) => (r === 0 ? 1 : -1), firstId);
      firstId += out.length;
      return out;
    });
  const suspects = new Set<string>();
  const stop = boundarySweep(segments, {
    simpleRings: false,
    fault: (a, b, meeting) => meeting.kind === 'cross' || (a.group === b.group && meeting.kind === 'overlap'),
    // Along a shared edge the edge leaving a polygon comes first, so the sliver between the two
    // collinear edges is counted as neither polygon rather than both.
    collinear: (a, b) => a.delta - b.delta,
    face: (cover) => {
      const [g1, g2] = cover.groups;
      if (cover.total >= 2 && g1 !== undefined && g2 !== undefined) suspects.add(pairKey(g1, g2));
    },
  });
  const budget = { left: pairBudget(segments.length) };
  if (stop) {
    // Boundaries cross: the faces' counts are no longer known; the pairs come from the listing.
    suspects.clear();
    suspects.add(pairKey(stop.a.group, stop.b.group));
    const outer = segments.filter((s) => s.ring === 0);
    const meeting = new Set<string>();
    sweepSegments(
      outer,
      budget,
      () => false,
      (a, b) => {
        if (a.group !== b.group) meeting.add(pairKey(a.group, b.group));
      },
    );
    for (const key of candidates) {
      const [i, j] = key.split(',').map(Number) as [number, number];
      const a = polygons[i]! as number[][][],
        b = polygons[j]! as number[][][];
      if (meeting.has(key)) suspects.add(key);
      else if (budget.left > 0) {
        budget.left -= a[0]!.length + b[0]!.length;
        if (containsPoint([[a[0]!]], b[0]![0] as [number, number]) || containsPoint([[b[0]!]], a[0]![0] as [number, number]))
          suspects.add(key);
      }
    }
  }
  const faults: GeometryFault[] = [];
  // Clipping costs a pass over both polygons, overlay some 20 times that per clipped position.
  const overlayBudget = { left: Math.max(1_000_000, 16 * segments.length * Math.ceil(Math.log2(segments.length + 2))) };
  const pairs = [...suspects].map((k) => k.split(',').map(Number) as [number, number]).sort((x, y) => x[1] - y[1] || x[0] - y[0]);
  for (const [i, j] of pairs) {
    if (faults.length >= MAX_FAULTS) break;
    if (overlapIsSignificant(polygons[i]! as number[][][], polygons[j]! as number[][][], overlayBudget)) {
      faults.push({
        path: [j],
        message: `polygon ${j} overlaps polygon ${i}; the polygons of a field must not overlap, though they may touch (OGC Simple Features 6.1.14)`,
      });
    }
  }
  return faults;
}

/**
 * A meeting point as a message shows it: computed where two edges cross, its doubles carry
 * rounding noise (-93.69999999999999), so it is shown to the nanodegree (about 0.1 mm), finer than
 * any survey.
 */
const shown = (at: readonly number[]) => at.map((v) => Number(v.toFixed(9))).join(', ');

const pairKey = (i: number, j: number) => (i < j ? `${i},${j}` : `${j},${i}`);

/**
 * Whether two polygons have a common area above OVERLAP_TOLERANCE of the smaller one. Both are
 * clipped to their common bbox first (the overlap lies inside it), so a big polygon next to many
 * small ones is overlaid piece by piece. Once the budget is spent, a pair the sweep found
 * overlapping is taken as overlapping without measuring it: the tolerance is a leniency for
 * digitising noise, and only geometry built to exhaust the budget loses it.
 */
function overlapIsSignificant(a: number[][][], b: number[][][], budget: { left: number }): boolean {
  const [aw, as, ae, an] = polygonBBox(a),
    [bw, bs, be, bn] = polygonBBox(b);
  const common: [number, number, number, number] = [Math.max(aw, bw), Math.max(as, bs), Math.min(ae, be), Math.min(an, bn)];
  const size = (p: number[][][]) => p.reduce((sum, ring) => sum + ring.length, 0);
  budget.left -= size(a) + size(b);
  const clippedA = budget.left >= 0 ? clipToBBox(a, common) : a;
  const clippedB = budget.left >= 0 ? clipToBBox(b, common) : b;
  if (clippedA.length === 0 || clippedB.length === 0) return false;
  // polygon-clipping costs tens of microseconds per call before any position.
  budget.left -= 200 + 20 * (size(clippedA) + size(clippedB));
  if (budget.left < 0) return true;
  let overlap: number;
  try {
    overlap = areaOfAll(intersectionOf([clippedA], [clippedB]));
  } catch {
    // polygon-clipping refused the clipped pieces' degenerate border edges: overlay the polygons whole.
    overlap = areaOfAll(intersectionOf([a], [b]));
  }
  return significant(overlap, Math.min(areaOf([a]), areaOf([b])));
}

function areaOfAll(polygons: number[][][][]): number {
  return polygons.length === 0 ? 0 : areaOf(polygons);
}

function significant(area: number, of: number): boolean {
  return area > of * OVERLAP_TOLERANCE;
}

function dedupe(faults: GeometryFault[]): GeometryFault[] {
  const seen = new Set<string>();
  return faults.filter((f) => {
    const key = `${f.path.join('.')}|${f.message}`;
    return !seen.has(key) && (seen.add(key), true);
  });
}

/** Calls visit once for each pair of items whose bboxes overlap with a positive area. */
function forEachOverlappingBBox<T extends { bbox: [number, number, number, number] }>(items: T[], visit: (a: T, b: T) => void): void {
  const sorted = [...items].sort((a, b) => a.bbox[0] - b.bbox[0]);
  const active: T[] = [];
  for (const item of sorted) {
    const [w, s, , n] = item.bbox;
    let keep = 0;
    for (const other of active) if (other.bbox[2] > w) active[keep++] = other;
    active.length = keep;
    for (const other of active) if (other.bbox[1] < n && other.bbox[3] > s) visit(other, item);
    active.push(item);
  }
}
