import { createHash } from 'node:crypto';
import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import type { GridSource, VariableId } from '@fieldcast/weather';
import { readNetcdf4 } from './netcdf-reader.js';
import { geoKeys, readTiff } from './tiff-reader.js';
import { binary, countingSource, IOWA, pathOf, PRODUCT, TestClock, testCatalog, testTransferService } from './helpers.js';

const clock = new TestClock();
const { source, reads } = countingSource(clock);
const ctx = useTestFleet([testTransferService()], { weather: source, now: clock.now, catalog: testCatalog() });
const app = () => ctx.fleet.app('transfer');

beforeEach(() => {
  clock.ms = Date.UTC(2026, 5, 10, 12, 30);
});

/** The first dataset of a product on a date, as the list gives it to `auth`. */
async function datasetOf(name: string, date = '2024-06-01', auth = ctx.alice.auth) {
  const res = await request(app()).get(`/products/${name}/datasets?date=${date}`).set('Authorization', auth);
  expect(res.status).toBe(200);
  return res.body[0] as { name: string; downloadUrl: string; size?: number; checksum?: string };
}

const get = (path: string) => request(app()).get(path).buffer(true).parse(binary);

/** A link with one query parameter replaced. */
function withParam(url: string, key: string, value: string): string {
  const u = new URL(url);
  u.searchParams.set(key, value);
  return pathOf(u.toString());
}

