import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { clearSkyRadiation, dayOfYear, extraterrestrialRadiationHourly } from '@fieldcast/science';
import { hourMeans, meanWeights, SyntheticSource, timeCellOf } from '../src/index.js';
import { GridStoreWriter, ingestFile, ZarrSource } from '../src/stores.js';
import { type NcSpec, writeCdf1 } from './ingest-fixtures.js';

/*
 * Which interval a stamp's value covers, per source, and the hour [h, h + 1 h) read from it
 * (docs/decisions/0379-time-cells-of-mean-rates.md).
 */
const H = 3_600_000;
const T0 = Date.UTC(2026, 5, 14);

describe('the mean over an hour from stamps (grid/time-cells.ts)', () => {
  const values = Float32Array.from([10, 20, 30, 40]);
  const series = (timeCell?: readonly [number, number], stepMs = H) => ({ startMs: T0, stepMs, values, ...(timeCell ? { timeCell } : {}) });

  it('a mean ending at its stamp: the hour [h, h + 1 h) is the stamp h + 1 h', () => {
    expect(Array.from(hourMeans(series([-H, 0]), T0, 3))).toEqual([20, 30, 40]);
  });

  it('a mean starting at its stamp: the stamp h', () => {
    expect(Array.from(hourMeans(series([0, H]), T0, 4))).toEqual([10, 20, 30, 40]);
  });

  it('a mean centred on its stamp and an instant: the mean of the stamps h and h + 1 h', () => {
    expect(Array.from(hourMeans(series([-H / 2, H / 2]), T0, 3))).toEqual([15, 25, 35]);
    expect(Array.from(hourMeans(series(), T0, 3))).toEqual([15, 25, 35]);
  });

  it('an hour the stamps do not reach is missing, not zero', () => {
    expect(Array.from(hourMeans(series([-H, 0]), T0 + 3 * H, 1))).toEqual([Number.NaN]);
    expect(Array.from(hourMeans(series([-H, 0]), T0 - H, 1))).toEqual([10]);
    expect(Array.from(hourMeans(series(), T0 - H, 1))).toEqual([Number.NaN]);
  });

  it('3-hourly steps: a mean holds for each hour of its cell, an instant is linear between stamps', () => {
    // Cells (T0 - 3 h, T0], (T0, T0 + 3 h], ...: the hours from T0 lie in the cell ending at T0 + 3 h.
    expect(Array.from(hourMeans(series([-3 * H, 0], 3 * H), T0, 4))).toEqual([20, 20, 20, 30]);
    // The curve through (T0, 10) and (T0 + 3 h, 20): its means over the hours are 10 + 10 (k + 0.5) / 3.
    hourMeans(series(undefined, 3 * H), T0, 3).forEach((v, k) => expect(v).toBeCloseTo(10 + (10 * (k + 0.5)) / 3, 5));
    // An hour across two cells weights each by its overlap.
    expect(meanWeights({ startMs: T0, stepMs: 3 * H, length: 4, timeCell: [-1.5 * H, 1.5 * H] }, T0 + H, T0 + 2 * H)).toEqual({
      first: 0,
      weights: Float64Array.of(0.5, 0.5),
    });
  });
});

describe('the synthetic world: shortwave is the mean over the hour centred on its stamp', () => {
  const source = new SyntheticSource();

  it('says so, and precipitation is the rate at the instant', () => {
    const byId = new Map(source.variables().map((v) => [v.id, v]));
    expect(timeCellOf(byId.get('surface_downwelling_shortwave_flux_in_air')!)).toEqual([-H / 2, H / 2]);
    expect(timeCellOf(byId.get('surface_downwelling_shortwave_flux_in_air_assuming_clear_sky')!)).toEqual([-H / 2, H / 2]);
    expect(timeCellOf(byId.get('precipitation_rate')!)).toEqual([0, 0]);
  });

  it('its clear-sky radiation at a stamp is ASCE-EWRI 2005 Rso (eq. 47) over the hour centred on it', async () => {
    // A morning hour, when Ra changes fast, at a grid point of the 0.01 degree grid.
    const [lat, lon] = [40, -105];
    const at = Date.UTC(2026, 5, 14, 14);
    const range = { startMs: at, endMs: at };
    const [rso, z] = await Promise.all([
      source.pointSeries('surface_downwelling_shortwave_flux_in_air_assuming_clear_sky', lon, lat, range),
      source.pointSeries('surface_altitude', lon, lat, range),
    ]);
    expect(rso.timeCell).toEqual([-H / 2, H / 2]);
    const overHour = (midpointHour: number) =>
      (clearSkyRadiation(extraterrestrialRadiationHourly(lat, lon, dayOfYear(new Date(at)), midpointHour), z.values[0]!) * 1e6) / 3600;
    expect(Math.abs(rso.values[0]! - overHour(14))).toBeLessThan(0.01 * overHour(14));
    // Not the hour before it nor the hour after.
    expect(Math.abs(overHour(13.5) - overHour(14))).toBeGreaterThan(0.1 * overHour(14));
    expect(Math.abs(overHour(14.5) - overHour(14))).toBeGreaterThan(0.1 * overHour(14));
  });
});

