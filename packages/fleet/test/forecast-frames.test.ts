import request from 'supertest';
import { modelService } from '@fieldcast/model';
import { platformService } from '@fieldcast/platform';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { tilesService } from '@fieldcast/tiles';
import { createCatalog, forecastFrameId, forecastId, frameId, pixelCentre } from '@fieldcast/weather';
import { decodePng, pixelAt } from '../../../services/tiles/test/png-decode.js';

/*
 * A product's forecast runs are a model's runs (docs/decisions/0496-product-runs-are-a-models-runs.md):
 * the map's tile of run I at valid time V, the platform's datapoint of that frame and the model
 * area's time series of run I at V agree at a place, and two runs' frames of one valid time differ,
 * as their series do (docs/decisions/0141-forecast-error-model.md).
 */
const HOUR = 3_600_000;
// 12:20Z: the 06Z run is the latest published (3.5 h after its init time), the 00Z run the one before.
const NOW = Date.parse('2026-05-01T12:20:00Z');
const RUN_06 = Date.parse('2026-05-01T06:00:00Z');
const RUN_00 = RUN_06 - 6 * HOUR;
/** Tomorrow noon: 30 hours into the 06Z run. */
const VALID = Date.parse('2026-05-02T12:00:00Z');
// The dewpoint's product made public, so one account reads its tiles, datapoints and series alike.
const catalog = createCatalog({ products: [{ name: 'dew-point-temperature', access: 'public' }] });
const model = catalog.model('synthetic-global')!;
const t = useTestFleet([tilesService, platformService, modelService], { now: () => new Date(NOW), catalog });

const iso = (ms: number) => new Date(ms).toISOString();
const get = (area: string, path: string) => request(t.fleet.app(area)).get(path).set('Authorization', t.alice.auth);

async function tilePng(frame: string, z: number, x: number, y: number) {
  const res = await get('tiles', `/v2/frames/${frame}/tile/${z}/${x}/${y}.png`)
    .buffer(true)
    .parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
  expect(res.status).toBe(200);
  return { body: res.body as Buffer, etag: res.headers.etag as string, png: decodePng(res.body as Buffer) };
}

/** The model area's value of run `init` of synthetic-global for a variable at a place at VALID. */
async function seriesValue(init: number, variable: string, lat: number, lon: number): Promise<number> {
  const run = forecastId(model, init);
  const res = await get('model', `/forecasts/${run}/variables/${variable}/timeseries/${lat}/${lon}?start=${iso(VALID)}&end=${iso(VALID)}`);
  expect(res.status).toBe(200);
  expect(res.body.series).toHaveLength(1);
  return res.body.series[0].value as number;
}

async function datapoint(frame: string, lat: number, lon: number) {
  const res = await get('platform', `/frames/${frame}/datapoint/${lat}/${lon}`);
  expect(res.status).toBe(200);
  return res.body as { value: number; tile: { z: number; x: number; y: number }; pixel: { row: number; column: number } };
}

type Stop = { value: number; color: string };
const hex = (c: string) => [1, 3, 5].map((k) => parseInt(c.slice(k, k + 2), 16));

/** The colour of a value in a linear colorizer of `#rrggbb` stops (spec 2.3). */
function linearColour(stops: Stop[], v: number): number[] {
  const k = Math.max(0, stops.findIndex((s) => s.value >= v) - 1);
  const [a, b] = [stops[k]!, stops[Math.min(stops.length - 1, k + 1)]!];
  const f = b.value === a.value ? 0 : (v - a.value) / (b.value - a.value);
  const [ca, cb] = [hex(a.color), hex(b.color)];
  return [...ca.map((x, i) => Math.round(x + f * (cb[i]! - x))), 255];
}

async function defaultStops(product: string): Promise<Stop[]> {
  const res = await get('tiles', `/v2/products/${product}/styles.json`);
  expect(res.status).toBe(200);
  return res.body.find((s: { isDefault: boolean }) => s.isDefault).colorizers[0].stops;
}

/** Places over North America, Europe, Africa and Asia. */
const PLACES: [number, number][] = [
  [42.03, -93.63],
  [48.2, 11.6],
  [-1.3, 36.8],
  [30.6, 104.1],
];