describe('downloading a dataset', () => {
  it('serves the file at its signed link without credentials, with its type, length, name and ETag', async () => {
    const d = await datasetOf(PRODUCT.tmax);
    const res = await get(pathOf(d.downloadUrl));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/tiff');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${d.name}"`);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.headers['accept-ranges']).toBe('bytes');
    const sha = createHash('sha256').update(res.body).digest('hex');
    expect(res.headers.etag).toBe(`"${sha}"`);
    // Once made, the list gives its size and checksum.
    const again = await datasetOf(PRODUCT.tmax);
    expect(again.size).toBe(res.body.length);
    expect(again.checksum).toBe(`sha256:${sha}`);
  });

  it('serves the same path with HTTP Basic and no signature, and refuses it with neither', async () => {
    const d = await datasetOf(PRODUCT.extremesNc);
    const path = new URL(d.downloadUrl).pathname;
    const res = await get(path).set('Authorization', ctx.bob.auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-netcdf');
    expect((await get(path)).status).toBe(401);
  });

  it('refuses an expired link with 403 signature_expired', async () => {
    const d = await datasetOf(PRODUCT.tmax);
    clock.ms += 3600_000; // exactly at the expiry it still works
    expect((await get(pathOf(d.downloadUrl))).status).toBe(200);
    clock.ms += 1000;
    const res = await get(pathOf(d.downloadUrl));
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(JSON.parse(res.body.toString()).id).toBe('signature_expired');
  });

  it.each([
    ['an altered signature', (url: string) => withParam(url, 'signature', `${new URL(url).searchParams.get('signature')!.slice(0, -2)}AA`)],
    ['a later expiry', (url: string) => withParam(url, 'expires', String(Number(new URL(url).searchParams.get('expires')) + 3600))],
    ['another account', (url: string) => withParam(url, 'account', ctx.bob.id)],
    ['another dataset', (url: string) => pathOf(url.replace('20240601', '20240602'))],
    ['no expiry', (url: string) => pathOf(url.replace(/&expires=\d+/, ''))],
    ['a non-numeric expiry', (url: string) => withParam(url, 'expires', 'soon')],
    // Base64url (RFC 4648 section 5) has one spelling per value; a decoder that skips what is not
    // of its alphabet would take these as the signature sent.
    ['characters added to the signature', (url: string) => withParam(url, 'signature', `${new URL(url).searchParams.get('signature')}!=`)],
    [
      'a space inside the signature',
      (url: string) => withParam(url, 'signature', new URL(url).searchParams.get('signature')!.replace(/^(.{20})/, '$1 ')),
    ],
  ])('refuses a link with %s with 403 signature_invalid', async (_what, alter) => {
    const d = await datasetOf(PRODUCT.tmax);
    const res = await get(alter(d.downloadUrl));
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body.toString()).id).toBe('signature_invalid');
  });

  it('refuses a link of an account that no longer exists, and does not let good credentials mend a bad signature', async () => {
    const d = await datasetOf(PRODUCT.tmax);
    // Its keys go with it (on delete cascade).
    await ctx.fleet.db.knex.raw('delete from identity.accounts where id = ?', [ctx.alice.id]);
    expect((await get(pathOf(d.downloadUrl))).status).toBe(403);
    const bobs = await datasetOf(PRODUCT.tmax, '2024-06-01', ctx.bob.auth);
    expect((await get(withParam(bobs.downloadUrl, 'signature', 'x')).set('Authorization', ctx.bob.auth)).status).toBe(403);
  });

  it('answers 404 for an unknown product or a dataset the product does not have', async () => {
    const missing = async (path: string, id: string) => {
      const res = await get(path).set('Authorization', ctx.alice.auth);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body.toString()).id).toBe(id);
    };
    await missing(`/products/nope/datasets/nope_20240601.tif`, 'product_does_not_exist');
    await missing(`/products/${PRODUCT.tmax}/datasets/${PRODUCT.tmax}_20240601.nc`, 'dataset_does_not_exist');
    await missing(`/products/${PRODUCT.tmax}/datasets/${PRODUCT.tmax}_20240631.tif`, 'dataset_does_not_exist');
    await missing(`/products/${PRODUCT.tmax}/datasets/${PRODUCT.tmax}_20140101.tif`, 'dataset_does_not_exist');
    await missing(`/products/${PRODUCT.tmax}/datasets/${PRODUCT.tmax}_20240601T0000Z.tif`, 'dataset_does_not_exist');
    await missing(`/products/${PRODUCT.hourly}/datasets/${PRODUCT.hourly}_20260627.nc`, 'dataset_does_not_exist');
    await missing(`/products/${PRODUCT.tmax}/datasets/${PRODUCT.extremesTiff}_20240601.tif`, 'dataset_does_not_exist');
  });

  it('answers a byte range with 206, a suffix range, and a range past the end with 416', async () => {
    const d = await datasetOf(PRODUCT.extremesTiff);
    const whole = await get(pathOf(d.downloadUrl));
    const size = whole.body.length;
    const part = await get(pathOf(d.downloadUrl)).set('Range', 'bytes=8-107');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 8-107/${size}`);
    expect(part.headers['content-length']).toBe('100');
    expect(part.body.equals(whole.body.subarray(8, 108))).toBe(true);
    const suffix = await get(pathOf(d.downloadUrl)).set('Range', 'bytes=-10');
    expect(suffix.status).toBe(206);
    expect(suffix.body.equals(whole.body.subarray(size - 10))).toBe(true);
    const open = await get(pathOf(d.downloadUrl)).set('Range', `bytes=${size - 5}-`);
    expect(open.body.equals(whole.body.subarray(size - 5))).toBe(true);
    const past = await get(pathOf(d.downloadUrl)).set('Range', `bytes=${size}-`);
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
    // Several ranges, or an If-Range of another version: the whole file.
    expect((await get(pathOf(d.downloadUrl)).set('Range', 'bytes=0-1,4-5')).status).toBe(200);
    const stale = await get(pathOf(d.downloadUrl)).set('Range', 'bytes=0-1').set('If-Range', '"other"');
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(size);
    const fresh = await get(pathOf(d.downloadUrl)).set('Range', 'bytes=0-1').set('If-Range', whole.headers.etag!);
    expect(fresh.status).toBe(206);
  });

  it('lets a script on another origin read a range by its fields: Content-Range (the file size), Accept-Ranges and ETag', async () => {
    // A browser range reader (geotiff.js reading a Cloud-Optimized GeoTIFF) takes the file's size
    // from Content-Range; no field of these is CORS-safelisted, so each must be exposed (Fetch standard).
    const d = await datasetOf(PRODUCT.extremesTiff);
    const origin = 'https://maps.example.org';
    const part = await get(pathOf(d.downloadUrl)).set('Origin', origin).set('Range', 'bytes=0-1023');
    expect(part.status).toBe(206);
    expect(part.headers['access-control-allow-origin']).toBe('*');
    expect(part.headers['content-range']).toMatch(/^bytes 0-1023\/\d+$/);
    const exposed = (part.headers['access-control-expose-headers'] ?? '').split(',').map((h) => h.trim().toLowerCase());
    expect(exposed).toEqual(expect.arrayContaining(['content-range', 'accept-ranges', 'etag']));
    // A range a preflight must clear (a suffix range, If-Match naming the version begun with) is let through.
    const preflight = await request(app())
      .options(pathOf(d.downloadUrl))
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'range, if-match');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']?.toLowerCase()).toContain('range');
  });

  it('answers If-None-Match with its ETag with 304, and HEAD with the headers alone', async () => {
    const d = await datasetOf(PRODUCT.tmax);
    const first = await get(pathOf(d.downloadUrl));
    const again = await get(pathOf(d.downloadUrl)).set('If-None-Match', first.headers.etag!);
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.body.length).toBe(0);
    const head = await request(app()).head(pathOf(d.downloadUrl));
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(first.body.length));
    expect(head.headers['content-type']).toBe('image/tiff');
  });

  it('takes no forwarded scheme or host from a caller that is no trusted proxy (FIELDCAST_TRUSTED_PROXIES unset)', async () => {
    const res = await request(app())
      .get(`/products/${PRODUCT.tmax}/datasets?date=2024-06-01`)
      .set({ Authorization: ctx.alice.auth, 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'transfer.fieldcast.example' });
    const url = new URL((res.body as { downloadUrl: string }[])[0]!.downloadUrl);
    expect([url.protocol, url.hostname]).toEqual(['http:', '127.0.0.1']);
  });

  it('answers an If-Match that names another version with 412 and no bytes, so ranges of two versions are never joined', async () => {
    const d = await datasetOf(PRODUCT.tmax);
    const first = await get(pathOf(d.downloadUrl));
    const etag = first.headers.etag!;
    // RFC 9110 section 13.1.1: If-Match compares strongly; a weak tag, or another tag, does not match.
    for (const header of ['"another-version"', `W/${etag}`]) {
      const res = await get(pathOf(d.downloadUrl)).set('If-Match', header).set('Range', 'bytes=0-9');
      expect([header, res.status]).toEqual([header, 412]);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.toString()).toContain('"id":"precondition_failed"');
      expect(res.headers['content-range']).toBeUndefined();
    }
    expect((await request(app()).head(pathOf(d.downloadUrl)).set('If-Match', '"another-version"')).status).toBe(412);
    // The current tag, among others or as `*`, lets the request through.
    const part = await get(pathOf(d.downloadUrl)).set('If-Match', `"another-version", ${etag}`).set('Range', 'bytes=0-9');
    expect(part.status).toBe(206);
    expect(part.body.equals(first.body.subarray(0, 10))).toBe(true);
    expect((await get(pathOf(d.downloadUrl)).set('If-Match', '*')).status).toBe(200);
  });

  it("serves an Accept naming the file's type, and refuses one naming neither it nor JSON with 406", async () => {
    const d = await datasetOf(PRODUCT.tmax);
    expect((await get(pathOf(d.downloadUrl)).set('Accept', 'image/tiff')).status).toBe(200);
    expect((await get(pathOf(d.downloadUrl)).set('Accept', 'image/png')).status).toBe(406);
  });

  it.each([
    [PRODUCT.tmax, 'application/x-netcdf'],
    [PRODUCT.extremesNc, 'image/tiff'],
    [PRODUCT.extremesNc, 'image/*'],
    [PRODUCT.extremesNc, 'application/x-netcdf;q=0, */*'],
  ])("refuses %s with 406 for an Accept of %s, which takes the other format's type but not this file's", async (product, accept) => {
    const d = await datasetOf(product);
    const res = await get(pathOf(d.downloadUrl)).set('Accept', accept);
    expect(res.status).toBe(406);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it("serves a file to an Accept that takes its type, any type, or JSON (the kit's fallback)", async () => {
    const d = await datasetOf(PRODUCT.extremesNc);
    for (const accept of ['application/x-netcdf', 'application/*', '*/*', 'image/tiff;q=0.5, application/x-netcdf', 'application/json']) {
      const res = await get(pathOf(d.downloadUrl)).set('Accept', accept);
      expect([accept, res.status, res.headers['content-type']]).toEqual([accept, 200, 'application/x-netcdf']);
    }
  });

  it('makes a file once for simultaneous first requests, and reads nothing for later ones', async () => {
    const d = await datasetOf(PRODUCT.extremesNc, '2023-07-04');
    const before = reads();
    const answers = await Promise.all(Array.from({ length: 6 }, () => get(pathOf(d.downloadUrl))));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
    // One sub-grid read of both extremes holds the whole 26 x 12 grid: one making.
    expect(reads() - before).toBe(1);
    await get(pathOf(d.downloadUrl));
    expect(reads() - before).toBe(1);
  });

  it('records nothing of the caller in the database', async () => {
    const d = await datasetOf(PRODUCT.tmax);
    await get(pathOf(d.downloadUrl));
    // Besides the migrations' bookkeeping, its tables are its outbox and the copy of the platform's
    // grants (docs/decisions/0397-transfer-products-follow-product-grants.md), which only the platform's messages fill.
    const tables: { rows: { tablename: string }[] } = await ctx.fleet.db.knex.raw(
      `select tablename from pg_tables where schemaname = 'transfer' and tablename not like 'knex_migrations%'`,
    );
    for (const { tablename } of tables.rows) {
      const [{ n }] = (await ctx.fleet.db.knex.withSchema('transfer').table(tablename).count('* as n')) as [{ n: number | string }];
      expect([tablename, Number(n)]).toEqual([tablename, 0]);
    }
  });
});

/** The source's value at a cell centre: a one-cell window (the centres lie on the synthetic world's grid). */
async function sourceValues(weather: GridSource, variable: VariableId, lon: number, lat: number, startMs: number, endMs: number) {
  const w = await weather.window(variable, [lon, lat, lon, lat], { startMs, endMs });
  expect(w.lats.length * w.lons.length).toBe(1);
  return [...w.values];
}

/** Sampled cells: the corners, the middle and a few between. */
const CELLS = [
  [0, 0],
  [25, 0],
  [0, 11],
  [25, 11],
  [13, 6],
  [7, 3],
  [19, 9],
];

describe('the files hold the weather', () => {
  const day = Date.UTC(2024, 5, 1);

  it('GeoTIFF: the grid, EPSG:4326, and the source values at sampled cells in each band', async () => {
    const d = await datasetOf(PRODUCT.extremesTiff);
    const image = readTiff((await get(pathOf(d.downloadUrl))).body);
    expect([image.width, image.height, image.bands]).toEqual([26, 12, 2]);
    expect(image.tags.get(33922)).toEqual([0, 0, 0, IOWA[0], IOWA[3], 0]);
    expect(image.tags.get(33550)).toEqual([0.25, 0.25, 0]);
    expect(geoKeys(image).keys.get(2048)).toBe(4326);
    const bands = [image.band(0), image.band(1)];
    for (const [x, y] of CELLS) {
      const lon = IOWA[0] + (x! + 0.5) * 0.25;
      const lat = IOWA[3] - (y! + 0.5) * 0.25;
      expect(bands[0]![y! * 26 + x!]).toBe((await sourceValues(source, 'air_temperature_daily_max', lon, lat, day, day))[0]);
      expect(bands[1]![y! * 26 + x!]).toBe((await sourceValues(source, 'air_temperature_daily_min', lon, lat, day, day))[0]);
    }
  });

  it('NetCDF-4: time, lat and lon, and the source values at sampled cells and hours, read back with h5wasm', async () => {
    const d = await datasetOf(PRODUCT.hourly);
    const nc = await readNetcdf4((await get(pathOf(d.downloadUrl))).body);
    expect(nc.dims).toEqual([
      { name: 'time', length: 24 },
      { name: 'lat', length: 12 },
      { name: 'lon', length: 26 },
      { name: 'nv', length: 2 },
    ]);
    const hours = [...nc.read('time')];
    expect(hours[0]).toBe(day / 3_600_000);
    expect(hours[23]).toBe(day / 3_600_000 + 23);
    // Instants: no time cells (CF 1.11 §7.1, docs/decisions/0370-daily-netcdf-time-bounds.md).
    expect(nc.variables.time!.attributes.bounds).toBeUndefined();
    expect(nc.variables.time_bnds).toBeUndefined();
    expect(nc.read('lat')[0]).toBe(43.25);
    expect(nc.read('lon')[0]).toBe(-96.5);
    // The cells' edges (CF 1.11 §7.1), the record's bounds at the grid's corners.
    expect([...nc.read('lat_bnds').slice(0, 2)]).toEqual([IOWA[3], 43.125]);
    expect([...nc.read('lon_bnds').slice(-2)]).toEqual([-90.375, IOWA[2]]);
    // 2 m air temperature: a scalar height coordinate (CF 1.11 §6.1.1).
    expect(Number(nc.read('height') as unknown)).toBe(2);
    expect(nc.variables.air_temperature!.attributes).toMatchObject({
      standard_name: 'air_temperature',
      units: 'degC',
      coordinates: 'height',
      _FillValue: [-9999],
    });
    const values = nc.read('air_temperature');
    for (const [x, y] of CELLS) {
      const lon = IOWA[0] + (x! + 0.5) * 0.25;
      const lat = IOWA[3] - (y! + 0.5) * 0.25;
      const series = await sourceValues(source, 'air_temperature', lon, lat, day, day + 23 * 3_600_000);
      for (const t of [0, 9, 23]) expect(values[(t * 12 + y!) * 26 + x!]).toBe(series[t]);
    }
  });

  it('NetCDF-4 of the last day of the forecast: the hours the forecast covers', async () => {
    // The forecast ends with the newest published run, 06Z's, 16 days on: 2026-06-26T06:00Z.
    const d = await datasetOf(PRODUCT.hourly, '2026-06-26');
    const nc = await readNetcdf4((await get(pathOf(d.downloadUrl))).body);
    expect(nc.dims[0]).toEqual({ name: 'time', length: 7 });
    const hours = [...nc.read('time')];
    expect(hours[0]).toBe(Date.UTC(2026, 5, 26) / 3_600_000);
    expect(hours[6]).toBe(Date.UTC(2026, 5, 26, 6) / 3_600_000);
  });

  it("NetCDF-4 of hourly mean shortwave: time bounds, the cell the synthetic world's reads state (the hour centred on each stamp)", async () => {
    const d = await datasetOf(PRODUCT.shortwave);
    const nc = await readNetcdf4((await get(pathOf(d.downloadUrl))).body);
    const read = await source.window('surface_downwelling_shortwave_flux_in_air', [IOWA[0], IOWA[1], IOWA[0] + 0.25, IOWA[1] + 0.25], {
      startMs: day,
      endMs: day,
    });
    expect(read.timeCell).toEqual([-1_800_000, 1_800_000]);
    const [a, b] = read.timeCell!;
    expect(nc.variables.time!.attributes.bounds).toBe('time_bnds');
    expect(nc.variables.time_bnds!.dims).toEqual(['time', 'nv']);
    expect([...nc.read('time_bnds')]).toEqual([...nc.read('time')].flatMap((h) => [h + a / 3_600_000, h + b / 3_600_000]));
    expect(nc.variables.surface_downwelling_shortwave_flux_in_air!.attributes.cell_methods).toBe('time: mean');
  });

  it('GeoTIFF of a static field: the terrain height at sampled cells', async () => {
    const d = await datasetOf(PRODUCT.altitude);
    const image = readTiff((await get(pathOf(d.downloadUrl))).body);
    const band = image.band(0);
    for (const [x, y] of CELLS) {
      const lon = IOWA[0] + (x! + 0.5) * 0.25;
      const lat = IOWA[3] - (y! + 0.5) * 0.25;
      expect(band[y! * 26 + x!]).toBe((await sourceValues(source, 'surface_altitude', lon, lat, 0, 0))[0]);
    }
  });
});
