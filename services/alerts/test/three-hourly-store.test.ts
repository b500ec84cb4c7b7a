import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shortCropEtOfHour } from '@fieldcast/science';
import { GridStoreWriter, ZarrSource } from '@fieldcast/weather';
import { gridAlertWeather } from '../src/domain/alert-weather.js';
import { measure } from '../src/domain/measure.js';

/*
 * The reference-ET rule on a store whose step is 3 hours, as `fieldcast ingest` makes of a
 * 3-hourly file (docs/decisions/0016-ingest.md): each stamp's ET is that of one hour, mm h-1
 * (ASCE-EWRI 2005 eq. 1 on an hourly time step), and stands for its step's three hours, as a
 * precipitation rate does, so a day's total counts every hour of it.
 */
const H = 3_600_000;
const START = Date.UTC(2026, 5, 10);
const AT = { lat: 45.5, lon: 10.5 };
const INPUTS = { air_temperature: 20, dew_point_temperature: 10, surface_downwelling_shortwave_flux_in_air: 300, wind_speed: 2 };

let dir: string;
let source: ZarrSource;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'alerts-3h-store-'));
  const writer = await GridStoreWriter.create(join(dir, 'three-hourly.zarr'), { lats: [45, 46], lons: [10, 11] });
  await writer.addTimeAxis({ name: 'time', startMs: START, stepMs: 3 * H, length: 24 });
  const attributes = {
    air_temperature: { units: 'degC' },
    dew_point_temperature: { units: 'degC' },
    // A mean over its step with no time bounds: the step centred on the stamp (CF 1.11 §7.1).
    surface_downwelling_shortwave_flux_in_air: { units: 'W m-2', cell_methods: 'time: mean' },
    wind_speed: { units: 'm s-1' },
  };
  for (const [name, value] of Object.entries(INPUTS)) {
    await writer.addVariable({ name, time: 'time', attributes: attributes[name as keyof typeof INPUTS] });
    await writer.write(name, new Float32Array(24 * 2 * 2).fill(value));
  }
  await writer.addVariable({ name: 'surface_air_pressure', time: 'time', attributes: { units: 'kPa' } });
  await writer.write('surface_air_pressure', new Float32Array(24 * 2 * 2).fill(100));
  await writer.close();
  source = await ZarrSource.open(join(dir, 'three-hourly.zarr'));
});

afterAll(async () => {
  await source?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('reference-et on a 3-hourly store', () => {
  it('reads one value a step and counts it for each of the step`s hours', async () => {
    // At 36:20 a one-day rule sums the hours 12 to 35 h: the stamps 12, 15, ..., 33 h, each the ET
    // of the hour it starts (the store holds no ground height: sea level, ASCE-EWRI 2005 eq. 3).
    const now = START + 36 * H + 20 * 60_000;
    const weather = gridAlertWeather(source);
    const et = await weather.referenceEt(AT, START + 12 * H, START + 35 * H);
    expect([et.startMs, et.stepMs, et.values.length]).toEqual([START + 12 * H, 3 * H, 8]);
    let hourly = 0;
    for (let h = 12; h <= 33; h += 3)
      hourly += shortCropEtOfHour({
        airTemperature: INPUTS.air_temperature,
        dewpoint: INPUTS.dew_point_temperature,
        shortwave: INPUTS.surface_downwelling_shortwave_flux_in_air,
        windSpeed: INPUTS.wind_speed,
        elevation: 0,
        latitude: AT.lat,
        longitude: AT.lon,
        hourStartMs: START + h * H,
      });
    const m = await measure({ kind: 'reference-et', threshold: 0, days: 1 }, AT, now, weather);
    expect(hourly).toBeGreaterThan(0.1);
    expect(Math.abs(m.value - 3 * hourly)).toBeLessThan(1e-4);
  });
});