describe('forecast frames are their model’s runs', () => {
  it.each([
    ['air-temperature', 'temperature'],
    ['dew-point-temperature', 'dewPoint'],
  ])(
    '%s: a tile pixel of run I at V, the datapoint there and the model’s %s series of run I at V agree; runs differ',
    async (productName, variable) => {
      const product = catalog.product(productName)!;
      const stops = await defaultStops(productName);
      const differ = { series: 0, pixels: 0 };
      for (const [lat0, lon0] of PLACES) {
        // The pixel of the frame's native-zoom tile that holds the place, read at its centre by every area.
        const { tile, pixel } = await datapoint(forecastFrameId(product, RUN_06, VALID), lat0, lon0);
        const { lat, lon } = pixelCentre(tile.z, tile.x, tile.y, pixel.row, pixel.column);
        const byRun = new Map<number, { series: number; colour: number[] }>();
        for (const init of [RUN_06, RUN_00]) {
          const frame = forecastFrameId(product, init, VALID);
          const series = await seriesValue(init, variable, lat, lon);
          const point = await datapoint(frame, lat, lon);
          // the series at two decimals, the datapoint at three, both of the same value
          expect(Math.abs(point.value - series)).toBeLessThanOrEqual(0.0051);
          const { png } = await tilePng(frame, tile.z, tile.x, tile.y);
          const colour = pixelAt(png, pixel.row, pixel.column);
          const want = linearColour(stops, point.value);
          for (let i = 0; i < 4; i++)
            expect([productName, init, lat, lon, i, Math.abs(colour[i]! - want[i]!) <= 1]).toEqual([productName, init, lat, lon, i, true]);
          byRun.set(init, { series, colour });
        }
        if (byRun.get(RUN_06)!.series !== byRun.get(RUN_00)!.series) differ.series++;
        if (byRun.get(RUN_06)!.colour.join() !== byRun.get(RUN_00)!.colour.join()) differ.pixels++;
      }
      // 30 and 36 hours into their runs, two runs' errors differ at every place.
      expect(differ).toEqual({ series: PLACES.length, pixels: PLACES.length });
    },
  );

  it('two runs draw one valid time differently, each its own tile and ETag; the analysis of an hour is neither', async () => {
    const product = catalog.product('air-temperature')!;
    const a = await tilePng(forecastFrameId(product, RUN_06, VALID), 3, 2, 2);
    const b = await tilePng(forecastFrameId(product, RUN_00, VALID), 3, 2, 2);
    expect(a.etag).not.toBe(b.etag);
    expect(a.body.equals(b.body)).toBe(false);
    // Asked again, each run's tile is its own (cached by frame, never by valid time alone).
    expect((await tilePng(forecastFrameId(product, RUN_06, VALID), 3, 2, 2)).body.equals(a.body)).toBe(true);
    // At lead 0 a run is the analysis (0141): run 06Z's first frame draws as the 06Z analysis.
    const lead0 = await tilePng(forecastFrameId(product, RUN_06, RUN_06), 3, 2, 2);
    const analysis = await tilePng(frameId(product, RUN_06), 3, 2, 2);
    expect(lead0.body.equals(analysis.body)).toBe(true);
  });

  it('derived layers take the run’s error on their inputs: humidity, degree days and ET differ between runs, tile and datapoint', async () => {
    for (const [name, valid, z, x, y] of [
      ['relative-humidity', VALID, 3, 4, 3],
      ['evapotranspiration-short-crop', VALID, 3, 4, 3],
      ['growing-degree-days', Date.parse('2026-05-03T00:00:00Z'), 3, 2, 2],
    ] as const) {
      const product = catalog.product(name)!;
      const [a, b] = [forecastFrameId(product, RUN_06, valid), forecastFrameId(product, RUN_00, valid)];
      expect([name, (await tilePng(a, z, x, y)).body.equals((await tilePng(b, z, x, y)).body)]).toEqual([name, false]);
      const values = await Promise.all(
        PLACES.map(async ([lat, lon]) => [(await datapoint(a, lat, lon)).value, (await datapoint(b, lat, lon)).value]),
      );
      expect([name, values.some(([va, vb]) => va !== vb)]).toEqual([name, true]);
    }
    // six cold tiles of derived layers, each computed from its inputs' runs, and their datapoints:
    // 30 s and more on a loaded two-core machine
  }, 120_000);
});
