import { lonLatToTileXY, pixelCentre, SyntheticSource, TILE_SIZE } from '@fieldcast/weather';
import { evapotranspirationReader } from '../src/domain/evapotranspiration.js';
import { type SampleMode, sampleTile, type TileReader, variableReader } from '../src/domain/sampling.js';

/**
 * Below the native zoom a band of pixels is read as one point grid of the synthetic world
 * (sampling.ts, SubgridReads.pointGrid): every pixel must be the value its own point read gives,
 * so tiles look as they did when each pixel was read alone.
 */
const NOW = Date.UTC(2025, 6, 1);
const HOUR = Date.UTC(2025, 5, 14, 15);
const DAY = Date.UTC(2025, 5, 14);
const synthetic = new SyntheticSource({ now: () => NOW });

/** Rows of a tile's pixel centres (every 16th row, as a band reads them) and every column, clamped as the sampler clamps them. */
function band(z: number, x: number, y: number): { lats: Float64Array; lons: Float64Array } {
  const lats = Float64Array.from({ length: TILE_SIZE / 16 }, (_, k) => pixelCentre(z, x, y, 16 * k + 3, 0).lat);
  const lons = Float64Array.from({ length: TILE_SIZE }, (_, c) => Math.max(-180, Math.min(180, pixelCentre(z, x, y, 0, c).lon)));
  return { lats, lons };
}

async function expectPointsAsEachPoint(reader: TileReader, lats: Float64Array, lons: Float64Array): Promise<void> {
  const values = await reader.points(lats, lons);
  expect(values).not.toBeNull();
  const each = new Float32Array(lats.length * lons.length);
  for (let r = 0; r < lats.length; r++)
    for (let c = 0; c < lons.length; c++) each[r * lons.length + c] = await reader.point(lons[c]!, lats[r]!);
  expect(Array.from(values!)).toEqual(Array.from(each));
}

describe('tiles below the native zoom read as point grids', () => {
  it.each([
    ['air_temperature', 'linear', 0, 0, 0, HOUR],
    ['dew_point_temperature', 'linear', 2, 1, 1, HOUR],
    ['precipitation_type', 'discrete', 2, 3, 1, HOUR],
    ['air_temperature_daily_max', 'linear', 1, 0, 0, DAY],
    ['surface_altitude', 'discrete', 0, 0, 0, DAY],
  ] as const)('%s (%s) in tile %i/%i/%i: every pixel is its point read', async (variable, mode, z, x, y, timeMs) => {
    const { lats, lons } = band(z, x, y);
    await expectPointsAsEachPoint(variableReader(synthetic, variable, timeMs, mode as SampleMode), lats, lons);
  });

  it('evapotranspiration: every pixel is its point read of the five inputs and the ground', async () => {
    const { lats, lons } = band(1, 1, 0);
    await expectPointsAsEachPoint(evapotranspirationReader(synthetic, HOUR, 'linear'), lats, lons);
  });

  it('a whole zoom-0 tile is read in point grids, never pixel by pixel', async () => {
    const reads = { points: 0, grids: 0 };
    const counting = Object.assign(Object.create(synthetic) as SyntheticSource, {
      pointSeries: (...args: Parameters<SyntheticSource['pointSeries']>) => (reads.points++, synthetic.pointSeries(...args)),
      pointGrid: (...args: Parameters<SyntheticSource['pointGrid']>) => (reads.grids++, synthetic.pointGrid(...args)),
    });
    const values = await sampleTile(counting, 'air_temperature', HOUR, { z: 0, x: 0, y: 0 }, 'linear');
    expect(reads).toEqual({ points: 0, grids: TILE_SIZE / 16 });
    const { lon, lat } = pixelCentre(0, 0, 0, 100, 37);
    expect(values[100 * TILE_SIZE + 37]).toBe(
      (await synthetic.pointSeries('air_temperature', lon, lat, { startMs: HOUR, endMs: HOUR })).values[0],
    );
  });

  it('at zooms once read by windows (5 and 6), the point grid gives the window’s bilinear values to float precision', async () => {
    const byWindows = Object.assign(Object.create(synthetic) as SyntheticSource, { subgrid: undefined });
    for (const z of [5, 6]) {
      const { x, y } = lonLatToTileXY(-93.6, 42.0, z);
      const tile = { z, x: Math.floor(x), y: Math.floor(y) };
      const grid = await sampleTile(synthetic, 'air_temperature', HOUR, tile, 'linear');
      const windows = await sampleTile(byWindows, 'air_temperature', HOUR, tile, 'linear');
      let worst = 0;
      for (let i = 0; i < grid.length; i++) worst = Math.max(worst, Math.abs(grid[i]! - windows[i]!));
      expect(worst).toBeLessThan(1e-4);
    }
  });
});
