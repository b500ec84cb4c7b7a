import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CompositeSource,
  ET_INPUT_VARIABLES,
  type GridSource,
  GridStoreWriter,
  SyntheticSource,
  TILE_SIZE,
  ZarrSource,
} from '@fieldcast/weather';
import { evapotranspirationReader } from '../src/domain/evapotranspiration.js';
import {
  pixelCentres,
  type SampleMode,
  sampleTileWith,
  type TileAddress,
  type TileReader,
  variableReader,
} from '../src/domain/sampling.js';
import { FunctionSource } from './function-source.js';

/*
 * Tiles whose bands cross a served store's edge, in front of an end that answers past it: a band is
 * read as the few rectangles of pixels whose point reads go to one source, each one window of that
 * source (docs/decisions/0484-a-band-across-a-stores-edge-is-read-as-windows.md), not one point read
 * per pixel; and every pixel is still what its own point read gives
 * (docs/decisions/0481-a-band-across-a-stores-edge-is-read-per-place.md). The reads are counted at
 * the sources: point series, windows and point grids.
 */
const T0 = Date.UTC(2026, 11, 5);
const HOUR_MS = 3_600_000;

/** A 0.3° store over the western United States, off the end's lattice, with every input of reference ET. */
const REGION = {
  lats: Array.from({ length: 70 }, (_, i) => 38.1 + 0.3 * i),
  lons: Array.from({ length: 100 }, (_, j) => -115.1 + 0.3 * j),
};
/** A 1° store over the Pacific, kept in 0..360 across the antimeridian (docs/decisions/0452-grid-cells-across-the-antimeridian.md). */
const PACIFIC = {
  lats: Array.from({ length: 31 }, (_, i) => i),
  lons: Array.from({ length: 81 }, (_, j) => 150 + j),
};

/** The fields of the stores and of the ends, the ends' offset so that a pixel read from the wrong one shows. */
const FIELDS: Record<string, { units: string; value: (lat: number, lon: number) => number }> = {
  air_temperature: { units: 'degC', value: (lat, lon) => lat + lon / 100 },
  [ET_INPUT_VARIABLES.dewpoint]: { units: 'degC', value: (lat) => 5 + lat / 10 },
  [ET_INPUT_VARIABLES.shortwave]: { units: 'W m-2', value: (lat, lon) => 400 + lat + lon },
  [ET_INPUT_VARIABLES.windSpeed]: { units: 'm s-1', value: (_lat, lon) => 3 + lon / 100 },
  [ET_INPUT_VARIABLES.pressure]: { units: 'kPa', value: () => 95 },
};
const ground = (lat: number, lon: number) => 200 + lat - lon / 10;

/**
 * A store of every field at two hours (so an hour's shortwave is covered) and the ground, on the
 * grid lats x lons; its shortwave instants, or `shortwaveMeans` over the hour from each stamp
 * (CF 1.11 §7.1 bounds, §7.3 cell_methods).
 */
async function storeOn(dir: string, grid: { lats: number[]; lons: number[] }, shortwaveMeans = false): Promise<ZarrSource> {
  const path = join(dir, 'store.zarr');
  const w = await GridStoreWriter.create(path, { ...grid, attributes: { title: 'band across an edge' } });
  await w.addTimeAxis({ name: 'time', startMs: T0, stepMs: HOUR_MS, length: 2 });
  if (shortwaveMeans) await w.addTimeAxis({ name: 'time_mean', startMs: T0, stepMs: HOUR_MS, length: 2, cell: [0, HOUR_MS] });
  const at = (value: (lat: number, lon: number) => number) => grid.lats.flatMap((lat) => grid.lons.map((lon) => value(lat, lon)));
  for (const [name, { units, value }] of Object.entries(FIELDS)) {
    const mean = shortwaveMeans && name === ET_INPUT_VARIABLES.shortwave;
    const attributes = { standard_name: name, units, ...(mean ? { cell_methods: 'time: mean' } : {}) };
    await w.addVariable({ name, time: mean ? 'time_mean' : 'time', attributes });
    await w.write(name, Float32Array.from([...at(value), ...at(value)]));
  }
  await w.addVariable({ name: 'surface_altitude', attributes: { standard_name: 'surface_altitude', units: 'm' } });
  await w.write('surface_altitude', Float32Array.from(at(ground)));
  await w.close();
  return ZarrSource.open(path);
}

