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
    const list = datasetsOfDay(hourly, dayStart('2024-06-01'), source);
    expect(list).toHaveLength(24);
    expect(list[6]!.name).toBe('hourly-tiffs_20240601T0600Z.tif');
    expect(list[6]!.times).toEqual([Date.UTC(2024, 5, 1, 6)]);
    expect(findDataset(hourly, 'hourly-tiffs_20240601T0600Z.tif', source).startMs).toBe(Date.UTC(2024, 5, 1, 6));
    expect(() => findDataset(hourly, 'hourly-tiffs_20240601.tif', source)).toThrow(/does not exist/);
    expect(() => findDataset(hourly, 'hourly-tiffs_20240601T0630Z.tif', source)).toThrow(/does not exist/);
  });

  it('stops at the end of the forecast', () => {
    // The forecast ends 16 days after the current hour, 12:00Z.
    const last = datasetsOfDay(hourly, dayStart('2026-06-26'), source);
    expect(last.map((d) => d.name).at(-1)).toBe('hourly-tiffs_20260626T1200Z.tif');
    expect(() => findDataset(hourly, 'hourly-tiffs_20260626T1300Z.tif', source)).toThrow(/does not exist/);
  });

  it('gives a file of several steps on a day the weather covers in part the steps it covers, under the name of the day', () => {
    const daily = servedProducts(createCatalog(), source).find((p) => p.def.name === 'air-temperature-hourly-netcdf')!;
    // The forecast ends 16 days after the current hour, 12:00Z: 13 hours of the day.
    const [last, ...more] = datasetsOfDay(daily, dayStart('2026-06-26'), source);
    expect(more).toEqual([]);
    expect(last!.name).toBe('air-temperature-hourly-netcdf_20260626.nc');
    expect(last!.startMs).toBe(Date.UTC(2026, 5, 26));
    expect(last!.times).toHaveLength(13);
    expect(last!.times.at(-1)).toBe(Date.UTC(2026, 5, 26, 12));
    expect(findDataset(daily, 'air-temperature-hourly-netcdf_20260626.nc', source).times).toEqual(last!.times);
    // A day the forecast does not reach has none.
    expect(datasetsOfDay(daily, dayStart('2026-06-27'), source)).toEqual([]);
  });

  it('keys a file by what it is made from, and a forecast file by the hour of the forecast too', () => {
    const past = datasetsOfDay(hourly, dayStart('2024-06-01'), source)[0]!;
    const future = datasetsOfDay(hourly, dayStart('2026-06-20'), source)[0]!;
    expect(cacheKey(past, source, now)).toBe(cacheKey(past, source, now + 3 * 3_600_000));
    expect(cacheKey(future, source, now)).toBe(cacheKey(future, source, now + 60_000));
    expect(cacheKey(future, source, now)).not.toBe(cacheKey(future, source, now + 3_600_000));
    expect(cacheKey(past, source, now)).not.toBe(cacheKey(datasetsOfDay(hourly, dayStart('2024-06-01'), source)[1]!, source, now));
  });
});
