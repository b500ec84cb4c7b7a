import request from 'supertest';
import { shortCropEtOfHour } from '@fieldcast/science';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog, forecastBoundaryMs, frameId, meanOver, pixelCentre } from '@fieldcast/weather';
import { tilesService } from '../src/definition.js';
import { FunctionSource } from './function-source.js';
import { decodePng, pixelAt, type DecodedPng } from './png-decode.js';

const HOUR = 3_600_000;
const catalog = createCatalog();
const product = catalog.product('evapotranspiration-short-crop')!;
const validMs = forecastBoundaryMs(Date.now()) - 2 * HOUR;
const frame = frameId(product, validMs);
/** The longitude under the sun at the middle of the frame's hour: the middle of the sunlit side. */
const noonLon = (((12 - ((validMs + HOUR / 2) % (24 * HOUR)) / HOUR) * 15 + 540) % 360) - 180;
const rad = Math.PI / 180;

// A daytime world around noonLon: sunshine falling off with the sun's distance, warm dry air,
// wind growing eastwards, ground below sea level in the far south (taken as sea level), and no
// temperature south of 70 S (a missing input). On a 0.05° grid, so that low zooms read pixels
// point by point (etInputsAt) and higher ones read bands as windows (etInputsIn).
const weather = new FunctionSource(
  {
    air_temperature: (lon, lat) => (lat < -70 ? NaN : 32 - Math.abs(lat) / 3 + 3 * Math.cos((lon - noonLon) * rad)),
    dew_point_temperature: (_lon, lat) => 8 + lat / 10,
    surface_downwelling_shortwave_flux_in_air: (lon, lat) => Math.max(0, 950 * Math.cos((lon - noonLon) * rad) * Math.cos(lat * rad)),
    wind_speed: (lon) => 2 + ((lon + 180) / 360) * 4,
    surface_air_pressure: () => 1000,
    surface_altitude: (_lon, lat) => 300 + 20 * lat,
  },
  0.05,
);
const t = useTestFleet([tilesService], { weather });
const app = () => t.fleet.app('tiles');

const tile = (z: number, x: number, y: number) =>
  request(app())
    .get(`/v2/frames/${frame}/tile/${z}/${x}/${y}.png`)
    .set('Authorization', t.alice.auth)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

/**
 * The platform area's datapoint of the frame at a point: ET of the point reads, unrounded (the
 * datapoint answers it to 3 decimals, but the tile colours the value itself: at night a value
 * just below the first stop, 0, is transparent in the tile and reads 0.000 as a datapoint).
 */
async function datapointValue(lon: number, lat: number): Promise<number | null> {
  const groundMs = weather.coverage().startMs;
  const [inputs, ground] = await Promise.all([
    weather.etInputsAt(lon, lat, { startMs: validMs, endMs: validMs + HOUR }),
    weather.pointSeries('surface_altitude', lon, lat, { startMs: groundMs, endMs: groundMs }),
  ]);
  const v = shortCropEtOfHour({
    airTemperature: inputs.airTemperature.values[0]!,
    dewpoint: inputs.dewpoint.values[0]!,
    // The hour's shortwave (docs/decisions/0379-time-cells-of-mean-rates.md).
    shortwave: meanOver(inputs.shortwave, validMs, validMs + HOUR),
    windSpeed: inputs.windSpeed.values[0]!,
    elevation: ground.values[0]!,
    latitude: lat,
    longitude: lon,
    hourStartMs: validMs,
  });
  return Number.isFinite(v) ? v : null;
}

type Stop = { value: number; color: string };
let stops: Stop[];
const hex = (c: string) => [1, 3, 5].map((k) => parseInt(c.slice(k, k + 2), 16));