/** The end of the chain: every field offset, on a global grid of `cell` degrees. */
const endOf = (cell: number) =>
  new FunctionSource(
    {
      ...Object.fromEntries(Object.entries(FIELDS).map(([name, { value }]) => [name, (lon: number, lat: number) => 10 + value(lat, lon)])),
      surface_altitude: (lon, lat) => ground(lat, lon) + 10,
    },
    cell,
  );

/** A source's reads: point series, windows (slice and window) and point grids. */
interface Reads {
  point: number;
  window: number;
  pointGrid: number;
}

const READ_METHODS = { pointSeries: 'point', slice: 'window', window: 'window', pointGrid: 'pointGrid' } as const;

/**
 * The reads each source is asked while `read` runs, each call counted once: a read a source
 * answers through another of its own (FunctionSource's slice, a window) is not counted again.
 */
async function countingReads<T>(sources: readonly GridSource[], read: () => Promise<T>): Promise<{ result: T; reads: Reads[] }> {
  const reads = sources.map(() => ({ point: 0, window: 0, pointGrid: 0 }));
  sources.forEach((source, k) => {
    const methods = source as unknown as Record<string, ((...args: unknown[]) => unknown) | undefined>;
    let depth = 0;
    for (const [name, kind] of Object.entries(READ_METHODS)) {
      const method = methods[name];
      if (!method) continue;
      methods[name] = (...args: unknown[]) => {
        if (depth === 0) reads[k]![kind]++;
        depth++;
        try {
          return method.apply(source, args);
        } finally {
          depth--;
        }
      };
    }
  });
  try {
    return { result: await read(), reads };
  } finally {
    for (const source of sources) for (const name of Object.keys(READ_METHODS)) delete (source as unknown as Record<string, unknown>)[name];
  }
}

let dirs: string[] = [];
let region: ZarrSource;
let regionMeans: ZarrSource;
let pacific: ZarrSource;

beforeAll(async () => {
  dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'fieldcast-edge-reads-')));
  region = await storeOn(dirs[0]!, REGION);
  regionMeans = await storeOn(dirs[1]!, REGION, true);
  pacific = await storeOn(dirs[2]!, PACIFIC);
});

