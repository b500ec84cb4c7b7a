import { useTestFleet } from '@fieldcast/runtime/testing';
import { fieldcastId } from '@fieldcast/ids';
import { platformService } from '../src/definition.js';
import { clock, get, names, now, PUBLIC_PRODUCTS, START } from './helpers.js';

const t = useTestFleet([platformService], { now });

beforeEach(() => {
  clock.ms = START;
});

const list = (query = '') => get(t, t.alice, `/products${query}`);
const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
const point = (lon: number, lat: number) => JSON.stringify({ type: 'Point', coordinates: [lon, lat] });
const square = (w: number, s: number, e: number, n: number) =>
  JSON.stringify({
    type: 'Polygon',
    coordinates: [
      [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ],
    ],
  });

describe('GET /products (spec 2.4, 4.6)', () => {
  it('lists every public product with every field of spec 2.4', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(PUBLIC_PRODUCTS);
    const air = res.body[0];
    const id = fieldcastId('product', 'air-temperature');
    expect(air).toEqual({
      id,
      name: 'air-temperature',
      description: expect.any(String),
      contentType: 'temperature',
      source: 'synthetic',
      startTime: '2015-01-01T00:00:00Z',
      // the 06Z run, published at 09:30, reaches 384 h
      endTime: '2025-07-01T06:00:00Z',
      aggregationPeriodInMinutes: 0,
      coverage: { type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: expect.any(Array) } },
      frames: `/products/${id}/frames`,
      forecasts: `/products/${id}/forecasts`,
      styles: `/v2/products/${id}/styles.json`,
      styleableLayers: [{ name: 'air_temperature', type: 'raster', unit: { description: 'degrees Celsius', label: '°C' }, attributes: [] }],
    });
    const radar = res.body.find((p: { name: string }) => p.name === 'precipitation-rate-north-america');
    expect(radar).toMatchObject({ startTime: '2020-01-01T00:00:00Z', endTime: '2025-06-15T10:00:00Z', forecasts: null });
    const terrain = res.body.find((p: { name: string }) => p.name === 'surface-altitude');
    expect(terrain).toMatchObject({ frames: null, forecasts: null });
  });

  it('writes the precipitation-type mask attributes as the catalog does, "freezing rain" with a space', async () => {
    const res = await get(t, t.alice, '/products/precipitation-rate');
    expect(res.status).toBe(200);
    const mask = res.body.styleableLayers.find((l: { name: string }) => l.name === 'precipitation_type');
    expect(mask).toEqual({
      name: 'precipitation_type',
      type: 'raster',
      unit: null,
      attributes: [
        { name: 'rain', value: 1, unit: null },
        { name: 'snow', value: 2, unit: null },
        { name: 'freezing rain', value: 3, unit: null },
        { name: 'sleet', value: 4, unit: null },
      ],
    });
  });

  it('reads one product by id (any case) or name, and 404s an unknown one', async () => {
    const id = fieldcastId('product', 'growing-degree-days');
    expect((await get(t, t.alice, `/products/${id}`)).body.name).toBe('growing-degree-days');
    expect((await get(t, t.alice, `/products/${id.toUpperCase()}`)).body.name).toBe('growing-degree-days');
    expect((await get(t, t.alice, '/products/growing-degree-days')).body.id).toBe(id);
    const missing = await get(t, t.alice, '/products/no-such-product');
    expect(missing.status).toBe(404);
    expect(missing.body.id).toBe('product_does_not_exist');
    expect((await get(t, t.alice, `/products/${fieldcastId('product', 'nope')}`)).status).toBe(404);
  });

  it('moves endTime with the clock', async () => {
    clock.ms = Date.UTC(2025, 5, 15, 13, 40); // the 12Z run is not published until 15:30
    const res = await get(t, t.alice, '/products/air-temperature');
    expect(res.body.endTime).toBe('2025-07-01T06:00:00Z');
    clock.ms = Date.UTC(2025, 5, 15, 15, 30);
    expect((await get(t, t.alice, '/products/air-temperature')).body.endTime).toBe('2025-07-01T12:00:00Z');
    expect((await get(t, t.alice, '/products/precipitation-rate-north-america')).body.endTime).toBe('2025-06-15T15:00:00Z');
  });
});

