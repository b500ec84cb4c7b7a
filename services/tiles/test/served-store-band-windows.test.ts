import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompositeSource, ET_INPUT_VARIABLES, GridStoreWriter, NoSyntheticSource, TILE_SIZE, ZarrSource } from '@fieldcast/weather';
import { NO_DATA } from '../src/domain/colorize.js';
import { evapotranspirationReader } from '../src/domain/evapotranspiration.js';
import { pixelCentres, sampleTile, sampleTileWith } from '../src/domain/sampling.js';
import { FunctionSource } from './function-source.js';

/*
 * A store in front of the end of the served chain, on a grid of its own (0.3°, off the end's
 * lattice): a band the store answers is measured, and its window read, on the store's grid. Every pixel of a tile inside the store has a value at the datapoint (the served
 * source's point read) and is drawn, in either mode, near the bands' edges too; the
 * evapotranspiration layer's bands, read from the store's every input, as well.
 */
const T0 = Date.UTC(2026, 11, 5);
const HOUR_MS = 3_600_000;
const LATS = Array.from({ length: 70 }, (_, i) => 38.1 + 0.3 * i);
const LONS = Array.from({ length: 100 }, (_, j) => -115.1 + 0.3 * j);
/** Tiles wholly inside the store's cells, at zooms where a band is one window read. */
const TILES = [
  { z: 4, x: 3, y: 5 },
  { z: 6, x: 14, y: 22 },
];

/** The ET inputs besides the temperature, and their units. */
const ET_INPUTS: Record<string, (lat: number, lon: number) => number> = {
  [ET_INPUT_VARIABLES.dewpoint]: (lat) => 5 + lat / 10,
  [ET_INPUT_VARIABLES.shortwave]: (lat, lon) => 400 + lat + lon,
  [ET_INPUT_VARIABLES.windSpeed]: (_lat, lon) => 3 + lon / 100,
  [ET_INPUT_VARIABLES.pressure]: () => 95,
};
const UNITS: Record<string, string> = {
  [ET_INPUT_VARIABLES.dewpoint]: 'degC',
  [ET_INPUT_VARIABLES.shortwave]: 'W m-2',
  [ET_INPUT_VARIABLES.windSpeed]: 'm s-1',
  [ET_INPUT_VARIABLES.pressure]: 'kPa',
};

/** A field at both hours of the store (two, so an hour's shortwave is covered). */
const field = (value: (lat: number, lon: number) => number) =>
  Float32Array.from([0, 1].flatMap(() => LATS.flatMap((lat) => LONS.map((lon) => value(lat, lon)))));

let dir: string;
let store: ZarrSource;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fieldcast-band-windows-'));
  const path = join(dir, 'store.zarr');
  const w = await GridStoreWriter.create(path, { lats: LATS, lons: LONS, attributes: { title: 'band windows' } });
  await w.addTimeAxis({ name: 'time', startMs: T0, stepMs: HOUR_MS, length: 2 });
  await w.addVariable({ name: 'air_temperature', time: 'time', attributes: { standard_name: 'air_temperature', units: 'degC' } });
  await w.write(
    'air_temperature',
    field((lat, lon) => lat + lon / 100),
  );
  // The other inputs of reference ET, the hour's shortwave an instant at its start like the rest, and the ground.
  for (const [name, value] of Object.entries(ET_INPUTS)) {
    await w.addVariable({ name, time: 'time', attributes: { standard_name: name, units: UNITS[name]! } });
    await w.write(name, field(value));
  }
  await w.addVariable({ name: 'surface_altitude', attributes: { standard_name: 'surface_altitude', units: 'm' } });
  await w.write('surface_altitude', Float32Array.from(LATS.flatMap((lat) => LONS.map((lon) => 200 + lat - lon / 10))));
  await w.close();
  store = await ZarrSource.open(path);
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

