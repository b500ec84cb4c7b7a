import type { Ring } from '../src/index.js';

/**
 * Polygons built against geometry checks (shared by polygon-checks.test.ts and
 * bench/geometry.bench.ts), each of about `positions` positions, inside [0, 1] x [0, 1] degrees.
 */

/**
 * A comb whose teeth are long edges running east, all open at once to a sweep in longitude: the
 * case that made the all-pairs sweep quadratic (docs/decisions/0034-geometry-checks-bounded.md). `cross` bends one
 * tooth in the middle across the next.
 */
export function comb(positions: number, cross = false): Ring[] {
  const teeth = Math.max(2, Math.floor(positions / 4));
  const dy = 1 / (2 * teeth);
  const ring: Ring = [[0, 0]];
  for (let i = 0; i < teeth; i++) {
    ring.push([1, 2 * i * dy], [1, (2 * i + 1) * dy]);
    if (i < teeth - 1) ring.push([0.01, (2 * i + 1) * dy], [0.01, (2 * i + 2) * dy]);
  }
  ring.push([0, (2 * teeth - 1) * dy], [0, 0]);
  if (cross) {
    // The far top corner of the middle tooth moved up past the next tooth: its edges cross that tooth's.
    const k = 1 + 4 * Math.floor(teeth / 2) + 1;
    ring[k] = [1, (ring[k]![1] as number) + 2.5 * dy];
  }
  return [ring];
}

/**
 * A square spiral band (the centre line winds inwards in left turns, the ring runs in along its
 * left wall and out along its right one): every edge long, the edges nested around each other.
 */
export function spiral(positions: number): Ring[] {
  const arms = Math.max(4, Math.floor(positions / 2) - 1);
  const d = 1 / (arms / 2 + 2);
  const dirs = [
    [1, 0],
    [0, 1],
    [-1, 0],
    [0, -1],
  ] as const;
  const centre: number[][] = [[d, d]];
  for (let k = 0; k < arms; k++) {
    const length = k < 3 ? 1 - d : 1 - d - Math.floor((k - 1) / 2) * d;
    const [dx, dy] = dirs[k % 4]!;
    const [x, y] = centre[k]!;
    centre.push([x! + dx * length, y! + dy * length]);
  }
  // For axis-parallel edges turning left, the wall at offset o passes through C + o (n_in + n_out).
  const wall = (o: number) =>
    centre.map(([x, y], k) => {
      const normal = (j: number) => {
        const [dx, dy] = dirs[Math.min(Math.max(j, 0), arms - 1) % 4]!;
        return [-dy, dx];
      };
      const [ax, ay] = normal(k - 1),
        [bx, by] = normal(k);
      const n = k === 0 ? [bx!, by!] : k === arms ? [ax!, ay!] : [ax! + bx!, ay! + by!];
      return [x! + o * n[0]!, y! + o * n[1]!];
    });
  const ring: Ring = [...wall(d / 4), ...wall(-d / 4).reverse()];
  ring.push(ring[0]!);
  return [ring];
}

/** A square with holes that are long thin strips, every hole's bbox overlapping every other's. */
export function stripHoles(positions: number, overlap = false): Ring[] {
  const holes = Math.max(1, Math.floor((positions - 5) / 5));
  const dy = 1 / (2 * holes + 1);
  const rings: Ring[] = [
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ],
  ];
  for (let i = 0; i < holes; i++) {
    // Slanted so that every strip's bbox overlaps all the others'.
    const y0 = (2 * i + 1) * dy,
      y1 = y0 + dy;
    rings.push([
      [0.01, y0],
      [0.99, y0 + dy * 0.5],
      [0.99, y1 + dy * 0.5],
      [0.01, y1],
      [0.01, y0],
    ]);
  }
  if (overlap)
    rings.push([
      [0.4, 0.4],
      [0.6, 0.4],
      [0.6, 0.6],
      [0.4, 0.6],
      [0.4, 0.4],
    ]);
  return rings;
}

/**
 * A square whose south edge has many positions, with a triangular hole touching each of them
 * (OGC's tangent: valid), so every hole touches a long exterior ring. `outside` puts one of the
 * triangles below the square, touching it from outside.
 */
export function touchingHoles(positions: number, outside = false): Ring[] {
  const holes = Math.max(1, Math.floor(positions / 5));
  const dx = 1 / (holes + 1);
  const south: number[][] = Array.from({ length: holes + 2 }, (_, k) => [k * dx, 0]);
  const rings: Ring[] = [[...south, [1, 1], [0, 1], [0, 0]]];
  for (let i = 1; i <= holes; i++) {
    const x = i * dx;
    const below = outside && i === Math.ceil(holes / 2);
    const y = below ? -0.5 : 0.5;
    rings.push(
      below
        ? [
            [x, 0],
            [x - dx / 3, y],
            [x + dx / 3, y],
            [x, 0],
          ]
        : [
            [x, 0],
            [x + dx / 3, y],
            [x - dx / 3, y],
            [x, 0],
          ],
    );
  }
  return rings;
}

/** A field as surveyed: a wobbly loop of `positions` positions a kilometre or so across at 42 N. */
export function surveyedField(positions: number): Ring[] {
  const ring: Ring = [];
  for (let k = 0; k < positions - 1; k++) {
    const t = (2 * Math.PI * k) / (positions - 1);
    const r = 0.006 * (1 + 0.15 * Math.sin(3 * t) + 0.05 * Math.sin(17 * t));
    ring.push([-93.63 + r * Math.cos(t) * 1.35, 42.03 + r * Math.sin(t)]);
  }
  ring.push(ring[0]!);
  return [ring];
}
