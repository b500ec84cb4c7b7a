import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog, forecastBoundaryMs, frameId, productFrames, tileYToLatitude } from '@fieldcast/weather';
import { tilesService } from '../src/definition.js';
import { FunctionSource } from './function-source.js';
import { decodePng, pixelAt } from './png-decode.js';

// air_temperature = lon / 4, NaN south of 60 S; precipitation everywhere 5 mm/h, typed rain
// north of the equator, snow south of it and west of Greenwich, none in the south-east; the daily
// maximum as air_temperature.
const weather = new FunctionSource({
  air_temperature: (lon, lat) => (lat < -60 ? NaN : lon / 4),
  precipitation_rate: () => 5,
  air_temperature_daily_max: (lon) => lon / 4,
  precipitation_type: (lon, lat) => (lat > 0 ? 1 : lon < 0 ? 2 : 0),
});
// One instant for the fleet and the expectations: the newest frames change with each forecast run.
const NOW = Date.now();
const t = useTestFleet([tilesService], { weather, now: () => new Date(NOW) });
const app = () => t.fleet.app('tiles');
const catalog = createCatalog();
const temperature = catalog.product('air-temperature')!;
const precipitation = catalog.product('precipitation-rate')!;
const HOUR = 3_600_000;
const past = forecastBoundaryMs(NOW) - 2 * HOUR;
const temperatureFrame = frameId(temperature, past);
const precipitationFrame = frameId(precipitation, past);
const northAmerica = catalog.product('precipitation-rate-north-america')!;
const northAmericaFrame = frameId(northAmerica, past);

const linearStyle = {
  name: 'lin',
  description: '',
  layerName: 'air_temperature',
  colorizers: [
    {
      defaultColor: '#0000ff',
      defaultMode: 'linear',
      stops: [
        { value: 0, color: '#000000' },
        { value: 40, color: 'rgba(255, 0, 0, 1)' },
      ],
    },
  ],
};
const discreteStyle = {
  ...linearStyle,
  name: 'disc',
  colorizers: [
    {
      defaultColor: 'rgba(0, 0, 255, 0.5)',
      defaultMode: 'discrete',
      stops: [
        { value: 0, color: '#000000' },
        { value: 10, color: '#00ff00' },
        { value: 20, color: '#ff0000' },
      ],
    },
  ],
};
const maskStyle = {
  name: 'Types',
  description: '',
  layerName: 'precipitation_rate',
  colorizers: [
    {
      mask: { layerName: 'precipitation_type', attributes: ['rain'] },
      defaultColor: '#ffffff',
      defaultMode: 'discrete',
      stops: [{ value: 0.1, color: '#00ff00' }],
    },
    {
      mask: { layerName: 'precipitation_type', attributes: ['snow'] },
      defaultColor: '#ffffff',
      defaultMode: 'discrete',
      stops: [{ value: 0.1, color: '#0000ff' }],
    },
  ],
};

async function addStyle(auth: string, product: string, style: object): Promise<string> {
  const res = await request(app()).post(`/v2/products/${product}/styles`).set('Authorization', auth).send(style);
  expect(res.status).toBe(201);
  return res.body.id;
}

const tile = (auth: string, frame: string, z: number, x: number, y: number, style?: string) =>
  request(app())
    .get(`/v2/frames/${frame}/tile/${z}/${x}/${y}.png${style ? `?style=${encodeURIComponent(style)}` : ''}`)
    .set('Authorization', auth)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

/** Pixel column c of tile x = 1 at z = 1 has its centre at lon (c + 0.5) x 180 / 256 = (c + 0.5) x 0.703125. */
const lonOfColumn = (c: number) => (c + 0.5) * 0.703125;

