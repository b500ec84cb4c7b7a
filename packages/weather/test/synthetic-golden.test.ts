import { createHash } from 'node:crypto';
import { SyntheticSource } from '../src/index.js';
import { cellClimate } from '../src/synthetic/geoclimate.js';

/*
 * The synthetic world's values do not move when its code is made faster (as for the sub-grid reads
 * of docs/decisions/0165-dataset-rows-by-subgrid-reads.md: speed work changes the algorithm, never
 * the numbers). Each digest is SHA-1 of the float32 bytes as the code computed them before such a
 * change; a change that moves any value, down to the sign of a zero, fails here.
 */
const digest = (arrays: Float32Array[]) => {
  const h = createHash('sha1');
  for (const a of arrays) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return h.digest('hex');
};

const lats = Float64Array.from({ length: 90 }, (_, i) => -89.9 + i * 2.0021);
const lons = Float64Array.from({ length: 120 }, (_, i) => -179.9 + i * 3.0013);

it('the climate terms of cells between lattice nodes', () => {
  const c = cellClimate(lats, lons);
  expect(
    digest(
      Object.keys(c)
        .sort()
        .map((k) => c[k as keyof typeof c]),
    ),
  ).toBe('79bd204e4a3884ff4031e02de0a7ba5d4e240bcd');
});

it('a point grid of hourly air temperature, dewpoint and precipitation at one hour', async () => {
  const source = new SyntheticSource();
  const grid = await source.pointGrid(
    ['air_temperature', 'dew_point_temperature', 'precipitation_rate'],
    lats.subarray(20, 60),
    lons.subarray(30, 70),
    Date.UTC(2025, 6, 14, 15),
  );
  expect(digest(grid)).toBe('396aee2dfb210a380dcf26322fc0c50434fd33e1');
});