it.each(['linear', 'discrete'] as const)('draws (%s) every pixel of a tile inside a served store with its own grid', async (mode) => {
  const served = new CompositeSource([store, new NoSyntheticSource()]);
  const wrong: unknown[] = [];
  for (const tile of TILES) {
    const values = await sampleTile(served, 'air_temperature', T0, tile, mode);
    const { lons, lats } = pixelCentres(tile);
    for (let r = 0; r < TILE_SIZE; r++) {
      for (let c = 0; c < TILE_SIZE; c++) {
        if (values[r * TILE_SIZE + c] !== NO_DATA) continue;
        // The datapoint there: the served source's point read.
        const read = await served.pointSeries('air_temperature', lons[c]!, lats[r]!, { startMs: T0, endMs: T0 });
        wrong.push({ ...tile, r, c, datapoint: read.values[0] });
      }
    }
  }
  expect(wrong.length).toBe(0);
});

it.each(['linear', 'discrete'] as const)(
  'reads (%s) a tile inside a coarse store in front of a fine end as windows of the store, never pixel by pixel',
  async (mode) => {
    // The synthetic world's 0.01° grid behind the store: measured on it, the tile's bands would hold
    // far more cells per pixel than a window takes, and each pixel would be a point read of the store.
    const reads = { pointSeries: 0, slice: 0 };
    const counted = new Proxy(store, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (typeof value !== 'function') return value;
        if (name === 'pointSeries' || name === 'slice') reads[name]++;
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
    const served = new CompositeSource([counted, new FunctionSource({ air_temperature: () => -50 }, 0.01)]);
    const values = await sampleTile(served, 'air_temperature', T0, TILES[0]!, mode);
    expect(values.every((v) => v !== NO_DATA && v > 0)).toBe(true);
    expect(reads.pointSeries).toBe(0);
    expect(reads.slice).toBeGreaterThan(0);
  },
);

it.each(['linear', 'discrete'] as const)('draws (%s) every ET pixel of a tile inside a served store with its own grid', async (mode) => {
  const served = new CompositeSource([store, new NoSyntheticSource()]);
  const reader = evapotranspirationReader(served, T0, mode);
  const wrong: unknown[] = [];
  let drawn = 0;
  for (const tile of TILES) {
    const values = await sampleTileWith(served.grid, tile, mode, reader);
    const { lons, lats } = pixelCentres(tile);
    for (let r = 0; r < TILE_SIZE; r++) {
      for (let c = 0; c < TILE_SIZE; c++) {
        if (values[r * TILE_SIZE + c] !== NO_DATA) {
          drawn++;
          continue;
        }
        // The datapoint there: ET of the served source's point reads.
        wrong.push({ ...tile, r, c, datapoint: await reader.point(lons[c]!, lats[r]!) });
      }
    }
  }
  expect(wrong.slice(0, 3)).toEqual([]);
  expect(drawn).toBe(TILES.length * TILE_SIZE * TILE_SIZE);
});

/*
 * A tile across the store's south edge, in front of a fine end (0.01°): the end's grid holds more
 * cells per pixel than a window read takes, so the bands are read pixel by pixel. In a discrete
 * style each pixel is the value of the grid point nearest its centre on the grid of the source that
 * answers there: the store's inside its cells, the end's outside, what the datapoint gives at that
 * grid point.
 */
it('draws (discrete) each pixel of a tile across a served store’s edge with its nearest point on the answering grid', async () => {
  const end = new FunctionSource({ air_temperature: (lon, lat) => 100 + lat + lon / 100 }, 0.01);
  const served = new CompositeSource([store, end]);
  const tile = { z: 4, x: 3, y: 6 };
  const values = await sampleTile(served, 'air_temperature', T0, tile, 'discrete');
  const { lons, lats } = pixelCentres(tile);
  const nearest = (v: number, first: number, step: number, n: number) =>
    first + Math.min(n - 1, Math.max(0, Math.round((v - first) / step))) * step;
  const at = T0;
  const wrong: unknown[] = [];
  let inside = 0;
  for (let r = 0; r < TILE_SIZE; r++) {
    for (let c = 0; c < TILE_SIZE; c++) {
      const [lon, lat] = [lons[c]!, lats[r]!];
      const inStore = lat >= LATS[0]! - 0.15 && lat <= LATS.at(-1)! + 0.15 && lon >= LONS[0]! - 0.15 && lon <= LONS.at(-1)! + 0.15;
      if (inStore) inside++;
      const [source, cell, lat0, lon0, nLat, nLon] = inStore
        ? [store, 0.3, LATS[0]!, LONS[0]!, LATS.length, LONS.length]
        : [end, 0.01, end.grid.lat0, end.grid.lon0, end.grid.nLat, end.grid.nLon];
      const point = { lon: nearest(lon, lon0, cell, nLon), lat: nearest(lat, lat0, cell, nLat) };
      const expected = (await source.pointSeries('air_temperature', point.lon, point.lat, { startMs: at, endMs: at })).values[0]!;
      const value = values[r * TILE_SIZE + c]!;
      if (!(Math.abs(value - expected) < 1e-4)) wrong.push({ r, c, lon, lat, inStore, value, expected });
    }
  }
  expect(inside).toBeGreaterThan(0);
  expect(inside).toBeLessThan(TILE_SIZE * TILE_SIZE);
  expect({ wrong: wrong.length, first: wrong.slice(0, 3) }).toEqual({ wrong: 0, first: [] });
});

/*
 * Tiles whose bands cross a served store's edge in front of a fine end (0.01°), at a zoom where a
 * band is one window read on the end's grid: each pixel shows what the composite gives at its
 * place, the store's value inside the store's cells and the end's outside, whatever the band's
 * box reaches past the edge (within a cell of it, z5/6/12 across the south edge, or far past it,
 * z5/5/12 across the west edge).
 */
it.each(['linear', 'discrete'] as const)(
  'draws (%s) each pixel of a band across a served store’s edge from the source that answers there',
  async (mode) => {
    const end = new FunctionSource({ air_temperature: (lon, lat) => 100 + lat + lon / 100 }, 0.01);
    const served = new CompositeSource([store, end]);
    const nearest = (v: number, first: number, step: number, n: number) =>
      first + Math.min(n - 1, Math.max(0, Math.round((v - first) / step))) * step;
    const range = { startMs: T0, endMs: T0 };
    const wrong: unknown[] = [];
    for (const tile of [
      { z: 5, x: 6, y: 12 },
      { z: 5, x: 5, y: 12 },
    ]) {
      const values = await sampleTile(served, 'air_temperature', T0, tile, mode);
      const { lons, lats } = pixelCentres(tile);
      let inside = 0;
      for (let r = 0; r < TILE_SIZE; r++) {
        for (let c = 0; c < TILE_SIZE; c++) {
          const [lon, lat] = [lons[c]!, lats[r]!];
          const inStore = lat >= LATS[0]! - 0.15 && lat <= LATS.at(-1)! + 0.15 && lon >= LONS[0]! - 0.15 && lon <= LONS.at(-1)! + 0.15;
          if (inStore) inside++;
          // The datapoint there: the served source's point read, in a discrete style at the grid
          // point nearest the pixel on the grid of the source that answers there.
          const [cell, lat0, lon0, nLat, nLon] = inStore
            ? [0.3, LATS[0]!, LONS[0]!, LATS.length, LONS.length]
            : [0.01, end.grid.lat0, end.grid.lon0, end.grid.nLat, end.grid.nLon];
          const point = mode === 'linear' ? { lon, lat } : { lon: nearest(lon, lon0, cell, nLon), lat: nearest(lat, lat0, cell, nLat) };
          const expected = (await (inStore ? store : end).pointSeries('air_temperature', point.lon, point.lat, range)).values[0]!;
          const value = values[r * TILE_SIZE + c]!;
          if (!(Math.abs(value - expected) < 1e-3)) wrong.push({ ...tile, r, c, lon, lat, inStore, value, expected });
        }
      }
      expect(inside).toBeGreaterThan(0);
      expect(inside).toBeLessThan(TILE_SIZE * TILE_SIZE);
    }
    expect({ wrong: wrong.length, first: wrong.slice(0, 3) }).toEqual({ wrong: 0, first: [] });
  },
);
