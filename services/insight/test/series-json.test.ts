import { type HourlyQuery, HourlySeries } from '@fieldcast/schemas';
import { SyntheticSource } from '@fieldcast/weather';
import type { AssetRecord } from '../src/domain/assets.js';
import { hourlySeriesJson } from '../src/domain/hourly-series.js';
import { productsJson, seriesJson } from '../src/domain/series-json.js';

/* The series text is what JSON.stringify writes for the documented object, byte for byte. */
const HOUR_MS = 3_600_000;

describe('seriesJson', () => {
  it('equals JSON.stringify of the HourlySeries object, across days, a leap day and a new year', () => {
    const head = {
      latitude: 42.0308,
      longitude: -93.6319,
      startTime: '2023-12-31T21:00:00Z',
      endTime: '2024-03-01',
      unit: { description: 'millimeters per hour', label: 'mm/hr' },
      asset: '/assets/0b7c9a52-4f5e-4d0a-9a53-3f1d7f7a2c11',
    };
    const firstMs = Date.UTC(2023, 11, 31, 21);
    const n = 24 * 62; // to 1 March 2024 20:00Z, through 29 February
    const samples = [0, 0.001, -0.004, 12.5, 100, 1e-7, 0.1234, -0, 3];
    const values = Float64Array.from({ length: n }, (_, h) => samples[h % samples.length]!);
    const products = Array.from({ length: n }, (_, h) =>
      JSON.stringify(h < 30 ? ['an "analysis"'] : h === 30 ? ['an "analysis"', 'forecast'] : ['forecast']),
    );
    const expected = {
      latitude: head.latitude,
      longitude: head.longitude,
      startTime: head.startTime,
      endTime: head.endTime,
      unit: head.unit,
      series: Array.from(values, (value, h) => ({
        validTime: new Date(firstMs + h * HOUR_MS).toISOString(),
        value,
        products: JSON.parse(products[h]!) as string[],
      })),
      asset: head.asset,
    };
    expect(seriesJson(head, firstMs, values, products)).toBe(JSON.stringify(expected));
    const { asset: _, ...atPoint } = head;
    const { asset: __, ...expectedAtPoint } = expected;
    expect(seriesJson(atPoint, firstMs, values, products)).toBe(JSON.stringify(expectedAtPoint));
    expect(seriesJson(atPoint, firstMs, [], [])).toBe(JSON.stringify({ ...expectedAtPoint, series: [] }));
  });

  it('productsJson names the products of the two stamps bounding each hour, once when they agree', () => {
    const productOf = (stamp: number) => (stamp <= 2 ? 'analysis' : 'forecast');
    expect(productsJson(productOf, 1, 4)).toEqual(['["analysis"]', '["analysis","forecast"]', '["forecast"]', '["forecast"]']);
  });
});

describe('hourlySeriesJson on the synthetic world', () => {
  const NOW = Date.UTC(2026, 5, 15, 12, 34);
  const source = new SyntheticSource({ now: () => NOW });
  const asset: AssetRecord = {
    id: '0b7c9a52-4f5e-4d0a-9a53-3f1d7f7a2c11',
    accountId: 'a',
    tags: {},
    polygon: [
      [
        [-93.52, 41.99],
        [-93.47, 42.0],
        [-93.48, 42.04],
        [-93.52, 41.99],
      ],
    ],
    centroid: { latitude: 42.01, longitude: -93.49 },
    areaM2: 1,
  };
  // Three days up to the forecast boundary and past it, so entries name one product and two.
  const query = (unit: HourlyQuery['unit']): HourlyQuery => ({
    firstMs: Date.UTC(2026, 5, 13, 5),
    lastMs: Date.UTC(2026, 5, 16, 4),
    startTime: '2026-06-13T05:00Z',
    endTime: '2026-06-16T04:00:00Z',
    defaulted: false,
    unit,
  });

  it.each([
    ['relative-humidity', 'millimeters'],
    ['evapotranspiration', 'millimeters'],
    ['evapotranspiration', 'inches'],
  ] as const)('%s (%s): the text of the schema-valid object, at a point and over an asset', async (quantity, unit) => {
    for (const place of [{ latitude: 42.0308, longitude: -93.6319 }, { asset }]) {
      const text = await hourlySeriesJson(source, quantity, place, query(unit));
      const parsed = HourlySeries.parse(JSON.parse(text));
      expect(text).toBe(JSON.stringify(parsed));
      expect(parsed.series).toHaveLength(72);
      expect(new Set(parsed.series.map((e) => e.products.join()))).toEqual(
        new Set(['synthetic-analysis', 'synthetic-analysis,synthetic-forecast', 'synthetic-forecast']),
      );
    }
  });
});
