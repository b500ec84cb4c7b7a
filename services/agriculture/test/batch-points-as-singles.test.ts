import { chillQuerySchema, degreeDayQuerySchema } from '@fieldcast/schemas';
import { SyntheticSource } from '@fieldcast/weather';
import { chillPoints, locationChill } from '../src/domain/chill.js';
import { degreeDayPoints, locationDegreeDays } from '../src/domain/growing-degree-days.js';

/*
 * A batch's points answer exactly what each point's own request computes
 * (docs/decisions/0242-batch-requests.md), though degree days read the points together
 * (0306-batch-points-read-together.md). Computed here without the kept results of
 * src/point-results.ts, which a batch and the single requests after it share, so the service
 * tests' comparison of the two cannot see a difference in how they were computed.
 */
const NOW = Date.UTC(2024, 11, 15, 12);
const source = new SyntheticSource({ now: () => NOW });
const now = () => new Date(NOW);
const points = Array.from({ length: 40 }, (_, k) => ({ longitude: -100 + ((k * 37) % 300) / 7, latitude: -40 + ((k * 53) % 800) / 9 }));

it.each([
  { start: '2024-04-01', end: '2024-10-17' },
  { start: '2024-04-01', end: '2024-10-17', method: 'double-sine', cap: '30', cutoff: 'intermediate', include: 'daily' },
  { start: '2024-04-01', end: '2024-12-20', method: 'single-triangle', base: '50', cap: '86', scale: 'fahrenheit', cutoff: 'vertical' },
])('degree days, %o: every point as its own request, in order', async (query) => {
  const q = degreeDayQuerySchema(now).parse(query);
  const singles = [];
  for (const p of points) singles.push(await locationDegreeDays(source, q, p.latitude, p.longitude));
  expect(await degreeDayPoints(source, points, q)).toEqual(singles);
});

it('chill, default seasons by hemisphere and daily values: every point as its own request, in order', async () => {
  const q = chillQuerySchema(now).parse({ model: 'dynamic', end: '2024-10-15', include: 'daily' });
  const few = points.filter((_, k) => k % 7 === 0);
  const singles = [];
  for (const p of few) singles.push(await locationChill(source, q, p.latitude, p.longitude));
  expect(new Set(singles.map((r) => r.startDate))).toEqual(new Set(['2024-09-01', '2024-03-01']));
  expect(await chillPoints(source, few, q)).toEqual(singles);
});
