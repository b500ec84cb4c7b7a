import { MAX_BATCH_LOCATIONS } from '@fieldcast/schemas';
import { SyntheticSource } from '@fieldcast/weather';
import { warmDegreeDayPoints } from '../src/domain/growing-degree-days.js';

/*
 * The degree-day thread's warm-up (docs/decisions/0305-synthetic-reads-compiled-at-start.md):
 * besides the synthetic world's own reads, it computes batches of points as large as a request
 * may send, so the first batch a user sends finds the engine's code compiled for that shape.
 */
it('computes two batches of as many close points as a request may send, over a season', async () => {
  const source = new SyntheticSource();
  const reads: { points: number; spanDegrees: number; days: number }[] = [];
  const read = source.dailyExtremesAtPoints.bind(source);
  source.dailyExtremesAtPoints = (lons, lats, range) => {
    reads.push({
      points: lons.length,
      spanDegrees: Math.max(Math.max(...lons) - Math.min(...lons), Math.max(...lats) - Math.min(...lats)),
      days: Math.round((range.endMs - range.startMs) / 86_400_000) + 1,
    });
    return read(lons, lats, range);
  };
  await warmDegreeDayPoints(source);
  expect(reads).toEqual([
    { points: MAX_BATCH_LOCATIONS, spanDegrees: expect.any(Number), days: 200 },
    { points: MAX_BATCH_LOCATIONS, spanDegrees: expect.any(Number), days: 200 },
  ]);
  for (const { spanDegrees } of reads) expect(spanDegrees).toBeLessThanOrEqual(5);
});
