import { OrderedSet, type SetNode } from './ordered-set.js';

export type Position = [number, number] | number[];
export type Ring = Position[];

/** One edge of positive length of a ring, as the checks of polygon-checks.ts see it. */
export interface Segment {
  /** ends in ring order */
  ax: number;
  ay: number;
  bx: number;
  by: number;
  /** ends in sweep order: l before r by longitude, then latitude */
  lx: number;
  ly: number;
  rx: number;
  ry: number;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
  /** polygon (group) and ring the edge belongs to */
  group: number;
  ring: number;
  /** place among the ring's edges of positive length, and how many there are */
  seq: number;
  ringLength: number;
  /**
   * How the count of `group` changes when a point crosses the edge from below to above, above
   * meaning left of the edge directed l to r (for a vertical edge: west of it).
   */
  delta: number;
  id: number;
}

/**
 * The edges of positive length of every ring (repeated positions are skipped). `counts` says
 * which region a ring's interior adds to: for each ring, +1 (its interior is counted, e.g. an
 * exterior ring) or -1 (its interior is taken away, e.g. a hole of a polygon).
 */
export function ringSegments(rings: Ring[], group: number, counts: (ring: number) => number = () => 1, firstId = 0): Segment[] {
  const out: Segment[] = [];
  rings.forEach((ring, r) => {
    const start = out.length;
    const ccw = ringTurn(ring) >= 0;
    const sign = counts(r);
    for (let i = 0; i + 1 < ring.length; i++) {
      const ax = ring[i]![0] as number,
        ay = ring[i]![1] as number,
        bx = ring[i + 1]![0] as number,
        by = ring[i + 1]![1] as number;
      if (ax === bx && ay === by) continue;
      const forward = ax < bx || (ax === bx && ay < by);
      // Left of the ring's direction is its interior when the ring is counter-clockwise.
      const interiorAbove = forward === ccw;
      out.push({
        ax,
        ay,
        bx,
        by,
        lx: forward ? ax : bx,
        ly: forward ? ay : by,
        rx: forward ? bx : ax,
        ry: forward ? by : ay,
        minX: Math.min(ax, bx),
        maxX: Math.max(ax, bx),
        minY: Math.min(ay, by),
        maxY: Math.max(ay, by),
        group,
        ring: r,
        seq: out.length - start,
        ringLength: 0,
        delta: interiorAbove ? sign : -sign,
        id: firstId + out.length,
      });
    }
    for (let k = start; k < out.length; k++) out[k]!.ringLength = out.length - start;
  });
  return out;
}

/**
 * The turn at a ring's lowest-leftmost position: > 0 counter-clockwise, < 0 clockwise, 0 for a
 * ring that is degenerate there (whose edges then overlap, which the sweep reports). A simple
 * ring is convex at its extreme position, so one orientation test there gives the orientation
 * of the whole ring, where the shoelace sum could lose its sign to rounding.
 */
function ringTurn(ring: Ring): number {
  const n = ring.length - 1;
  if (n < 3) return 0;
  let m = 0;
  for (let i = 1; i < n; i++) {
    const p = ring[i]!,
      q = ring[m]!;
    if ((p[0] as number) < (q[0] as number) || (p[0] === q[0] && (p[1] as number) < (q[1] as number))) m = i;
  }
  const v = ring[m]!;
  const same = (p: Position) => p[0] === v[0] && p[1] === v[1];
  let i = (m + n - 1) % n,
    k = 0;
  while (same(ring[i]!) && k++ < n) i = (i + n - 1) % n;
  let j = (m + 1) % n;
  k = 0;
  while (same(ring[j]!) && k++ < n) j = (j + 1) % n;
  const p = ring[i]!,
    q = ring[j]!;
  return orient(p[0] as number, p[1] as number, v[0] as number, v[1] as number, q[0] as number, q[1] as number);
}

export interface Meeting {
  /** cross: the interiors of both edges cross; overlap: collinear along a stretch; touch: one point */
  kind: 'cross' | 'overlap' | 'touch';
  at: [number, number];
}

