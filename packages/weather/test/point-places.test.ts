import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type GridSource, placeOfPoint, type VariableId } from '../src/grid/grid-source.js';
import { CompositeSource } from '../src/sources/composite-source.js';
import { SyntheticSource } from '../src/synthetic/synthetic-source.js';
import { GridStoreWriter, ZarrSource } from '../src/stores.js';

/*
 * A point read gives one place one value (docs/decisions/0428-one-point-read-per-place.md): every
 * longitude at a pole is the one pole, and longitude 180 is the meridian -180 is, in every source
 * and in the choice of source that answers.
 */
const DAY = 86_400_000;
const NOW = Date.UTC(2025, 5, 20, 10);
const TMAX: VariableId = 'air_temperature_daily_max';
let tmp: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'fieldcast-point-places-'));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/** Longitudes naming the same place at a pole. */
const POLE_LONGITUDES = [0, 0.005, 37.5, 120, -45, 179.99, 180, -180];

describe('placeOfPoint', () => {
  it.each([
    [0, 90, 0, 90],
    [120, 90, 0, 90],
    [-180, -90, 0, -90],
    [180, -90, 0, -90],
    [180, 45, -180, 45],
    [-180, 45, -180, 45],
    [179.99, 89.99, 179.99, 89.99],
    [10, 40, 10, 40],
  ])('(%p, %p) is read at (%p, %p)', (lon, lat, readLon, readLat) => {
    expect(placeOfPoint(lon, lat)).toEqual({ lon: readLon, lat: readLat });
  });

  it('passes an invalid point through for the source to refuse', () => {
    expect(placeOfPoint(181, 40)).toEqual({ lon: 181, lat: 40 });
    expect(placeOfPoint(Number.NaN, 91)).toEqual({ lon: Number.NaN, lat: 91 });
  });
});

describe('the synthetic world', () => {
  const world = new SyntheticSource({ now: () => NOW });
  const hours = { startMs: Date.UTC(2025, 5, 18), endMs: Date.UTC(2025, 5, 18, 5) };
  const days = { startMs: Date.UTC(2025, 5, 10), endMs: Date.UTC(2025, 5, 12) };
  const series = async (lon: number, lat: number) => ({
    temperature: Array.from((await world.pointSeries('air_temperature', lon, lat, hours)).values),
    type: Array.from((await world.pointSeries('precipitation_type', lon, lat, hours)).values),
    altitude: Array.from((await world.pointSeries('surface_altitude', lon, lat, hours)).values),
    tmax: Array.from((await world.dailyExtremesAt(lon, lat, days)).tmax.values),
    shortwave: Array.from((await world.etInputsAt(lon, lat, hours)).shortwave.values),
  });

  it.each([90, -90])('reads one value at latitude %p whatever the longitude', async (lat) => {
    const pole = await series(0, lat);
    for (const lon of POLE_LONGITUDES) expect(await series(lon, lat)).toEqual(pole);
  });

  it('reads longitude 180 as -180, daily products included', async () => {
    for (const lat of [-89.5, -12.34, 0, 65.2]) {
      expect(await series(180, lat)).toEqual(await series(-180, lat));
      const east = await world.dailyExtremesAt(180, lat, { startMs: Date.UTC(2025, 5, 19), endMs: Date.UTC(2025, 5, 20) });
      const west = await world.dailyExtremesAt(-180, lat, { startMs: Date.UTC(2025, 5, 19), endMs: Date.UTC(2025, 5, 20) });
      expect([east.tmax.productOf(0), east.tmax.productOf(1)]).toEqual([west.tmax.productOf(0), west.tmax.productOf(1)]);
    }
  });

  it('reads points together as one at a time: a batch and a sub-grid of pixels', async () => {
    const lons = Float64Array.from(POLE_LONGITUDES);
    const batch = await world.dailyExtremesAtPoints(lons, new Float64Array(lons.length).fill(90), days);
    const pole = Array.from((await world.dailyExtremesAt(0, 90, days)).tmax.values);
    for (const b of batch) expect(Array.from(b.tmax.values)).toEqual(pole);

    const at = Date.UTC(2025, 5, 18, 3);
    const [grid] = await world.pointGrid(['air_temperature'], Float64Array.of(-90, 89.5, 90), Float64Array.of(-180, 0, 120, 180), at);
    const one = async (lon: number, lat: number) =>
      (await world.pointSeries('air_temperature', lon, lat, { startMs: at, endMs: at })).values[0];
    expect(Array.from(grid!.subarray(0, 4))).toEqual(Array(4).fill(await one(0, -90)));
    expect(Array.from(grid!.subarray(8, 12))).toEqual(Array(4).fill(await one(0, 90)));
    expect(grid![4]).toBe(grid![7]);
  });
});

