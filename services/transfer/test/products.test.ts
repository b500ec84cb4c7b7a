import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { countingSource, IOWA, PRODUCT, TestClock, testCatalog, testTransferService } from './helpers.js';

const clock = new TestClock();
const { source } = countingSource(clock);
const ctx = useTestFleet([testTransferService()], { weather: source, now: clock.now, catalog: testCatalog() });
const app = () => ctx.fleet.app('transfer');
const list = (name: string, date?: string) =>
  request(app())
    .get(`/products/${name}/datasets${date ? `?date=${date}` : ''}`)
    .set('Authorization', ctx.alice.auth);

beforeEach(() => {
  clock.ms = Date.UTC(2026, 5, 10, 12, 30);
});

describe('GET /products', () => {
  it('lists every product with its format and the path of its datasets (spec 2.5)', async () => {
    const res = await request(app()).get('/products').set('Authorization', ctx.alice.auth);
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual({ name: PRODUCT.tmax, format: 'GeoTIFF', datasets: `/products/${PRODUCT.tmax}/datasets` });
    expect(res.body).toContainEqual({ name: PRODUCT.hourly, format: 'NetCDF', datasets: `/products/${PRODUCT.hourly}/datasets` });
    expect(new Set(res.body.map((p: { format: string }) => p.format))).toEqual(new Set(['GeoTIFF', 'NetCDF']));
    for (const p of res.body) expect(Object.keys(p).sort()).toEqual(['datasets', 'format', 'name']);
  });

  it('needs credentials', async () => {
    expect((await request(app()).get('/products')).status).toBe(401);
  });
});

