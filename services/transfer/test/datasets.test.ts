import { createCatalog, SyntheticSource } from '@fieldcast/weather';
import { cacheKey, datasetsOfDay, dayStart, findDataset, servedProducts } from '../src/domain/datasets.js';

const now = Date.UTC(2026, 5, 10, 12, 30);
const source = new SyntheticSource({ now: () => now });

describe('products the weather can fill', () => {
  it('leaves out a GeoTIFF of several time steps and a product of mixed time steps', () => {
    const catalog = createCatalog({
      transferProducts: [
        { name: 'hourly-in-one-tiff', description: '', format: 'GeoTIFF', variable: 'air_temperature', cadenceMinutes: 1440 },
        {
          name: 'mixed-steps',
          description: '',
          format: 'NetCDF',
          variable: 'air_temperature',
          additionalVariables: ['air_temperature_daily_max'],
          cadenceMinutes: 1440,
        },
        { name: 'hourly-tiffs', description: '', format: 'GeoTIFF', variable: 'air_temperature', cadenceMinutes: 60 },
      ],
    });
    const names = servedProducts(catalog, source).map((p) => p.def.name);
    expect(names).not.toContain('hourly-in-one-tiff');
    expect(names).not.toContain('mixed-steps');
    expect(names).toContain('hourly-tiffs');
    expect(names).toContain('air-temperature-daily-max-geotiff');
  });
});

describe('datasets of a day', () => {
  const catalog = createCatalog({
    transferProducts: [{ name: 'hourly-tiffs', description: 'hourly', format: 'GeoTIFF', variable: 'air_temperature', cadenceMinutes: 60 }],
  });
  const hourly = servedProducts(catalog, source).find((p) => p.def.name === 'hourly-tiffs')!;

  it('gives a product with an hourly cadence 24 files a day, named by their hour', () => {
    const list = datasetsOfDay(hourly, dayStart('2024-06-01'), source, now);
    expect(list).toHaveLength(24);
    expect(list[6]!.name).toBe('hourly-tiffs_20240601T0600Z.tif');
    expect(list[6]!.times).toEqual([Date.UTC(2024, 5, 1, 6)]);
    expect(findDataset(hourly, 'hourly-tiffs_20240601T0600Z.tif', source, now).startMs).toBe(Date.UTC(2024, 5, 1, 6));
    expect(() => findDataset(hourly, 'hourly-tiffs_20240601.tif', source, now)).toThrow(/does not exist/);
    expect(() => findDataset(hourly, 'hourly-tiffs_20240601T0630Z.tif', source, now)).toThrow(/does not exist/);
  });

  it('stops at the end of the forecast', () => {
    // The forecast ends with the newest published run (06Z's, published at 09:30Z), 16 days on: 06:00Z.
    const last = datasetsOfDay(hourly, dayStart('2026-06-26'), source, now);
    expect(last.map((d) => d.name).at(-1)).toBe('hourly-tiffs_20260626T0600Z.tif');
    expect(() => findDataset(hourly, 'hourly-tiffs_20260626T0700Z.tif', source, now)).toThrow(/does not exist/);
  });

  it('gives a file of several steps on a day the weather covers in part the steps it covers, under the name of the day', () => {
    const daily = servedProducts(createCatalog(), source).find((p) => p.def.name === 'air-temperature-hourly-netcdf')!;
    // The forecast ends with the 06Z run, at 06:00Z: 7 hours of the day.
    const [last, ...more] = datasetsOfDay(daily, dayStart('2026-06-26'), source, now);
    expect(more).toEqual([]);
    expect(last!.name).toBe('air-temperature-hourly-netcdf_20260626.nc');
    expect(last!.startMs).toBe(Date.UTC(2026, 5, 26));
    expect(last!.times).toHaveLength(7);
    expect(last!.times.at(-1)).toBe(Date.UTC(2026, 5, 26, 6));
    expect(findDataset(daily, 'air-temperature-hourly-netcdf_20260626.nc', source, now).times).toEqual(last!.times);
    // A day the forecast does not reach has none.
    expect(datasetsOfDay(daily, dayStart('2026-06-27'), source, now)).toEqual([]);
  });

  it('keys a file by what it is made from, and a forecast file by the hour of the forecast too', () => {
    const past = datasetsOfDay(hourly, dayStart('2024-06-01'), source, now)[0]!;
    const future = datasetsOfDay(hourly, dayStart('2026-06-20'), source, now)[0]!;
    expect(cacheKey(past, source, now)).toBe(cacheKey(past, source, now + 3 * 3_600_000));
    expect(cacheKey(future, source, now)).toBe(cacheKey(future, source, now + 60_000));
    expect(cacheKey(future, source, now)).not.toBe(cacheKey(future, source, now + 3_600_000));
    expect(cacheKey(past, source, now)).not.toBe(cacheKey(datasetsOfDay(hourly, dayStart('2024-06-01'), source, now)[1]!, source, now));
  });
});

describe('the end of the forecast is the newest published run’s (docs/decisions/0508-transfer-files-end-with-the-published-runs.md)', () => {
  let clock = 0;
  const moving = new SyntheticSource({ now: () => clock });
  const daily = servedProducts(createCatalog(), moving).find((p) => p.def.name === 'air-temperature-hourly-netcdf')!;
  const lastDay = (at: number) => {
    clock = at;
    const [last] = datasetsOfDay(daily, dayStart('2026-06-26'), moving, at);
    return { times: last!.times, key: cacheKey(last!, moving, at) };
  };

  it('grows the last day when a run is published within an hour, and makes its file again', () => {
    // The 12Z run is published at 15:30Z: at 15:29Z the 06Z run's end is the forecast's, at 15:31Z the 12Z run's.
    const before = lastDay(Date.UTC(2026, 5, 10, 15, 29));
    const after = lastDay(Date.UTC(2026, 5, 10, 15, 31));
    expect(before.times.at(-1)).toBe(Date.UTC(2026, 5, 26, 6));
    expect(after.times.at(-1)).toBe(Date.UTC(2026, 5, 26, 12));
    expect(after.key).not.toBe(before.key);
    // Until the next run or hour, the same file.
    expect(lastDay(Date.UTC(2026, 5, 10, 15, 59)).key).toBe(after.key);
  });

  it('ends with the weather where no product shows a variable in frames', () => {
    const catalog = createCatalog({ remove: { products: ['air-temperature'] } });
    const unshown = servedProducts(catalog, moving).find((p) => p.def.name === 'air-temperature-hourly-netcdf')!;
    clock = Date.UTC(2026, 5, 10, 15, 29);
    // 16 days after the current hour, as the synthetic world's coverage says
    expect(datasetsOfDay(unshown, dayStart('2026-06-26'), moving, clock)[0]!.times.at(-1)).toBe(Date.UTC(2026, 5, 26, 15));
    expect(moving.coverage().endMs).toBe(Date.UTC(2026, 5, 26, 15));
  });
});
