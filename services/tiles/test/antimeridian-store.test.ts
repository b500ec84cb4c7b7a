import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompositeSource, ingestFile, NoSyntheticSource, pixelCentre, TILE_SIZE, ZarrSource } from '@fieldcast/weather';
import { writeCdf1 } from '../../../packages/weather/test/ingest-fixtures.js';
import { NO_DATA } from '../src/domain/colorize.js';
import { sampleTile } from '../src/domain/sampling.js';

/*
 * An ingested NetCDF over the Pacific, its longitudes 150 to 230 (1°, on the
 * lattice of the end of the chain's grid, whose points a discrete band's window is bounded by): across the antimeridian,
 * so ingest keeps them in 0..360 (normalise-grid.ts) and the store's windows come in them. A tile
 * west of the antimeridian (-180..-157.5) is drawn with what the store's point reads give there
 * (they move a longitude a whole turn into the grid's, lonInGrid), not left empty.
 */
const T0 = Date.UTC(2024, 5, 1);
const LATS = Array.from({ length: 31 }, (_, i) => i);
const LONS = Array.from({ length: 81 }, (_, j) => 150 + j);
/** °C at a grid point, in the file's own longitudes. */
const celsius = (lat: number, lon: number) => 10 + lat / 4 + (lon - 150) / 8;

let dir: string;
let store: ZarrSource;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fieldcast-antimeridian-'));
  const file = join(dir, 'pacific.nc');
  const data = [0, 1].flatMap(() => LATS.flatMap((lat) => LONS.map((lon) => celsius(lat, lon))));
  await writeCdf1(file, {
    dims: [
      { name: 'time', size: 2 },
      { name: 'lat', size: LATS.length },
      { name: 'lon', size: LONS.length },
    ],
    attrs: { Conventions: 'CF-1.8' },
    vars: [
      {
        name: 'time',
        dims: ['time'],
        type: 'double',
        attrs: { units: 'hours since 2024-06-01 00:00:00', standard_name: 'time' },
        data: [0, 1],
      },
      { name: 'lat', dims: ['lat'], type: 'float', attrs: { units: 'degrees_north', standard_name: 'latitude' }, data: LATS },
      { name: 'lon', dims: ['lon'], type: 'float', attrs: { units: 'degrees_east', standard_name: 'longitude' }, data: LONS },
      { name: 'tas', dims: ['time', 'lat', 'lon'], type: 'float', attrs: { units: 'degC', standard_name: 'air_temperature' }, data },
    ],
  });
  const { storePath } = await ingestFile(file, { outDir: join(dir, 'out') });
  store = await ZarrSource.open(storePath);
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('keeps a grid across the antimeridian in 0..360', () => {
  expect(store.grid).toMatchObject({ lon0: 150, dLon: 1, nLon: 81 });
});

it.each(['linear', 'discrete'] as const)('draws (%s) a tile west of the antimeridian from a store kept in 0..360', async (mode) => {
  // Served as a fleet serves it: the store in front of the end of the chain, whose global grid the tiles sample.
  const served = new CompositeSource([store, new NoSyntheticSource()]);
  const [z, x, y] = [4, 0, 7];
  const values = await sampleTile(served, 'air_temperature', T0, { z, x, y }, mode);
  const wrong: unknown[] = [];
  for (const [row, column] of [
    [0, 0],
    [100, 37],
    [255, 255],
  ] as const) {
    const { lon, lat } = pixelCentre(z, x, y, row, column);
    // linear: the point read at the pixel centre; discrete: at its nearest grid point.
    const [readLon, readLat] = mode === 'linear' ? [lon, lat] : [Math.round(lon), Math.round(lat)];
    const expected = (await store.pointSeries('air_temperature', readLon, readLat, { startMs: T0, endMs: T0 })).values[0]!;
    const got = values[row * TILE_SIZE + column]!;
    if (got === NO_DATA || Math.abs(got - expected) > 1e-3) wrong.push({ row, column, lon, lat, got, expected });
  }
  expect(wrong).toEqual([]);
  expect(values.filter((v) => v === NO_DATA).length).toBe(0);
});