describe('stores: what their time axes say', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'time-cells-'));
  });
  afterAll(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  /** A 3-hourly file of one cell's shortwave, with the time bounds given (CF 1.11 §7.1) or none. */
  const file = (bounds: number[] | null): NcSpec => ({
    dims: [
      { name: 'time', size: 4 },
      { name: 'nv', size: 2 },
      { name: 'lat', size: 2 },
      { name: 'lon', size: 2 },
    ],
    vars: [
      {
        name: 'time',
        dims: ['time'],
        type: 'double',
        attrs: { units: 'hours since 2026-06-14 00:00:00', standard_name: 'time', ...(bounds ? { bounds: 'time_bnds' } : {}) },
        data: [3, 6, 9, 12],
      },
      ...(bounds ? [{ name: 'time_bnds', dims: ['time', 'nv'], type: 'double' as const, data: bounds }] : []),
      { name: 'lat', dims: ['lat'], type: 'double', attrs: { units: 'degrees_north' }, data: [10, 11] },
      { name: 'lon', dims: ['lon'], type: 'double', attrs: { units: 'degrees_east' }, data: [20, 21] },
      {
        name: 'rsds',
        dims: ['time', 'lat', 'lon'],
        type: 'float',
        attrs: { units: 'W m-2', standard_name: 'surface_downwelling_shortwave_flux_in_air', cell_methods: 'time: mean' },
        data: [100, 100, 100, 100, 200, 200, 200, 200, 300, 300, 300, 300, 400, 400, 400, 400],
      },
    ],
  });

  it('an ingested file with time bounds: the cell its bounds give, kept in the store', async () => {
    // Each value the mean over the 3 hours ending at its time, as a model's accumulations are.
    const nc = path.join(tmp, 'ending.nc');
    await writeCdf1(nc, file([0, 3, 3, 6, 6, 9, 9, 12]));
    const { storePath, skipped } = await ingestFile(nc, { outDir: tmp });
    expect(skipped).toEqual([]);
    const store = await ZarrSource.open(storePath);
    const info = store.variables().find((v) => v.id === 'surface_downwelling_shortwave_flux_in_air')!;
    expect(info.timeCell).toEqual([-3 * H, 0]);
    const s = await store.pointSeries(info.id, 20, 10, { startMs: T0 + 3 * H, endMs: T0 + 12 * H });
    expect(s.timeCell).toEqual([-3 * H, 0]);
    // The hours from 03:00 lie in (03:00, 06:00], the mean stamped 06:00.
    expect(Array.from(hourMeans(s, T0 + 3 * H, 4))).toEqual([200, 200, 200, 300]);
  });

  it('an ingested file without bounds: the step centred on the stamp (CF 1.11 §7.1)', async () => {
    const nc = path.join(tmp, 'unbounded.nc');
    await writeCdf1(nc, file(null));
    const store = await ZarrSource.open((await ingestFile(nc, { outDir: tmp })).storePath);
    const info = store.variables().find((v) => v.id === 'surface_downwelling_shortwave_flux_in_air')!;
    expect(info.timeCell).toBeUndefined();
    expect(timeCellOf(info)).toEqual([-1.5 * H, 1.5 * H]);
  });

  it("a synced store written without bounds: the mean rates' axis time_mean_1h holds the hour ending at each stamp (0250, 0379)", async () => {
    const dir = path.join(tmp, 'run.zarr');
    const writer = await GridStoreWriter.create(dir, { lats: [10, 11], lons: [20, 21] });
    await writer.addTimeAxis({ name: 'time', startMs: T0, stepMs: H, length: 3 });
    await writer.addTimeAxis({ name: 'time_mean_1h', startMs: T0 + H, stepMs: H, length: 2 });
    await writer.addVariable({ name: 'air_temperature', time: 'time', attributes: { units: 'degC' } });
    await writer.addVariable({
      name: 'precipitation_rate',
      time: 'time_mean_1h',
      attributes: { units: 'mm h-1', standard_name: 'lwe_precipitation_rate', cell_methods: 'time: mean' },
    });
    await writer.write('precipitation_rate', Float32Array.from([1, 1, 1, 1, 2, 2, 2, 2]));
    await writer.close();
    const store = await ZarrSource.open(dir);
    const byId = new Map(store.variables().map((v) => [v.id, v]));
    expect(byId.get('precipitation_rate')!.timeCell).toEqual([-H, 0]);
    expect(timeCellOf(byId.get('air_temperature')!)).toEqual([0, 0]);
    const s = await store.pointSeries('precipitation_rate', 20, 10, { startMs: T0 + H, endMs: T0 + 2 * H });
    // The hour [T0, T0 + 1 h) is the mean stamped T0 + 1 h.
    expect(Array.from(hourMeans(s, T0, 2))).toEqual([1, 2]);
  });
});