describe('GET /products/{name}/datasets', () => {
  it('lists the daily dataset of a date with its variables, grid, link and expiry', async () => {
    const res = await list(PRODUCT.extremesTiff, '2024-06-01');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const [d] = res.body;
    expect(d).toMatchObject({
      name: `${PRODUCT.extremesTiff}_20240601.tif`,
      product: PRODUCT.extremesTiff,
      format: 'GeoTIFF',
      validTime: '2024-06-01T00:00:00Z',
      bounds: IOWA,
      resolution: 0.25,
      width: 26,
      height: 12,
      mediaType: 'image/tiff',
      downloadUrlExpires: '2026-06-10T13:30:00Z',
    });
    expect(d.variables.map((v: { name: string }) => v.name)).toEqual(['air_temperature_daily_max', 'air_temperature_daily_min']);
    expect(d.variables[0]).toMatchObject({ standardName: 'air_temperature', units: 'degC', cellMethods: 'time: maximum' });
    const url = new URL(d.downloadUrl);
    expect(url.protocol).toBe('http:');
    expect(url.pathname).toBe(`/products/${PRODUCT.extremesTiff}/datasets/${d.name}`);
    expect(url.searchParams.get('account')).toBe(ctx.alice.id);
    expect(url.searchParams.get('expires')).toBe(String(Date.UTC(2026, 5, 10, 13, 30) / 1000));
    expect(url.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Not made yet: no size or checksum.
    expect(d.size).toBeUndefined();
    expect(d.checksum).toBeUndefined();
  });

  it('gives an hourly dataset its 24 valid times', async () => {
    const res = await list(PRODUCT.hourly, '2024-06-01');
    expect(res.status).toBe(200);
    expect(res.body[0].name).toBe(`${PRODUCT.hourly}_20240601.nc`);
    expect(res.body[0].validTimes).toHaveLength(24);
    expect(res.body[0].validTimes[23]).toBe('2024-06-01T23:00:00Z');
    expect(res.body[0].validTime).toBeUndefined();
    expect(res.body[0].mediaType).toBe('application/x-netcdf');
  });

  it('gives a static product its one dataset on any date, without a valid time', async () => {
    const res = await list(PRODUCT.altitude, '2019-03-04');
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ name: `${PRODUCT.altitude}.tif`, validTime: null });
  });

  it('lists today (UTC) when no date is given', async () => {
    const res = await list(PRODUCT.tmax);
    expect(res.status).toBe(200);
    expect(res.body[0].name).toBe(`${PRODUCT.tmax}_20260610.tif`);
  });

  it('lists the first date and the last day of the forecast; on that day the hours the forecast covers', async () => {
    expect((await list(PRODUCT.tmax, '2015-01-01')).body[0].name).toBe(`${PRODUCT.tmax}_20150101.tif`);
    // The forecast ends with the newest published run, 06Z's, as the platform's frames of the
    // product over the variable do: the daily maximum's 7 days on, the hourly temperature's 16.
    expect((await list(PRODUCT.tmax, '2026-06-17')).body).toHaveLength(1);
    expect((await list(PRODUCT.tmax, '2026-06-18')).body.id).toBe('date_out_of_range');
    const hourly = await list(PRODUCT.hourly, '2026-06-26');
    expect(hourly.status).toBe(200);
    expect(hourly.body).toHaveLength(1);
    expect(hourly.body[0].name).toBe(`${PRODUCT.hourly}_20260626.nc`);
    expect(hourly.body[0].validTimes).toHaveLength(7);
    expect(hourly.body[0].validTimes.at(-1)).toBe('2026-06-26T06:00:00Z');
  });

  it('lists a file of several steps with validTimes when the forecast covers one of them (docs/decisions/0512-valid-times-by-the-product.md)', async () => {
    // At 05:00Z the newest published run is 00Z's (published at 03:30Z): 16 days on, 2026-06-26T00:00Z.
    clock.ms = Date.UTC(2026, 5, 10, 5);
    const res = await list(PRODUCT.hourly, '2026-06-26');
    expect(res.status).toBe(200);
    expect(res.body[0].name).toBe(`${PRODUCT.hourly}_20260626.nc`);
    expect(res.body[0].validTimes).toEqual(['2026-06-26T00:00:00Z']);
    expect(res.body[0]).not.toHaveProperty('validTime');
  });

  it("lists today's hourly file, whole where the forecast covers the day", async () => {
    const res = await list(PRODUCT.hourly);
    expect(res.status).toBe(200);
    expect(res.body.map((d: { name: string }) => d.name)).toEqual([`${PRODUCT.hourly}_20260610.nc`]);
    expect(res.body[0].validTimes).toHaveLength(24);
  });

  it.each([
    ['2014-12-31', 'date_out_of_range'],
    ['2026-06-27', 'date_out_of_range'],
    ['2024-02-30', 'invalid_parameter'],
    ['20240601', 'invalid_parameter'],
    ['2024-6-1', 'invalid_parameter'],
    ['yesterday', 'invalid_parameter'],
  ])('refuses date=%s with 400 %s', async (date, id) => {
    const res = await list(PRODUCT.tmax, date);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.id).toBe(id);
    expect(res.body.errors[0].path).toBe('date');
  });

  it.each([
    ['junk', 'date must be a date YYYY-MM-DD, such as 2024-06-01'],
    ['2024-02-30', 'date must be a date YYYY-MM-DD, such as 2024-06-01'],
    ['2024-06-01&date=2024-06-02', 'date must be given once, as a date YYYY-MM-DD'],
  ])('refuses date=%s with one error in the API’s words', async (date, message) => {
    const res = await list(PRODUCT.tmax, date);
    expect(res.body.errors).toEqual([{ path: 'date', message }]);
  });

  it('answers an unknown product with 404', async () => {
    const res = await list('no-such-product', '2024-06-01');
    expect(res.status).toBe(404);
    expect(res.body.id).toBe('product_does_not_exist');
  });

  it('needs credentials', async () => {
    expect((await request(app()).get(`/products/${PRODUCT.tmax}/datasets`)).status).toBe(401);
  });

  it('signs each account its own links', async () => {
    const alice = (await list(PRODUCT.tmax, '2024-06-01')).body[0].downloadUrl;
    const bob = (await request(app()).get(`/products/${PRODUCT.tmax}/datasets?date=2024-06-01`).set('Authorization', ctx.bob.auth)).body[0]
      .downloadUrl;
    expect(new URL(bob).searchParams.get('account')).toBe(ctx.bob.id);
    expect(new URL(bob).searchParams.get('signature')).not.toBe(new URL(alice).searchParams.get('signature'));
  });

  it('is documented in /openapi.json with the file operation', async () => {
    const doc = (await request(app()).get('/openapi.json')).body;
    expect(Object.keys(doc.paths).sort()).toEqual(['/products', '/products/{name}/datasets', '/products/{name}/datasets/{dataset}']);
    expect(Object.keys(doc.paths['/products/{name}/datasets/{dataset}'].get.responses['200'].content).sort()).toEqual([
      'application/x-netcdf',
      'image/tiff',
    ]);
  });
});