describe('tiles', () => {
  it('draws a linear style: RGBA interpolated between the enclosing stops, defaultColor beyond the last', async () => {
    const style = await addStyle(t.alice.auth, 'air-temperature', linearStyle);
    const res = await tile(t.alice.auth, temperatureFrame, 1, 1, 0, style);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const png = decodePng(res.body as Buffer);
    expect([png.width, png.height]).toEqual([256, 256]);
    // Column 100: value lon/4 = 100.5 x 0.703125 / 4 = 17.666; red = 255 x 17.666 / 40 = 112.6 -> 113.
    expect(pixelAt(png, 128, 100)).toEqual([113, 0, 0, 255]);
    // Column 0: 0.0879 -> 255 x 0.0879 / 40 = 0.56 -> 1.
    expect(pixelAt(png, 10, 0)).toEqual([1, 0, 0, 255]);
    // Column 227: 227.5 x 0.703125 / 4 = 39.99 -> 254.95 -> 255; column 228: 40.17, past the last stop: defaultColor.
    expect(pixelAt(png, 200, 227)).toEqual([255, 0, 0, 255]);
    expect(pixelAt(png, 200, 228)).toEqual([0, 0, 255, 255]);
    for (const c of [0, 50, 150, 227]) expect(pixelAt(png, 64, c)[0]).toBe(Math.round((255 * lonOfColumn(c)) / 4 / 40));
  });

  it('draws a discrete style: the colour of the highest stop at or below the nearest grid point’s value', async () => {
    const style = await addStyle(t.alice.auth, 'air-temperature', discreteStyle);
    const png = decodePng((await tile(t.alice.auth, temperatureFrame, 1, 1, 0, style)).body as Buffer);
    // Column 50: lon 35.51, nearest grid point 35.5, 8.875 -> stop 0 (black).
    expect(pixelAt(png, 128, 50)).toEqual([0, 0, 0, 255]);
    // Column 57: lon 40.43, nearest 40.5, 10.125 -> stop 10 (green); column 120: lon 84.73 -> 84.5, 21.1 -> stop 20 (red).
    expect(pixelAt(png, 128, 57)).toEqual([0, 255, 0, 255]);
    expect(pixelAt(png, 128, 120)).toEqual([255, 0, 0, 255]);
    // Above the last stop the last class holds: column 255 (lon 179.6, 44.9) is red.
    expect(pixelAt(png, 128, 255)).toEqual([255, 0, 0, 255]);
    // West of Greenwich every value is below the first stop: defaultColor, alpha 0.5 -> 128.
    const west = decodePng((await tile(t.alice.auth, temperatureFrame, 1, 0, 0, style)).body as Buffer);
    expect(pixelAt(west, 128, 128)).toEqual([0, 0, 255, 128]);
  });

  it('paints a missing value with defaultColor', async () => {
    const style = await addStyle(t.alice.auth, 'air-temperature', linearStyle);
    const png = decodePng((await tile(t.alice.auth, temperatureFrame, 1, 1, 1, style)).body as Buffer);
    // Row 250 of the south-east tile lies at about 84 S, where the grid holds NaN.
    expect(tileYToLatitude(1 + 250.5 / 256, 1)).toBeLessThan(-60);
    expect(pixelAt(png, 250, 100)).toEqual([0, 0, 255, 255]);
    // Row 10 (about 4 S) has data: column 100 as in the northern tile.
    expect(pixelAt(png, 10, 100)).toEqual([113, 0, 0, 255]);
  });

  it('applies the first colorizer whose mask matches; transparent where none does', async () => {
    const style = await addStyle(t.alice.auth, 'precipitation-rate', maskStyle);
    const north = decodePng((await tile(t.alice.auth, precipitationFrame, 1, 0, 0, style)).body as Buffer);
    const southWest = decodePng((await tile(t.alice.auth, precipitationFrame, 1, 0, 1, style)).body as Buffer);
    const southEast = decodePng((await tile(t.alice.auth, precipitationFrame, 1, 1, 1, style)).body as Buffer);
    expect(pixelAt(north, 128, 128)).toEqual([0, 255, 0, 255]);
    expect(pixelAt(southWest, 128, 128)).toEqual([0, 0, 255, 255]);
    expect(pixelAt(southEast, 128, 128)).toEqual([0, 0, 0, 0]);
  });

  it('leaves pixels outside a regional product’s coverage transparent, whatever the defaultColor (spec 2.3: defaultColor is for values)', async () => {
    // Coverage -170..-50 E, 10..75 N; precipitation is 5 mm/h everywhere, below the only stop: defaultColor white inside.
    const style = await addStyle(t.alice.auth, 'precipitation-rate-north-america', {
      ...maskStyle,
      name: 'white',
      colorizers: [{ defaultColor: '#ffffff', defaultMode: 'discrete', stops: [{ value: 10, color: '#ff0000' }] }],
    });
    const west = decodePng((await tile(t.alice.auth, northAmericaFrame, 1, 0, 0, style)).body as Buffer);
    // Row 128 (about 66.5 N), column 128 (lon -89.6): inside.
    expect(tileYToLatitude(128.5 / 256, 1)).toBeCloseTo(66.5, 0);
    expect(pixelAt(west, 128, 128)).toEqual([255, 255, 255, 255]);
    // Column 250 (lon -3.9), row 5 (about 84.6 N), column 5 (lon -176.1): outside.
    for (const [row, column] of [
      [128, 250],
      [5, 128],
      [128, 5],
    ]) {
      expect(pixelAt(west, row!, column!)).toEqual([0, 0, 0, 0]);
    }
    // The eastern hemisphere is wholly outside.
    const east = decodePng((await tile(t.alice.auth, northAmericaFrame, 1, 1, 0, style)).body as Buffer);
    for (let row = 0; row < 256; row += 15) for (let column = 0; column < 256; column += 15) expect(pixelAt(east, row, column)[3]).toBe(0);
  });

  it('takes the style from a style= parameter of the PNG media type in Accept, the default style when none is named', async () => {
    await addStyle(t.alice.auth, 'air-temperature', linearStyle);
    const byQuery = await tile(t.alice.auth, temperatureFrame, 1, 1, 0, 'lin');
    const byAccept = await request(app())
      .get(`/v2/frames/${temperatureFrame}/tile/1/1/0.png`)
      .set('Authorization', t.alice.auth)
      .set('Accept', 'image/png; style=LIN')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(byAccept.status).toBe(200);
    expect((byAccept.body as Buffer).equals(byQuery.body as Buffer)).toBe(true);
    const byDefault = await tile(t.alice.auth, temperatureFrame, 1, 1, 0);
    expect(byDefault.status).toBe(200);
    expect((byDefault.body as Buffer).equals(byQuery.body as Buffer)).toBe(false);
    // The default style: linear from -40 (#2c0a5e) ... at column 100, 17.67 between 10 (#f7f7f7) and 20 (#f6a482).
    const png = decodePng(byDefault.body as Buffer);
    const f = (17.666015625 - 10) / 10;
    expect(pixelAt(png, 128, 100)).toEqual([
      Math.round(0xf7 + f * (0xf6 - 0xf7)),
      Math.round(0xf7 + f * (0xa4 - 0xf7)),
      Math.round(0xf7 + f * (0x82 - 0xf7)),
      255,
    ]);
  });

  it('answers If-None-Match with 304 and carries a strong ETag that changes with the style', async () => {
    const style = await addStyle(t.alice.auth, 'air-temperature', linearStyle);
    const first = await tile(t.alice.auth, temperatureFrame, 1, 1, 0, style);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await request(app())
      .get(`/v2/frames/${temperatureFrame}/tile/1/1/0.png?style=${style}`)
      .set('Authorization', t.alice.auth)
      .set('If-None-Match', `"other", ${etag}`);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    // RFC 9110 §15.4.5: a 304 carries the ETag, Cache-Control and Vary a 200 would.
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
    expect(again.headers.vary).toBe('Accept, Authorization');
    await request(app())
      .put(`/v2/styles/${style}.json`)
      .set('Authorization', t.alice.auth)
      .send({ ...linearStyle, colorizers: discreteStyle.colorizers });
    const changed = await tile(t.alice.auth, temperatureFrame, 1, 1, 0, style);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('is cacheable long and immutable for a frame of the past with a default style, briefly for a forecast frame', async () => {
    const pastTile = await tile(t.alice.auth, temperatureFrame, 0, 0, 0);
    expect(pastTile.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    // A contributed style may be replaced: five minutes, then revalidation by ETag.
    const style = await addStyle(t.alice.auth, 'air-temperature', linearStyle);
    expect((await tile(t.alice.auth, temperatureFrame, 0, 0, 0, style)).headers['cache-control']).toBe('private, max-age=300');
    const frames = await request(app()).get('/v2/products/air-temperature/frames.json?limit=5').set('Authorization', t.alice.auth);
    const forecast = frames.body.find((f: { expirationTime: string | null }) => f.expirationTime !== null).id;
    const forecastTile = await tile(t.alice.auth, forecast, 0, 0, 0);
    expect(forecastTile.status).toBe(200);
    const maxAge = Number(/max-age=(\d+)/.exec(forecastTile.headers['cache-control'] as string)?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(3600);
    expect(forecastTile.headers['cache-control']).not.toContain('immutable');
    // today's daily maximum holds forecast hours: redrawn, and so kept, like a forecast frame
    const daily = catalog.product('air-temperature-daily-max')!;
    const today = Math.floor(NOW / 86_400_000) * 86_400_000;
    const todays = await tile(t.alice.auth, frameId(daily, today), 0, 0, 0);
    expect(todays.status).toBe(200);
    expect(todays.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    const settled = await tile(t.alice.auth, frameId(daily, today - 3 * 86_400_000), 0, 0, 0);
    expect(settled.headers['cache-control']).toBe('private, max-age=31536000, immutable');
  });

  it('gives a tile it cannot draw neither the tile’s ETag nor its lifetime (RFC 9111 §3: a 503 with max-age may be stored)', async () => {
    // This weather has no dewpoint: relative humidity is 503 layer_not_drawable (docs/interface.md §4).
    const humidity = catalog.product('relative-humidity')!;
    const res = await tile(t.alice.auth, frameId(humidity, past), 0, 0, 0);
    expect(res.status).toBe(503);
    expect(JSON.parse((res.body as Buffer).toString()).id).toBe('layer_not_drawable');
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['cache-control'] ?? '').not.toMatch(/max-age|immutable/);
    const doc = (await request(app()).get('/openapi.json')).body;
    expect(doc.paths['/v2/frames/{frame}/tile/{z}/{x}/{y}.png'].get.responses['503']).toBeDefined();
  });

  it('refuses unknown frames and styles (404) and tiles outside the zoom levels or the grid of tiles (400)', async () => {
    const unknown = await tile(t.alice.auth, '00000000-0000-4000-8000-000000000000', 0, 0, 0);
    expect(unknown.status).toBe(404);
    expect(JSON.parse((unknown.body as Buffer).toString()).id).toBe('frame_does_not_exist');
    const noStyle = await tile(t.alice.auth, temperatureFrame, 0, 0, 0, 'no such style');
    expect(noStyle.status).toBe(404);
    expect(JSON.parse((noStyle.body as Buffer).toString()).id).toBe('style_does_not_exist');
    // The 0.5 degree grid is native at zoom 1 (360 / (256 x 2) = 0.70 degrees a pixel); 4 beyond it are served.
    for (const [z, x, y, path] of [
      [6, 0, 0, 'z'],
      [1, 2, 0, 'x'],
      [1, 0, 2, 'y'],
    ] as const) {
      const res = await tile(t.alice.auth, temperatureFrame, z, x, y);
      expect(res.status).toBe(400);
      const problem = JSON.parse((res.body as Buffer).toString());
      expect(problem.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    }
    expect((await tile(t.alice.auth, temperatureFrame, 5, 31, 31)).status).toBe(200);
  });

  it('tells a whole zoom level past the last that it is out of range, however many digits it has', async () => {
    for (const z of ['6', '100', '12345']) {
      const res = await request(app()).get(`/v2/frames/${temperatureFrame}/tile/${z}/0/0.png`).set('Authorization', t.alice.auth);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ path: 'z', message: 'must be a zoom level of the frame, 0 to 5' }]);
    }
    for (const z of ['-1', '1.5', 'a']) {
      const res = await request(app()).get(`/v2/frames/${temperatureFrame}/tile/${z}/0/0.png`).set('Authorization', t.alice.auth);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ path: 'z', message: 'must be a whole zoom level' }]);
    }
  });

  it('refuses a style given twice with one message in the API’s words, as every repeated parameter', async () => {
    const res = await request(app())
      .get(`/v2/frames/${temperatureFrame}/tile/1/1/0.png?style=a&style=b`)
      .set('Authorization', t.alice.auth)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(400);
    expect(JSON.parse((res.body as Buffer).toString()).errors).toEqual([
      { path: 'style', message: 'style must be given once: a style id or name' },
    ]);
  });

  it('refuses another account’s style on a tile with 404, by id and by name', async () => {
    const style = await addStyle(t.alice.auth, 'air-temperature', linearStyle);
    for (const ref of [style, 'lin']) {
      const res = await tile(t.bob.auth, temperatureFrame, 1, 1, 0, ref);
      expect(res.status).toBe(404);
      expect(JSON.parse((res.body as Buffer).toString()).id).toBe('style_does_not_exist');
    }
  });

  it('finds a style by its name when the name has the form of a UUID that is no style’s id (docs/decisions/0394-tile-style-by-id-then-by-name.md)', async () => {
    const name = '00000000-0000-4000-8000-0000000000aa';
    const id = await addStyle(t.alice.auth, 'air-temperature', { ...linearStyle, name });
    const byName = await tile(t.alice.auth, temperatureFrame, 1, 1, 0, name.toUpperCase());
    const byId = await tile(t.alice.auth, temperatureFrame, 1, 1, 0, id);
    expect([byName.status, byName.headers.etag]).toEqual([200, byId.headers.etag]);
    // still another account's style for everyone else
    expect((await tile(t.bob.auth, temperatureFrame, 1, 1, 0, name)).status).toBe(404);
  });

  it('refuses a style of another product with 400 style_not_for_product', async () => {
    const style = await addStyle(t.alice.auth, 'precipitation-rate', maskStyle);
    const res = await tile(t.alice.auth, temperatureFrame, 1, 1, 0, style);
    expect(res.status).toBe(400);
    expect(JSON.parse((res.body as Buffer).toString()).id).toBe('style_not_for_product');
  });

  it('lists a product’s recent frames, newest first, as frame records', async () => {
    const res = await request(app()).get('/v2/products/air-temperature/frames.json?limit=3').set('Authorization', t.alice.auth);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(3);
    const times = res.body.map((f: { validTime: string }) => Date.parse(f.validTime));
    expect(times[0] - times[1]).toBe(HOUR);
    // The same frames and ids as the platform area lists (the catalog's productFrames).
    const catalogFrames = productFrames(temperature, NOW, -Infinity, Infinity, 3);
    expect(res.body.map((f: { id: string }) => f.id)).toEqual(catalogFrames.map((f) => f.id));
    expect(res.body[0]).toMatchObject({
      zoomLevels: { minimum: 0, native: 1, maximum: 5 },
      mediaTypes: ['image/png'],
      tileSize: 256,
      product: `/products/${temperature.id}`,
    });
    // Each listed frame has tiles.
    expect((await tile(t.alice.auth, res.body[2].id, 0, 0, 0)).status).toBe(200);
    expect((await request(app()).get('/v2/products/air-temperature/frames.json?limit=0').set('Authorization', t.alice.auth)).status).toBe(
      400,
    );
    expect((await request(app()).get('/v2/products/nope/frames.json').set('Authorization', t.alice.auth)).status).toBe(404);
  });
});