export const orient = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) =>
  (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
const within = (s: Segment, x: number, y: number) => x >= s.minX && x <= s.maxX && y >= s.minY && y <= s.maxY;

/** How two edges meet, or null when they do not. */
export function meet(s: Segment, t: Segment): Meeting | null {
  const d1 = orient(s.ax, s.ay, s.bx, s.by, t.ax, t.ay);
  const d2 = orient(s.ax, s.ay, s.bx, s.by, t.bx, t.by);
  const d3 = orient(t.ax, t.ay, t.bx, t.by, s.ax, s.ay);
  const d4 = orient(t.ax, t.ay, t.bx, t.by, s.bx, s.by);
  if (((d1 < 0 && d2 > 0) || (d1 > 0 && d2 < 0)) && ((d3 < 0 && d4 > 0) || (d3 > 0 && d4 < 0))) {
    const f = d3 / (d3 - d4);
    return { kind: 'cross', at: [s.ax + f * (s.bx - s.ax), s.ay + f * (s.by - s.ay)] };
  }
  if (d1 === 0 && d2 === 0) {
    // Collinear: project on the longer axis of s and compare the stretches.
    const useX = s.maxX - s.minX >= s.maxY - s.minY;
    const lo = Math.max(useX ? s.minX : s.minY, useX ? t.minX : t.minY);
    const hi = Math.min(useX ? s.maxX : s.maxY, useX ? t.maxX : t.maxY);
    if (lo > hi) return null;
    const at: [number, number] = within(s, t.ax, t.ay) ? [t.ax, t.ay] : within(s, t.bx, t.by) ? [t.bx, t.by] : [s.ax, s.ay];
    return { kind: lo < hi ? 'overlap' : 'touch', at };
  }
  if (d1 === 0 && within(s, t.ax, t.ay)) return { kind: 'touch', at: [t.ax, t.ay] };
  if (d2 === 0 && within(s, t.bx, t.by)) return { kind: 'touch', at: [t.bx, t.by] };
  if (d3 === 0 && within(t, s.ax, s.ay)) return { kind: 'touch', at: [s.ax, s.ay] };
  if (d4 === 0 && within(t, s.bx, s.by)) return { kind: 'touch', at: [s.bx, s.by] };
  return null;
}

/** Neighbouring edges of one ring: they share their common position. */
export function adjacent(a: Segment, b: Segment): boolean {
  const gap = Math.abs(a.seq - b.seq);
  return a.group === b.group && a.ring === b.ring && (gap === 1 || gap === a.ringLength - 1);
}

/**
 * Calls visit for every two edges that meet, by an all-pairs sweep in longitude: edges sorted by
 * their west end, each compared with the edges still open at that longitude whose latitude spans
 * overlap. Near n log n on real rings but quadratic on rings built against it (long parallel
 * edges all open at once), so it is given a budget of pair comparisons and returns false when
 * the budget ran out before every pair was seen. Used only to list the faults of geometry that
 * boundarySweep already found invalid, or to measure overlaps it cannot; never to accept one.
 */
export function sweepSegments(
  segments: Segment[],
  budget: { left: number },
  done: () => boolean,
  visit: (a: Segment, b: Segment, meeting: Meeting) => void,
): boolean {
  const sorted = [...segments].sort((a, b) => a.minX - b.minX);
  const active: Segment[] = [];
  for (const s of sorted) {
    if (done()) return true;
    budget.left -= active.length + 1;
    if (budget.left < 0) return false;
    let keep = 0;
    for (const t of active) if (t.maxX >= s.minX) active[keep++] = t;
    active.length = keep;
    for (const t of active) {
      if (t.maxY < s.minY || t.minY > s.maxY) continue;
      const m = meet(t, s);
      if (m) visit(t, s, m);
    }
    active.push(s);
  }
  return true;
}

/**
 * What covers one face of the arrangement of edges (a region no edge crosses): the sum of the
 * groups' counts there, the count of group 0, and up to COVER_WITNESSES of the groups that count
 * it (the last entered first), to name them in faults.
 */
export interface Cover {
  total: number;
  zero: number;
  groups: readonly number[];
}

const COVER_WITNESSES = 8;
const OUTSIDE: Cover = { total: 0, zero: 0, groups: [] };

function crossUp(below: Cover, s: Segment): Cover {
  const groups = below.groups.filter((g) => g !== s.group);
  if (s.delta > 0) groups.unshift(s.group);
  if (groups.length > COVER_WITNESSES) groups.length = COVER_WITNESSES;
  return { total: below.total + s.delta, zero: below.zero + (s.group === 0 ? s.delta : 0), groups };
}

export interface SweepRules {
  /** Whether two edges that meet this way make the geometry invalid: the sweep stops at the first. */
  fault(a: Segment, b: Segment, meeting: Meeting): boolean;
  /** When true, a ring may pass through each of its positions once only (a simple ring). */
  simpleRings: boolean;
  /** Order of collinear edges in the status, lower first (the sweep's tie-break). */
  collinear(a: Segment, b: Segment): number;
  /** Called with the face just above an edge, each time that face is (re)computed. */
  face(above: Cover, edge: Segment): void;
  /** With simpleRings: called at each position two or more rings pass through, with one of each ring's edges there. */
  junction?(x: number, y: number, rings: readonly Segment[]): void;
}

export type SweepStop = { a: Segment; b: Segment; meeting: Meeting };

interface Status {
  s: Segment;
  above: Cover;
}

/**
 * One plane sweep over all edges that stops at the first fault the rules name, in
 * O(n log n) time whatever the input: Shamos & Hoey's test whether any two of n segments
 * intersect (1976, "Geometric intersection problems", FOCS), extended to edges that may meet at
 * positions (rings touching at points, neighbouring edges sharing their common position).
 *
 * Events are the edges' end positions in lexicographic order (longitude, then latitude: the
 * sweep line is turned by an infinitesimal angle, so vertical edges need no special case). The
 * status holds the edges the sweep line crosses, ordered from south to north in a balanced set
 * (OrderedSet). At each position v the edges ending at, starting at or passing through v form
 * one contiguous block of the status; only edges that become neighbours are tested (meet), which
 * finds a crossing or an overlap before the sweep passes the leftmost one (Shamos & Hoey's
 * argument: two edges that cross are neighbours just before they do). Edges meeting only at v
 * are allowed or not by the rules; a ring that passes through v more than twice touches itself.
 *
 * While nothing crosses, the status order also tells every face what covers it: the face just
 * above an edge is the face just below it crossed upward (Cover). The block is recomputed at
 * each position from the edge below it, so a ring that touches another at v (even crossing it
 * there, which no pair of edges shows) changes the counts of exactly the faces it bounds.
 * Returns the first fault met, or null when the rules found none.
 */
export function boundarySweep(segments: Segment[], rules: SweepRules): SweepStop | null {
  type Event = { x: number; y: number; s: Segment; start: boolean };
  const events: Event[] = [];
  for (const s of segments) events.push({ x: s.lx, y: s.ly, s, start: true }, { x: s.rx, y: s.ry, s, start: false });
  events.sort((a, b) => a.x - b.x || a.y - b.y);
  const status = new OrderedSet<Status>();
  const nodes = new Map<Segment, SetNode<Status>>();
  // Where v lies against an edge in the status: > 0 above it, 0 on it, < 0 below it.
  const side = (t: Segment, x: number, y: number) => orient(t.lx, t.ly, t.rx, t.ry, x, y);
  // The order of a new edge s starting at (x, y) against an edge t: by where each leaves (x, y).
  const compare = (s: Segment, t: Segment, x: number, y: number) =>
    side(t, x, y) || side(t, s.rx, s.ry) || rules.collinear(s, t) || s.id - t.id;

  for (let e = 0; e < events.length;) {
    const x = events[e]!.x,
      y = events[e]!.y;
    const starting: Segment[] = [];
    const ending: Segment[] = [];
    for (; e < events.length && events[e]!.x === x && events[e]!.y === y; e++) (events[e]!.start ? starting : ending).push(events[e]!.s);

    const below = status.lastWhere((t) => side(t.s, x, y) > 0);
    const block: SetNode<Status>[] = [];
    for (let at = below ? status.next(below) : status.first(); at && side(at.item.s, x, y) === 0; at = status.next(at)) block.push(at);

    if (rules.simpleRings) {
      // How many times each ring passes through v: an edge ending or starting there once, one passing through twice.
      const passes: Segment[] = [];
      const counts: number[] = [];
      const use = (s: Segment, times: number) => {
        const k = passes.findIndex((p) => p.group === s.group && p.ring === s.ring);
        if (k < 0) {
          passes.push(s);
          counts.push(times);
        } else counts[k]! += times;
      };
      for (const n of block) use(n.item.s, n.item.s.rx === x && n.item.s.ry === y ? 1 : 2);
      for (const s of starting) use(s, 1);
      const k = counts.findIndex((c) => c > 2);
      if (k >= 0) {
        const a = passes[k]!;
        const list = [...block.map((n) => n.item.s), ...starting].filter((s) => s.group === a.group && s.ring === a.ring);
        const b = list.find((s) => s !== a && !adjacent(a, s)) ?? list[list.length - 1]!;
        return { a, b, meeting: { kind: 'touch', at: [x, y] } };
      }
      if (passes.length >= 2) rules.junction?.(x, y, passes);
    }

    for (const s of ending) {
      const node = nodes.get(s);
      if (node) status.remove(node);
      nodes.delete(s);
    }
    starting.sort((a, b) => compare(a, b, x, y));
    for (const s of starting)
      nodes.set(
        s,
        status.insert({ s, above: OUTSIDE }, (t) => compare(s, t.s, x, y)),
      );

    // The block after the position: edges passing through v and edges starting there, south to north.
    const after: SetNode<Status>[] = [];
    let at = below ? status.next(below) : status.first();
    for (; at && side(at.item.s, x, y) === 0; at = status.next(at)) after.push(at);
    // Every two edges that are neighbours now, from the edge below the block to the one above it.
    let lower = below;
    for (let k = 0; k <= after.length; k++) {
      const upper = k < after.length ? after[k]! : at;
      if (lower && upper) {
        const a = lower.item.s,
          b = upper.item.s;
        const m = meet(a, b);
        if (m && rules.fault(a, b, m)) return { a, b, meeting: m };
      }
      lower = upper;
    }
    let cover = below ? below.item.above : OUTSIDE;
    for (const n of after) {
      cover = crossUp(cover, n.item.s);
      n.item.above = cover;
      rules.face(cover, n.item.s);
    }
  }
  return null;
}
