import { createHash } from 'node:crypto';
import { SyntheticSource } from '../src/index.js';
import { cellClimate } from '../src/synthetic/geoclimate.js';

/*
 * The synthetic world's values do not move when its code is made faster (as for the sub-grid reads
 * of docs/decisions/0165-dataset-rows-by-subgrid-reads.md: speed work changes the algorithm, never
 * the numbers). Each digest is SHA-1 of the float32 bytes as the code computed them before such a
 * change; a change that moves any value, down to the sign of a zero, fails here.
 */
const digest = (arrays: Float32Array[]) => {
  const h = createHash('sha1');
  for (const a of arrays) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return h.digest('hex');
};

const lats = Float64Array.from({ length: 90 }, (_, i) => -89.9 + i * 2.0021);
const lons = Float64Array.from({ length: 120 }, (_, i) => -179.9 + i * 3.0013);

it('the climate terms of cells between lattice nodes', () => {
  const c = cellClimate(lats, lons);
  expect(
    digest(
      Object.keys(c)
        .sort()
        .map((k) => c[k as keyof typeof c]),
    ),
  ).toBe('79bd204e4a3884ff4031e02de0a7ba5d4e240bcd');
});

it('a point grid of hourly air temperature, dewpoint and precipitation at one hour', async () => {
  const source = new SyntheticSource();
  const grid = await source.pointGrid(
    ['air_temperature', 'dew_point_temperature', 'precipitation_rate'],
    lats.subarray(20, 60),
    lons.subarray(30, 70),
    Date.UTC(2025, 6, 14, 15),
  );
  expect(digest(grid)).toBe('396aee2dfb210a380dcf26322fc0c50434fd33e1');
});

it('a sub-grid of hourly and daily temperatures over every longitude, each column on its own local days', async () => {
  const source = new SyntheticSource();
  const t = Date.UTC(2025, 6, 14, 15);
  const windows = await source.subgrid(
    ['air_temperature', 'dew_point_temperature', 'air_temperature_daily_max', 'air_temperature_daily_min', 'precipitation_rate'],
    Float64Array.from({ length: 30 }, (_, i) => -89.9 + i * 6.1),
    Float64Array.from({ length: 60 }, (_, i) => -180 + i * 6.0013),
    { startMs: t - 30 * 3_600_000, endMs: t + 20 * 3_600_000 },
  );
  expect(digest(windows.map((w) => w.values))).toBe('32cef825c7561e7fe6dfaa945757cbc9ba1a4dd6');
});

it('one-hour sub-grids of air temperature and precipitation over every longitude and latitude, each column reading only the days its hour needs', async () => {
  // Every local hour, polar day and night (the December solstice): hours before the minimum's
  // plateau read the day before's maximum, hours after the maximum's the next day's minimum.
  const source = new SyntheticSource();
  const values: Float32Array[] = [];
  for (const hour of [0, 7, 13, 20]) {
    const t = Date.UTC(2025, 11, 21, hour);
    const windows = await source.subgrid(
      ['air_temperature', 'precipitation_rate'],
      Float64Array.from({ length: 37 }, (_, i) => -90 + i * 5),
      Float64Array.from({ length: 96 }, (_, i) => -180 + i * 3.75),
      { startMs: t, endMs: t },
    );
    values.push(...windows.map((w) => w.values));
  }
  expect(digest(values)).toBe('39fbef35972e707d7934a9d6616c22ae0aff8d77');
});

it('the five ET inputs of a point by the antimeridian over eight days', async () => {
  const inputs = await new SyntheticSource().etInputsAt(179.995, -10.3, {
    startMs: Date.UTC(2024, 5, 1, 3),
    endMs: Date.UTC(2024, 5, 9, 5),
  });
  expect(digest(Object.values(inputs).map((s) => s.values))).toBe('4daf45dc13404d8a873ba6b9618f668e7e7b5029');
});

it('daily extremes of scattered points read together over a season (a batch of places)', async () => {
  // Points spread over every longitude and latitude, so the list block's noise nodes, raw anchors
  // and per-point blends (docs/decisions/0335-batch-anchors-per-cell-day.md) meet every case.
  const lons = Float64Array.from({ length: 200 }, (_, k) => -179.995 + ((k * 137.508) % 359.99));
  const lats = Float64Array.from({ length: 200 }, (_, k) => -89.5 + ((k * 61.803) % 179));
  const points = await new SyntheticSource().dailyExtremesAtPoints(lons, lats, {
    startMs: Date.UTC(2024, 3, 1),
    endMs: Date.UTC(2024, 9, 17),
  });
  expect(digest(points.flatMap((p) => [p.tmax.values, p.tmin.values]))).toBe('7194ec18182d7f77070b2edf9f9e3986f2973734');
});
