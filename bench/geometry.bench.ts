/**
 * Field geometry checks against rings built to defeat them (docs/decisions/0034-geometry-checks-bounded.md). Run:
 *   npx -y pnpm@10 exec tsx bench/geometry.bench.ts
 * For each shape at 1k, 4k and 16k positions: the time of polygonFaults (and of
 * polygonOverlapFaults for the field of many polygons) as a ratio to @turf/area of the same
 * polygon measured in the same run (a linear pass over the positions), and the growth of the
 * check's time per 4x positions: about 4.5 for n log n, 16 for n².
 * BENCH_GEOMETRY_MS sets the minimum time spent per measurement (default 300).
 */
import { areaOf, bboxRing, polygonFaults, polygonOverlapFaults, type Ring } from '../packages/geo/src/index.js';
import { comb, spiral, stripHoles, surveyedField, touchingHoles } from '../packages/geo/test/adversarial-rings.js';

const MIN_MS = Number(process.env.BENCH_GEOMETRY_MS ?? 300);
const SIZES = [1000, 4000, 16000];

/** Median time of one call in ms over batches, each batch at least MIN_MS / 5. */
function time(f: () => unknown): number {
  f();
  const batches: number[] = [];
  const start = performance.now();
  while (batches.length < 5 || performance.now() - start < MIN_MS) {
    let n = 0;
    const t0 = performance.now();
    do {
      f();
      n++;
    } while (performance.now() - t0 < MIN_MS / 10);
    batches.push((performance.now() - t0) / n);
  }
  batches.sort((a, b) => a - b);
  return batches[Math.floor(batches.length / 2)]!;
}

/** A field of many polygons: squares split along a diagonal, each triangle sharing edges and its bbox with neighbours. */
function triangles(positions: number): Ring[][] {
  const count = Math.min(1000, Math.floor(positions / 4));
  const side = Math.ceil(Math.sqrt(count / 2));
  const out: Ring[][] = [];
  for (let k = 0; out.length < count; k++) {
    // Neighbours' shared corners are the same numbers (k / side, not x + 1 / side), as in a real tiling.
    const x = (k % side) / side,
      y = Math.floor(k / side) / side,
      e = ((k % side) + 1) / side,
      n = (Math.floor(k / side) + 1) / side;
    out.push(
      [
        [
          [x, y],
          [e, y],
          [e, n],
          [x, y],
        ],
      ],
      [
        [
          [x, y],
          [e, n],
          [x, n],
          [x, y],
        ],
      ],
    );
  }
  return out.slice(0, count);
}

/** A field of one polygon with many holes and an island in each (at most 1,000 polygons per field). */
function islands(positions: number): Ring[][] {
  const count = Math.min(999, Math.floor(positions / 10));
  const side = Math.ceil(Math.sqrt(count)),
    d = 1 / side;
  const holes = Array.from({ length: count }, (_, k) =>
    bboxRing((k % side) * d + d * 0.1, Math.floor(k / side) * d + d * 0.1, (k % side) * d + d * 0.9, Math.floor(k / side) * d + d * 0.9),
  );
  const inside = holes.map((h) => [bboxRing(h[0]![0]! + d * 0.2, h[0]![1]! + d * 0.2, h[0]![0]! + d * 0.6, h[0]![1]! + d * 0.6)]);
  return [[bboxRing(0, 0, 1, 1), ...holes], ...inside];
}

type Shape = { name: string; valid: boolean; build: (n: number) => Ring[] | Ring[][]; field?: boolean };
const shapes: Shape[] = [
  { name: 'comb, long parallel edges', valid: true, build: (n) => comb(n) },
  { name: 'comb, one tooth crossing', valid: false, build: (n) => comb(n, true) },
  { name: 'spiral band', valid: true, build: (n) => spiral(n) },
  { name: 'slanted strip holes', valid: true, build: (n) => stripHoles(n) },
  { name: 'strip holes, one crossing', valid: false, build: (n) => stripHoles(n, true) },
  { name: 'holes touching the shell', valid: true, build: (n) => touchingHoles(n) },
  { name: 'touching holes, one outside', valid: false, build: (n) => touchingHoles(n, true) },
  { name: 'field: triangles sharing edges', valid: true, build: (n) => triangles(n), field: true },
  { name: 'field: islands in holes', valid: true, build: (n) => islands(n), field: true },
];

function main(): void {
  console.log(`node ${process.version}; times are medians; ratio = check / @turf/area of the same polygon(s)\n`);
  console.log('| shape | positions | check ms | @turf/area ms | check / area | growth per 4x |');
  console.log('|---|---|---|---|---|---|');
  for (const shape of shapes) {
    let previous: number | undefined;
    for (const n of SIZES) {
      const built = shape.build(n);
      const polygons = (shape.field ? built : [built]) as Ring[][];
      const positions = polygons.reduce((sum, rings) => sum + rings.reduce((s, r) => s + r.length, 0), 0);
      const check = shape.field ? () => polygonOverlapFaults(polygons) : () => polygonFaults(polygons[0]!);
      const faults = check();
      if ((faults.length === 0) !== shape.valid)
        throw new Error(`${shape.name} at ${n}: expected ${shape.valid ? 'valid' : 'faults'}, got ${JSON.stringify(faults.slice(0, 3))}`);
      const checkMs = time(check);
      const areaMs = time(() => areaOf(polygons as number[][][][]));
      const growth = previous === undefined ? '' : (checkMs / previous).toFixed(1);
      console.log(
        `| ${shape.name} | ${positions} | ${checkMs.toFixed(2)} | ${areaMs.toFixed(3)} | ${(checkMs / areaMs).toFixed(0)} | ${growth} |`,
      );
      previous = checkMs;
    }
  }
  const field = surveyedField(2000);
  const checkMs = time(() => polygonFaults(field)),
    areaMs = time(() => areaOf([field] as number[][][][]));
  console.log(`| surveyed field (realistic) | 2000 | ${checkMs.toFixed(2)} | ${areaMs.toFixed(3)} | ${(checkMs / areaMs).toFixed(0)} | |`);
}

main();
