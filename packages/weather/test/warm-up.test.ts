import { pixelCentre, SyntheticSource, warmSyntheticWorld } from '../src/index.js';

/*
 * The warm-up of a service's process or thread (docs/decisions/0305-synthetic-reads-compiled-at-start.md)
 * runs the reads a tile's band makes below the native zoom (hourly temperature as point grids) and
 * a batch of places makes (daily extremes at points), on a real source and inside its coverage.
 * The point grids are a sliver and then bands of a world view's tile, polar and equatorial
 * (docs/decisions/0355-cold-tiles-drawn-by-compiled-code.md): the engine compiles a band's loops
 * for the shapes and statements it ran.
 */
it('reads hourly temperature as point grids and daily extremes at points of the source it is given', async () => {
  const source = new SyntheticSource();
  const reads: { variables: readonly string[]; cells: number; timeMs: number; lats: Float64Array; lons: Float64Array }[] = [];
  let pointReads = 0;
  const counting: Pick<SyntheticSource, 'pointGrid' | 'dailyExtremesAtPoints'> = {
    pointGrid: (variables, lats, lons, timeMs) => {
      reads.push({ variables, cells: lats.length * lons.length, timeMs, lats, lons });
      return source.pointGrid(variables, lats, lons, timeMs);
    },
    dailyExtremesAtPoints: (lons, lats, range) => (pointReads++, source.dailyExtremesAtPoints(lons, lats, range)),
  };
  await warmSyntheticWorld(counting);
  expect(pointReads).toBeGreaterThanOrEqual(2);
  expect(reads.length).toBeGreaterThanOrEqual(2);
  const worldColumns = Array.from({ length: 256 }, (_, column) => pixelCentre(0, 0, 0, 0, column).lon);
  const worldRows = Array.from({ length: 256 }, (_, row) => pixelCentre(0, 0, 0, row, 0).lat);
  for (const read of reads) {
    expect(read.variables).toEqual(['air_temperature']);
    expect(read.timeMs).toBeGreaterThanOrEqual(source.coverage().startMs);
    // pixel centres of the zoom-0 tile: a run of its rows, a run of its columns from the first
    expect(Array.from(read.lons)).toEqual(worldColumns.slice(0, read.lons.length));
    const first = worldRows.indexOf(read.lats[0]!);
    expect(Array.from(read.lats)).toEqual(worldRows.slice(first, first + read.lats.length));
  }
  // First a sliver, every statement run once before a loop is compiled mid-run; then whole bands
  // of 16 rows by 256 columns, polar and equatorial among them; then slivers, for the engine to
  // compile the functions whole.
  expect(reads[0]!.cells).toBeLessThan(100);
  expect(reads.at(-1)!.cells).toBeLessThan(100);
  expect(reads.filter((r) => r.cells < 100).length).toBeGreaterThanOrEqual(10);
  const bands = reads.filter((r) => r.lats.length === 16 && r.lons.length === 256);
  expect(bands.length).toBeGreaterThanOrEqual(3);
  expect(bands.some((r) => Math.abs(r.lats[0]!) > 66.5)).toBe(true);
  expect(bands.some((r) => r.lats.some((lat) => Math.abs(lat) < 10))).toBe(true);
});