/** The colour of a value in a linear colorizer of `#rrggbb` stops (spec 2.3): RGBA between the enclosing stops, transparent outside them. */
function linearColour(stops: Stop[], v: number | null): number[] {
  if (v === null || v < stops[0]!.value || v > stops[stops.length - 1]!.value) return [0, 0, 0, 0];
  const k = Math.max(0, stops.findIndex((s) => s.value >= v) - 1);
  const [a, b] = [stops[k]!, stops[Math.min(stops.length - 1, k + 1)]!];
  const f = b.value === a.value ? 0 : (v - a.value) / (b.value - a.value);
  const [ca, cb] = [hex(a.color), hex(b.color)];
  return [...ca.map((x, i) => Math.round(x + f * (cb[i]! - x))), 255];
}

/** Checks the tile's pixels against the datapoint's colour at their centres (one unit of rounding allowed per channel); the values seen. */
async function expectDatapointColours(png: DecodedPng, z: number, x: number, y: number, pixels: [number, number][]): Promise<number[]> {
  const seen: number[] = [];
  for (const [row, column] of pixels) {
    const { lon, lat } = pixelCentre(z, x, y, row, column);
    const value = await datapointValue(lon, lat);
    if (value !== null) seen.push(value);
    const want = linearColour(stops, value);
    const got = pixelAt(png, row, column);
    for (let i = 0; i < 4; i++) {
      if (Math.abs(got[i]! - want[i]!) > 1) throw new Error(`pixel ${row},${column} (${lon}, ${lat}) ET ${value}: ${got} is not ${want}`);
    }
  }
  return seen;
}

const grid = (n: number, from = 8): [number, number][] =>
  Array.from({ length: n * n }, (_, k) => [
    from + Math.floor(k / n) * Math.floor((256 - 2 * from) / (n - 1)),
    from + (k % n) * Math.floor((256 - 2 * from) / (n - 1)),
  ]);

describe('evapotranspiration tiles', () => {
  // The product's default style, as served (accounts are made afresh for each test).
  beforeEach(async () => {
    const res = await request(app()).get(`/v2/products/${product.name}/styles.json`).set('Authorization', t.alice.auth);
    expect(res.status).toBe(200);
    const style = res.body.find((s: { isDefault: boolean }) => s.isDefault);
    expect(style.layerName).toBe('evapotranspiration');
    stops = style.colorizers[0].stops;
  });

  it('draws hourly reference ET per pixel (windows of etInputsIn): the colour of the datapoint at each pixel centre', async () => {
    // z 3: the tile north of the equator under the sun; bands are read as windows.
    const z = 3;
    const x = Math.floor(((noonLon + 180) / 360) * 2 ** z);
    const res = await tile(z, x, 3);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const png = decodePng(res.body as Buffer);
    const seen = await expectDatapointColours(png, z, x, 3, grid(8));
    // The tile spans the style's stops: several colour classes, none of them the transparent default.
    expect(Math.min(...seen)).toBeGreaterThan(0);
    expect(Math.max(...seen) - Math.min(...seen)).toBeGreaterThan(0.2);
    expect(new Set(seen.map((v) => linearColour(stops, v).join())).size).toBeGreaterThan(10);
  });

  it('draws the whole world at zoom 0 from point reads (etInputsAt), transparent where an input is missing', async () => {
    const res = await tile(0, 0, 0);
    expect(res.status).toBe(200);
    const png = decodePng(res.body as Buffer);
    const seen = await expectDatapointColours(png, 0, 0, 0, grid(10, 4));
    expect(Math.max(...seen)).toBeGreaterThan(0.3);
    // South of 70 S (from row 217 of 256 at zoom 0) the temperature is missing: transparent.
    expect(pixelCentre(0, 0, 0, 240, 128).lat).toBeLessThan(-70);
    expect(pixelAt(png, 240, 128)).toEqual([0, 0, 0, 0]);
    // Night side (180° from the sun): no sunshine, only the air's demand: less than any sunlit ET seen, drawn alike.
    const nightColumn = Math.floor((((noonLon + 360) % 360) / 360) * 256);
    const [night] = await expectDatapointColours(png, 0, 0, 0, [[128, nightColumn]]);
    expect(night).toBeLessThan(Math.max(...seen) / 2);
  });
});