describe('filters, each alone', () => {
  it('contentType and source match exactly', async () => {
    expect(names((await list(q({ contentType: 'temperature' }))).body)).toEqual([
      'air-temperature',
      'air-temperature-daily-max',
      'air-temperature-daily-min',
    ]);
    expect(names((await list(q({ contentType: 'Temperature' }))).body)).toEqual([]);
    expect(names((await list(q({ source: 'synthetic' }))).body)).toEqual(PUBLIC_PRODUCTS);
    expect(names((await list(q({ source: 'synth' }))).body)).toEqual([]);
  });

  it('aggregation matches the period in minutes', async () => {
    expect(names((await list(q({ aggregation: '1440' }))).body)).toEqual([
      'air-temperature-daily-max',
      'air-temperature-daily-min',
      'growing-degree-days',
    ]);
    expect(names((await list(q({ aggregation: '60' }))).body)).toEqual(['evapotranspiration-short-crop', 'shortwave-radiation']);
    expect(names((await list(q({ aggregation: '0' }))).body)).toEqual([
      'air-temperature',
      'precipitation-rate',
      'relative-humidity',
      'precipitation-rate-north-america',
      'surface-altitude',
    ]);
    expect(names((await list(q({ aggregation: '30' }))).body)).toEqual([]);
  });

  it('aggregation takes any nonnegative integer (spec 4.6), however long: one no product has matches none', async () => {
    for (const aggregation of ['1234567890', '525600000000', '99999999999999999999999']) {
      const res = await list(q({ aggregation }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    }
    expect(names((await list(q({ aggregation: '00001440' }))).body)).toEqual([
      'air-temperature-daily-max',
      'air-temperature-daily-min',
      'growing-degree-days',
    ]);
  });

  it('start and end leave out products with no frame in the range', async () => {
    // 2016: before the North American mosaic began; the terrain has no frames at all
    const early = await list(q({ start: '2016-03-01T00:00:00Z', end: '2016-03-01T00:30:00Z' }));
    expect(early.status).toBe(200);
    expect(names(early.body)).toEqual(PUBLIC_PRODUCTS.filter((n) => n !== 'precipitation-rate-north-america' && n !== 'surface-altitude'));
    // within an hour but not on it: the hourly products have no frame, the daily ones neither
    expect(names((await list(q({ start: '2016-03-01T00:10:00Z', end: '2016-03-01T00:50:00Z' }))).body)).toEqual([]);
    // ten days ahead: only the products whose forecasts reach 16 days
    expect(names((await list(q({ start: '2025-06-25T00:00:00Z', end: '2025-06-25T06:00:00Z' }))).body)).toEqual([
      'air-temperature',
      'precipitation-rate',
      'relative-humidity',
      'evapotranspiration-short-crop',
      'shortwave-radiation',
    ]);
    // an offset is ISO 8601 too: 02:00+02:00 is midnight UTC, a daily frame
    expect(
      names((await list(q({ start: '2016-03-01T02:00:00+02:00', end: '2016-03-01T02:00:00+02:00', aggregation: '1440' }))).body),
    ).toHaveLength(3);
  });

  it('coverage leaves out products whose coverage does not contain the geometry', async () => {
    const all = PUBLIC_PRODUCTS;
    const notNorthAmerica = all.filter((n) => n !== 'precipitation-rate-north-america');
    expect(names((await list(q({ coverage: point(-93.6319, 42.0308) }))).body)).toEqual(all);
    expect(names((await list(q({ coverage: point(2.35, 48.85) }))).body)).toEqual(notNorthAmerica);
    expect(names((await list(q({ coverage: square(-94, 41, -93, 42) }))).body)).toEqual(all);
    // a polygon reaching past the mosaic's eastern edge (50 W) is not contained in it
    expect(names((await list(q({ coverage: square(-60, 40, -40, 45) }))).body)).toEqual(notNorthAmerica);
    // on the edge counts as inside
    expect(names((await list(q({ coverage: square(-60, 40, -50, 45) }))).body)).toEqual(all);
    const feature = JSON.stringify({ type: 'Feature', properties: null, geometry: { type: 'Point', coordinates: [-100, 50] } });
    expect(names((await list(q({ coverage: feature }))).body)).toEqual(all);
    const multi = JSON.stringify({
      type: 'MultiPolygon',
      coordinates: [JSON.parse(square(-94, 41, -93, 42)).coordinates, JSON.parse(square(10, 45, 11, 46)).coordinates],
    });
    expect(names((await list(q({ coverage: multi }))).body)).toEqual(notNorthAmerica);
  });

  it('a product’s own coverage, as its record shows it, is a filter the products that cover it pass', async () => {
    const products = (await list()).body as { name: string; coverage: object }[];
    const global = products.find((p) => p.name === 'air-temperature')!;
    const res = await list(q({ coverage: JSON.stringify(global.coverage) }));
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(PUBLIC_PRODUCTS.filter((n) => n !== 'precipitation-rate-north-america'));
    const world = square(-180, -90, 180, 90);
    expect(names((await list(q({ coverage: world }))).body)).toEqual(names(res.body));
  });

  it('a line across the antimeridian is asked to be cut at ±180, as a polygon is (RFC 7946 section 3.1.9), not read the long way round', async () => {
    const refused = async (geometry: object) => {
      const res = await list(q({ coverage: JSON.stringify(geometry) }));
      expect(res.status).toBe(400);
      return (res.body.errors as { message: string }[])[0]!.message;
    };
    expect(
      await refused({
        type: 'LineString',
        coordinates: [
          [170, 10],
          [-170, 10],
        ],
      }),
    ).toMatch(
      /the edge to position 1 spans more than 180 degrees of longitude; a line that crosses the antimeridian must be cut in two at longitude ±180/,
    );
    expect(
      await refused({
        type: 'MultiLineString',
        coordinates: [
          [
            [0, 0],
            [1, 1],
          ],
          [
            [179, -5],
            [-179, -5],
            [-178, -6],
          ],
        ],
      }),
    ).toMatch(/^coverage must be .*: line 1: the edge to position 1 spans more than 180 degrees/);
    expect(
      await refused({
        type: 'Polygon',
        coordinates: [
          [
            [170, 0],
            [-170, 0],
            [-170, 10],
            [170, 10],
            [170, 0],
          ],
        ],
      }),
    ).toMatch(/spans more than 180 degrees of longitude; a polygon that crosses the antimeridian must be cut/);
    // cut at ±180, each piece is taken; along a pole an edge's longitudes say nothing of the antimeridian
    const cut = {
      type: 'MultiLineString',
      coordinates: [
        [
          [170, 10],
          [180, 10],
        ],
        [
          [-180, 10],
          [-170, 10],
        ],
      ],
    };
    expect((await list(q({ coverage: JSON.stringify(cut) }))).status).toBe(200);
    expect(
      (
        await list(
          q({
            coverage: JSON.stringify({
              type: 'LineString',
              coordinates: [
                [-180, 90],
                [180, 90],
              ],
            }),
          }),
        )
      ).status,
    ).toBe(200);
  });

  it('takes any GeoJSON geometry: lines, several points, collections', async () => {
    const all = PUBLIC_PRODUCTS;
    const notNorthAmerica = all.filter((n) => n !== 'precipitation-rate-north-america');
    const covering = async (geometry: object) => names((await list(q({ coverage: JSON.stringify(geometry) }))).body);
    const line = (...coordinates: number[][]) => ({ type: 'LineString', coordinates });
    // Des Moines to Dallas, then on past the mosaic's eastern edge (50 W) into the Atlantic
    expect(await covering(line([-93.6, 41.6], [-96.8, 32.8]))).toEqual(all);
    expect(await covering(line([-93.6, 41.6], [-40, 41.6]))).toEqual(notNorthAmerica);
    // along the edge is on the boundary: inside
    expect(await covering(line([-50, 20], [-50, 60]))).toEqual(all);
    expect(
      await covering({
        type: 'MultiLineString',
        coordinates: [
          [
            [-93.6, 41.6],
            [-96.8, 32.8],
          ],
          [
            [2.35, 48.85],
            [13.4, 52.5],
          ],
        ],
      }),
    ).toEqual(notNorthAmerica);
    expect(
      await covering({
        type: 'MultiPoint',
        coordinates: [
          [-93.6, 41.6],
          [-120, 40],
        ],
      }),
    ).toEqual(all);
    expect(
      await covering({
        type: 'MultiPoint',
        coordinates: [
          [-93.6, 41.6],
          [2.35, 48.85],
        ],
      }),
    ).toEqual(notNorthAmerica);
    const collection = (...geometries: object[]) => ({ type: 'GeometryCollection', geometries });
    const iowa = JSON.parse(square(-94, 41, -93, 42));
    expect(await covering(collection({ type: 'Point', coordinates: [-100, 50] }, iowa))).toEqual(all);
    expect(await covering(collection(iowa, { type: 'Point', coordinates: [2.35, 48.85] }))).toEqual(notNorthAmerica);
    // The OpenAPI document says so too (docs/interface.md §6: any GeoJSON geometry, or a Feature of one).
    const doc = (await get(t, t.alice, '/openapi.json')).body;
    expect(doc.paths['/products'].get.description).toContain('coverage (a URL-encoded GeoJSON geometry of any type');
  });
});

describe('filters, all combined', () => {
  it('applies all six together', async () => {
    const base = {
      contentType: 'precipitation',
      source: 'synthetic',
      aggregation: '0',
      start: '2021-01-01T00:00:00Z',
      end: '2021-01-02T00:00:00Z',
    };
    expect(names((await list(q({ ...base, coverage: point(-93.6, 42) }))).body)).toEqual([
      'precipitation-rate',
      'precipitation-rate-north-america',
    ]);
    expect(names((await list(q({ ...base, coverage: point(2.35, 48.85) }))).body)).toEqual(['precipitation-rate']);
    expect(
      names((await list(q({ ...base, start: '2019-01-01T00:00:00Z', end: '2019-01-01T00:00:00Z', coverage: point(-93.6, 42) }))).body),
    ).toEqual(['precipitation-rate']);
    expect(names((await list(q({ ...base, aggregation: '60', coverage: point(-93.6, 42) }))).body)).toEqual([]);
    expect(names((await list(q({ ...base, source: 'other', coverage: point(-93.6, 42) }))).body)).toEqual([]);
  });
});

describe('bad filter values are 400 naming the parameter', () => {
  it.each([
    ['aggregation', { aggregation: '-1' }],
    ['aggregation', { aggregation: '1.5' }],
    ['aggregation', { aggregation: 'daily' }],
    ['aggregation', { aggregation: '' }],
    ['aggregation', { aggregation: '1e3' }],
    ['start', { start: 'yesterday', end: '2025-01-01T00:00:00Z' }],
    ['start', { start: '2025-01-01', end: '2025-01-02T00:00:00Z' }],
    ['end', { start: '2025-01-01T00:00:00Z' }],
    ['end', { end: '2025-01-01T00:00:00Z' }],
    ['end', { start: '2025-01-02T00:00:00Z', end: '2025-01-01T00:00:00Z' }],
    ['end', { start: '2025-01-01T00:00:00Z', end: '2025-02-30T00:00:00Z' }],
    ['coverage', { coverage: 'not json' }],
    ['coverage', { coverage: '[1,2]' }],
    ['coverage', { coverage: JSON.stringify({ type: 'LineString', coordinates: [[0, 0]] }) }],
    ['coverage', { coverage: JSON.stringify({ type: 'GeometryCollection', geometries: [] }) }],
    ['coverage', { coverage: JSON.stringify({ type: 'Circle', coordinates: [0, 0] }) }],
    [
      'coverage',
      {
        coverage: JSON.stringify({
          type: 'MultiPoint',
          coordinates: [
            [0, 0],
            [0, 91],
          ],
        }),
      },
    ],
    ['coverage', { coverage: JSON.stringify({ type: 'Point', coordinates: [200, 0] }) }],
    ['coverage', { coverage: JSON.stringify({ type: 'Point', coordinates: ['1', 2] }) }],
    [
      'coverage',
      {
        coverage: JSON.stringify({
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 1],
              [1, 0],
              [0, 1],
              [0, 0],
            ],
          ],
        }),
      },
    ],
    [
      'coverage',
      {
        coverage: JSON.stringify({
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
            ],
          ],
        }),
      },
    ],
    ['coverage', { coverage: JSON.stringify({ type: 'MultiPolygon', coordinates: [] }) }],
    ['coverage', { coverage: JSON.stringify({ type: 'Feature', geometry: null }) }],
  ])('%s: %j', async (param, params) => {
    const res = await list(q(params as Record<string, string>));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.id).toBe('invalid_parameter');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(param);
  });

  it('refuses a parameter given twice', async () => {
    const res = await list('?contentType=temperature&contentType=precipitation');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('contentType');
  });

  it('asks for credentials', async () => {
    const request = (await import('supertest')).default;
    expect((await request(t.fleet.app('platform')).get('/products')).status).toBe(401);
  });
});
