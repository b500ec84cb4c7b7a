import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidRequestError, NotFoundError, problemOf, RequestTooLargeError, UnavailableError, ValidationError } from '@fieldcast/kit';
import { gridRequestErrors } from '@fieldcast/runtime';
import type { DegreeDayQuery } from '@fieldcast/schemas';
import { isoDate } from '@fieldcast/schemas';
import { loadWeatherSource, type ReloadingSource, SyntheticSource } from '@fieldcast/weather';
import { writeSyncedRun } from '../../../packages/weather/test/synced-store.js';
import { degreeDayComputer } from '../src/degree-day-compute.js';
import { fieldChill } from '../src/domain/chill.js';
import { degreeDayPoints, fieldContours, fieldDegreeDays } from '../src/domain/growing-degree-days.js';
import type { FieldRecord } from '../src/domain/fields.js';
import { errorData, reviveError } from '@fieldcast/runtime/workers';

/* Field results and contours computed in a worker thread are those computed inline, errors included. */
const source = new SyntheticSource();
const field: FieldRecord = {
  id: '0b7c9a52-4f5e-4d0a-9a53-3f1d7f7a2c11',
  accountId: 'a',
  description: '',
  polygons: [
    [
      [
        [-93.52, 41.99],
        [-93.47, 42.0],
        [-93.48, 42.04],
        [-93.52, 41.99],
      ],
    ],
  ],
  centroid: { latitude: 42.01, longitude: -93.49 },
  areaM2: 1,
};
const query: DegreeDayQuery = {
  base: 10,
  scale: 'celsius',
  start: '2024-04-01',
  end: '2024-09-30',
  method: 'single-sine',
  cap: 30,
  given: { method: 'single-sine', cap: '30' },
};
const computer = degreeDayComputer(source, { threads: 1 });
afterAll(() => computer.close());

describe('degree days in worker threads', () => {
  it('field result and contours equal the inline ones', async () => {
    const [field1, contours1] = await Promise.all([computer.field(field, query), computer.contours(field, query)]);
    expect(field1).toEqual(await fieldDegreeDays(source, field, query));
    expect(contours1).toEqual(await fieldContours(source, field, query));
    // the thread's first start transpiles its modules from the sources: seconds on a loaded machine
  }, 120_000);

  it('a batch spread over two idle threads answers every point as inline, in its order', async () => {
    const two = degreeDayComputer(source, { threads: 2 });
    try {
      two.prestart();
      const points = Array.from({ length: 250 }, (_, k) => ({
        longitude: -95 + (k % 25) * 0.173,
        latitude: 38 + Math.floor(k / 25) * 0.291,
      }));
      const season = { ...query, start: '2024-05-01', end: '2024-05-20' };
      expect(await two.degreeDayPoints(points, season)).toEqual(await degreeDayPoints(source, points, season));
    } finally {
      await two.close();
    }
  }, 120_000);

  it('field chill equals the inline one', async () => {
    const chill = { model: 'dynamic', start: '2023-11-01', end: '2024-01-15' } as const;
    expect(await computer.chill(field, chill)).toEqual(await fieldChill(source, field, chill));
  }, 120_000);

  it('an error thrown in the thread maps to the problem the error thrown inline maps to', async () => {
    // Within the work limit, so it is sent to the thread, whose weather read refuses days past
    // the synthetic world's coverage (a GridRequestError, 400 out_of_coverage).
    const beyond = { ...query, end: '2099-01-01' };
    const inline = await fieldContours(source, field, beyond).catch((err: unknown) => err);
    const threaded = await computer.contours(field, beyond).catch((err: unknown) => err);
    // Both worlds end 16 days after the wall clock's hour and the message names that instant,
    // which moves if the hour turns between the two reads: compare all else.
    const instants = /\d{4}-\d\d-\d\dT[\d:.]+Z/g;
    const comparable = (err: unknown) => {
      const problem = problemOf(err, [gridRequestErrors]);
      return { ...problem, message: problem.message.replace(instants, '<instant>') };
    };
    expect(comparable(threaded)).toEqual(comparable(inline));
    expect((inline as Error).message).toMatch(instants);
    expect(comparable(inline)).toMatchObject({ status: 400, id: 'out_of_coverage' });
  });

  it('a run synced after the threads were made is read in them, as inline', async () => {
    // The stores served are those of the moment (docs/decisions/0251-synced-stores-registry.md):
    // a thread sent the stores served when the computer was made read the synthetic world for good.
    const syncDir = mkdtempSync(join(tmpdir(), 'agriculture-synced-threads-'));
    const served = (await loadWeatherSource({ syncDir, reloadMs: 3_600_000 })) as ReloadingSource;
    const synced = degreeDayComputer(served, { threads: 1 });
    try {
      const DAY_MS = 86_400_000;
      const runMs = Math.floor(Date.now() / DAY_MS) * DAY_MS - 2 * DAY_MS;
      await writeSyncedRun(syncDir, 'gfs-0p25', {
        runMs,
        lats: [41.75, 42, 42.25],
        lons: [-93.75, -93.5, -93.25],
        fields: [
          { name: 'air_temperature', units: 'degC', value: () => 20 },
          { name: 'air_temperature_daily_max', units: 'degC', value: () => 20, axis: 'daily' },
          { name: 'air_temperature_daily_min', units: 'degC', value: () => 20, axis: 'daily' },
        ],
        steps: 24,
      });
      expect(await served.reload()).toBe(true);
      const day = { ...query, start: isoDate(runMs), end: isoDate(runMs) };
      const threaded = await synced.field(field, day);
      expect(threaded).toEqual(await fieldDegreeDays(served, field, day));
      expect(threaded).toMatchObject({ degreeDays: 10, fieldMean: 10 });
    } finally {
      await synced.close();
      await served.close();
      rmSync(syncDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('domain errors cross the thread boundary with their class and fields', () => {
    for (const err of [
      new InvalidRequestError('out_of_coverage', 'm', [{ path: 'end', message: 'x' }]),
      new ValidationError('invalid_geometry', 'm'),
      new RequestTooLargeError('m'),
      new UnavailableError('weather_data_missing', 'm'),
      new NotFoundError('field', 'abc'),
    ]) {
      const back = reviveError(structuredClone(errorData(err)));
      expect(back).toBeInstanceOf(err.constructor);
      expect(back).toEqual(err);
    }
    const unknown = reviveError(structuredClone(errorData(new TypeError('boom'))));
    expect(unknown.constructor).toBe(Error);
    expect(unknown.message).toBe('boom');
  });
});
