import { pixelCentre } from '@fieldcast/weather';
import { NO_DATA } from '../src/domain/colorize.js';
import { tileCache } from '../src/domain/sample-cache.js';
import { sampleTile } from '../src/domain/sampling.js';
import { FunctionSource } from './function-source.js';

const T = Date.UTC(2024, 5, 1, 12);

describe('sampling a tile', () => {
  // On a 0.01 degree grid a band of zoom-2 pixels spans 9,000 columns: read point by point. At
  // zoom 9 the band's window is small: one window read per band. Both give the same values.
  it.each([
    [2, 1, 1, 'point'],
    [9, 300, 200, 'window'],
  ] as const)('at zoom %i (tile x %i, y %i) reads by %s and samples lon/4 bilinearly at each pixel centre', async (z, x, y, how) => {
    const source = new FunctionSource({ air_temperature: (lon) => lon / 4 }, 0.01);
    const values = await sampleTile(source, 'air_temperature', T, { z, x, y }, 'linear');
    expect(how === 'point' ? source.calls.point : source.calls.window).toBeGreaterThan(0);
    expect(how === 'point' ? source.calls.window : source.calls.point).toBe(0);
    for (const [row, column] of [
      [0, 0],
      [17, 201],
      [255, 255],
    ] as const) {
      const { lon } = pixelCentre(z, x, y, row, column);
      expect(values[row * 256 + column]).toBeCloseTo(lon / 4, 4);
    }
  });

  it('takes the nearest grid point for discrete sampling', async () => {
    const source = new FunctionSource({ air_temperature: (lon, lat) => lon * 1000 + lat }, 1);
    const values = await sampleTile(source, 'air_temperature', T, { z: 3, x: 5, y: 2 }, 'discrete');
    const { lon, lat } = pixelCentre(3, 5, 2, 100, 40);
    expect(values[100 * 256 + 40]).toBe(Math.fround(Math.round(lon) * 1000 + Math.round(lat)));
  });

  // A global grid goes round in longitude: east of its last column (179.5 here) a pixel lies between
  // that column and the first (-180 = 180), as the source's point reads (and the platform's datapoints) take it.
  it.each(['linear', 'discrete'] as const)(
    'samples across the antimeridian on a global grid (%s), where a window read ends',
    async (mode) => {
      const source = new FunctionSource({ air_temperature: (lon) => lon / 4 }, 0.5);
      const [z, x, y] = [5, 31, 10];
      const values = await sampleTile(source, 'air_temperature', T, { z, x, y }, mode);
      expect(source.calls.window).toBeGreaterThan(0);
      for (let column = 240; column < 256; column++) {
        const { lon, lat } = pixelCentre(z, x, y, 128, column);
        // linear: bilinear between 179.5 (44.875) and -180 (-45); discrete: the nearest of the two
        const read = mode === 'linear' ? lon : lon > 179.75 ? -180 : 179.5;
        const expected = (await source.pointSeries('air_temperature', read, lat, { startMs: T, endMs: T })).values[0]!;
        expect(values[128 * 256 + column]).toBeCloseTo(expected, 4);
      }
    },
  );

  it('marks pixels outside the source’s grid as no data', async () => {
    const source = new FunctionSource({ air_temperature: () => 1 }, 1);
    // A source whose grid stops at 80 N: the top rows of the northernmost tile have no grid point.
    Object.assign(source.grid, { nLat: 171 });
    const values = await sampleTile(source, 'air_temperature', T, { z: 2, x: 1, y: 0 }, 'discrete');
    expect(values[0]).toBe(Math.fround(NO_DATA));
    expect(values[255 * 256]).toBe(1);
  });
});

describe('sample cache', () => {
  it('shares one read between concurrent requests and drops the least recently used past its bytes', async () => {
    const cache = tileCache<Float32Array>(2 * 4 * 10);
    let reads = 0;
    const read = async () => {
      reads++;
      return new Float32Array(10);
    };
    await Promise.all([cache.get('a', read), cache.get('a', read)]);
    expect(reads).toBe(1);
    await cache.get('b', read);
    await cache.get('a', read);
    await cache.get('c', read);
    expect(cache.size).toBe(2);
    expect(cache.heldWeight).toBe(80);
    await cache.get('a', read);
    expect(reads).toBe(3);
    await cache.get('b', read);
    expect(reads).toBe(4);
  });
});
