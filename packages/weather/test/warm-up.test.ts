import { SyntheticSource, warmSyntheticWorld } from '../src/index.js';

/*
 * The warm-up of a service's process or thread (docs/decisions/0305-synthetic-reads-compiled-at-start.md)
 * runs the reads a tile's band makes below the native zoom (hourly temperature as point grids) and
 * a batch of places makes (daily extremes at points), on a real source and inside its coverage.
 */
it('reads hourly temperature as point grids and daily extremes at points of the source it is given', async () => {
  const source = new SyntheticSource();
  const reads: { variables: readonly string[]; cells: number; timeMs: number }[] = [];
  let pointReads = 0;
  const counting: Pick<SyntheticSource, 'pointGrid' | 'dailyExtremesAtPoints'> = {
    pointGrid: (variables, lats, lons, timeMs) => {
      reads.push({ variables, cells: lats.length * lons.length, timeMs });
      return source.pointGrid(variables, lats, lons, timeMs);
    },
    dailyExtremesAtPoints: (lons, lats, range) => (pointReads++, source.dailyExtremesAtPoints(lons, lats, range)),
  };
  await warmSyntheticWorld(counting);
  expect(pointReads).toBeGreaterThanOrEqual(2);
  expect(reads.length).toBeGreaterThanOrEqual(2);
  for (const read of reads) {
    expect(read.variables).toEqual(['air_temperature']);
    expect(read.cells).toBeGreaterThanOrEqual(1_000);
    expect(read.timeMs).toBeGreaterThanOrEqual(source.coverage().startMs);
  }
});