/** A global daily store, 5 degrees, on a 0..360 grid whose rows reach both poles; a value differs in every (t, i, j). */
async function globalStore(dir: string): Promise<void> {
  const lats = Array.from({ length: 37 }, (_, i) => -90 + i * 5);
  const lons = Array.from({ length: 72 }, (_, j) => j * 5);
  const nt = 3;
  const w = await GridStoreWriter.create(dir, { lats, lons, attributes: { title: 'poles', product: 'poles-analysis' } });
  await w.addTimeAxis({ name: 'time', startMs: Date.UTC(2025, 5, 10), stepMs: DAY, length: nt });
  await w.addVariable({
    name: TMAX,
    time: 'time',
    attributes: { standard_name: 'air_temperature', units: 'degC', cell_methods: 'time: maximum' },
  });
  const data = new Float32Array(nt * lats.length * lons.length);
  for (let t = 0; t < nt; t++)
    for (let i = 0; i < lats.length; i++)
      for (let j = 0; j < lons.length; j++) data[(t * lats.length + i) * lons.length + j] = t + i * 0.25 + j * 0.125;
  await w.write(TMAX, data);
  await w.close();
}

describe('Zarr stores and the source that answers', () => {
  const days = { startMs: Date.UTC(2025, 5, 10), endMs: Date.UTC(2025, 5, 12) };
  const read = async (source: GridSource, lon: number, lat: number) => Array.from((await source.pointSeries(TMAX, lon, lat, days)).values);

  it('a store reads one value at a pole, its longitude 0 column, and 180 as -180', async () => {
    const dir = path.join(tmp, 'poles.zarr');
    await globalStore(dir);
    const store = await ZarrSource.open(dir);
    try {
      for (const [lat, i] of [
        [90, 36],
        [-90, 0],
      ] as const) {
        const column0 = [0, 1, 2].map((t) => t + i * 0.25);
        for (const lon of POLE_LONGITUDES) expect(await read(store, lon, lat)).toEqual(column0);
      }
      expect(await read(store, 180, 87.5)).toEqual(await read(store, -180, 87.5));
    } finally {
      await store.close();
    }
  });

  it('a pole goes to one source: a store holding part of the pole row answers none of it', async () => {
    // Columns 90..180 east only: the pole's longitude 0 is not among them.
    const dir = path.join(tmp, 'arctic-east.zarr');
    const lats = [89, 89.5, 90];
    const lons = Array.from({ length: 19 }, (_, j) => 90 + j * 5);
    const w = await GridStoreWriter.create(dir, { lats, lons, attributes: { title: 'arctic east', product: 'arctic-analysis' } });
    await w.addTimeAxis({ name: 'time', startMs: Date.UTC(2025, 5, 10), stepMs: DAY, length: 3 });
    await w.addVariable({
      name: TMAX,
      time: 'time',
      attributes: { standard_name: 'air_temperature', units: 'degC', cell_methods: 'time: maximum' },
    });
    await w.write(TMAX, new Float32Array(3 * lats.length * lons.length).fill(-99));
    await w.close();
    const store = await ZarrSource.open(dir);
    try {
      const composite = new CompositeSource([store, new SyntheticSource({ now: () => NOW })]);
      const pole = await read(composite, 0, 90);
      for (const lon of POLE_LONGITUDES) expect(await read(composite, lon, 90)).toEqual(pole);
      expect((await composite.dailyExtremesAt(120, 90, days)).tmax.productOf(0)).toBe(
        (await composite.dailyExtremesAt(0, 90, days)).tmax.productOf(0),
      );
    } finally {
      await store.close();
    }
  });
});
