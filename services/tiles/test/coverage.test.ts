import { createCatalog, type ProductDef } from '@fieldcast/weather';
import { coverageMask } from '../src/domain/coverage.js';

/*
 * Which pixels of a tile lie in a product's coverage (spec 2.4). Tile z = 1, x = 0, y = 0 spans
 * lon -180..0 and lat 0..85.05; pixel column c has its centre at lon -180 + (c + 0.5) x 0.703125.
 */
const global = createCatalog().product('air-temperature')!;
const withCoverage = (coordinates: [number, number][][][]): ProductDef => ({
  ...global,
  coverage: { type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates } },
});
const at = (mask: Uint8Array, row: number, column: number) => mask[row * 256 + column];

describe('coverageMask', () => {
  it('is null (every pixel inside) for the whole globe', () => {
    expect(coverageMask(global, { z: 1, x: 0, y: 0 })).toBeNull();
    expect(coverageMask(global, { z: 5, x: 31, y: 31 })).toBeNull();
  });

  it('is all zero for a tile off the coverage’s bounding box', () => {
    const mask = coverageMask(createCatalog().product('precipitation-rate-north-america')!, { z: 1, x: 1, y: 1 });
    expect(mask?.every((v) => v === 0)).toBe(true);
  });

  it('tests each pixel centre against a polygon that is no rectangle (a triangle west of -90, south of its diagonal)', () => {
    const triangle = withCoverage([
      [
        [
          [-180, 0],
          [-90, 0],
          [-180, 80],
          [-180, 0],
        ],
      ],
    ]);
    const mask = coverageMask(triangle, { z: 1, x: 0, y: 0 })!;
    // Row 255 lies just north of the equator: columns 0..126 (lon < -90) inside, 130 outside.
    expect(at(mask, 255, 10)).toBe(1);
    expect(at(mask, 255, 126)).toBe(1);
    expect(at(mask, 255, 130)).toBe(0);
    // Column 10 (lon -172.6) is inside up to lat 80 x (1 - 7.4 / 90) = 73.4: row 20 (about 83 N) outside.
    expect(at(mask, 20, 10)).toBe(0);
    expect(at(mask, 128, 10)).toBe(1);
  });
});