afterAll(async () => {
  for (const store of [region, regionMeans, pacific]) await store?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * The tile drawn through the reader, the reads it took at the store and the end and in all, and
 * the pixels whose value is not what the pixel's own point read gives (the point-wise path's
 * value): of every pixel, or of those on every `every`-th diagonal (each row's and each column's
 * among them).
 */
async function drawn(store: ZarrSource, end: GridSource, tile: TileAddress, mode: SampleMode, reader: TileReader, every = 1) {
  const {
    result: values,
    reads: [atStore, atEnd],
  } = await countingReads([store, end], () => sampleTileWith(end.grid, tile, mode, reader));
  const reads = { point: atStore!.point + atEnd!.point, window: atStore!.window + atEnd!.window, store: atStore!, end: atEnd! };
  const { lons, lats } = pixelCentres(tile);
  const wrong: unknown[] = [];
  for (let r = 0; r < TILE_SIZE; r++) {
    for (let c = (every - (r % every)) % every; c < TILE_SIZE; c += every) {
      const expected = await reader.point(lons[c]!, lats[r]!);
      const value = values[r * TILE_SIZE + c]!;
      if (!(Math.abs(value - expected) < 1e-3)) wrong.push({ r, c, lon: lons[c], lat: lats[r], value, expected });
    }
  }
  return { reads, wrong: { count: wrong.length, first: wrong.slice(0, 3) } };
}

/** Bands of a tile (sampling.ts). */
const BANDS = TILE_SIZE / 16;
/** Windows a tile's reads may take: a band one, or a few where it is cut into runs of columns and a run into rows. */
const WINDOWS = 2 * BANDS;

describe.each(['linear', 'discrete'] as const)('a tile across a store’s edge (%s)', (mode) => {
  it.each([
    // Every band crosses the store's west edge (-115.25).
    { edge: 'west', tile: { z: 5, x: 5, y: 12 } },
    // One band crosses its south edge (37.95).
    { edge: 'south', tile: { z: 5, x: 6, y: 12 } },
  ])('across the $edge edge is read as a few windows, each pixel its point read', async ({ tile }) => {
    const end = endOf(0.01);
    const served = new CompositeSource([region, end]);
    const { reads, wrong } = await drawn(region, end, tile, mode, variableReader(served, 'air_temperature', T0, mode), 2);
    expect(wrong).toEqual({ count: 0, first: [] });
    expect(reads.point).toBe(0);
    expect(reads.window).toBeGreaterThan(BANDS);
    expect(reads.window).toBeLessThanOrEqual(WINDOWS);
  });

  it('across a store’s antimeridian split is read as a few windows, the seam’s pixels point by point', async () => {
    // The whole world: the store's cells east of 149.5 and west of -129.5, its north and south edges
    // (30.5, -0.5) across bands; the end's global 1° grid read point-wise across its seam (linear:
    // the column east of 179, sampling.ts seamColumns).
    const end = endOf(1);
    const served = new CompositeSource([pacific, end]);
    const { reads, wrong } = await drawn(pacific, end, { z: 0, x: 0, y: 0 }, mode, variableReader(served, 'air_temperature', T0, mode));
    expect(wrong).toEqual({ count: 0, first: [] });
    expect(reads.point).toBeLessThanOrEqual(mode === 'linear' ? TILE_SIZE : 0);
    expect(reads.window).toBeLessThanOrEqual(WINDOWS);
  });

  it('of evapotranspiration across the west edge reads every input and the ground as a few windows', async () => {
    const end = endOf(0.01);
    const served = new CompositeSource([region, end]);
    const reader = evapotranspirationReader(served, T0, mode);
    const { reads, wrong } = await drawn(region, end, { z: 5, x: 5, y: 12 }, mode, reader, 8);
    expect(wrong).toEqual({ count: 0, first: [] });
    expect(reads.point).toBe(0);
    // Each window of the five inputs and the ground: a read of each.
    expect(reads.window).toBeLessThanOrEqual(6 * WINDOWS);
  });

  it('of evapotranspiration across the south edge reads the end’s pixels over the stamps their own point reads take', async () => {
    // The store's shortwave a mean over the hour from its stamp, the end's instants: the hour's
    // mean reads the stamp at its start from the store, at both ends from the end
    // (hoursReadRange). A box of the end's pixels within a cell of the store routes to the store,
    // whose stamps would leave the end's pixels without the hour's last one.
    const end = endOf(0.01);
    const served = new CompositeSource([regionMeans, end]);
    const reader = evapotranspirationReader(served, T0, mode);
    const { reads, wrong } = await drawn(regionMeans, end, { z: 5, x: 6, y: 12 }, mode, reader, 8);
    expect(wrong).toEqual({ count: 0, first: [] });
    expect(reads.point).toBe(0);
  });

  it('of a zoom past the windows’ across the west edge reads the synthetic world’s pixels as point grids, the store’s as windows', async () => {
    // At zoom 4 a band holds more of the synthetic world's 0.01° cells than a window read takes:
    // the world's part is read as point grids; the store's, measured on its own 0.3° grid, as
    // windows, as a band inside it is.
    const world = new SyntheticSource({ now: () => T0 });
    const served = new CompositeSource([region, world]);
    const tile = { z: 4, x: 2, y: 5 };
    const { reads, wrong } = await drawn(region, world, tile, mode, variableReader(served, 'air_temperature', T0, mode), 8);
    expect(wrong).toEqual({ count: 0, first: [] });
    const { lons } = pixelCentres(tile);
    const inStore = lons.filter((lon) => lon >= REGION.lons[0]! - 0.15).length;
    expect(inStore).toBeGreaterThan(0);
    expect(reads.store.point).toBe(0);
    expect(reads.store.window).toBeGreaterThan(0);
    expect(reads.store.window).toBeLessThanOrEqual(WINDOWS);
    expect(reads.end.point).toBe(0);
    expect(reads.end.pointGrid).toBeLessThanOrEqual(BANDS);
  });
});
