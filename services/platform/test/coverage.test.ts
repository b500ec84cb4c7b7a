import { polygonsBBox, type PolygonCoordinates } from '@fieldcast/geo';
import { coverageContains, type CoverageShape } from '../src/domain/products.js';

/*
 * Spec 4.6 coverage with a line: the catalog's coverages are rectangles, so a concave one is made
 * here. A U, open to the north: x 0..3, y 0..3, less the notch x 1..2, y 1..3.
 */
const U: PolygonCoordinates = [
  [
    [0, 0],
    [3, 0],
    [3, 3],
    [2, 3],
    [2, 1],
    [1, 1],
    [1, 3],
    [0, 3],
    [0, 0],
  ],
];
const shape: CoverageShape = { polygons: [U], bbox: polygonsBBox([U]), rectangles: [] };
const line = (...positions: [number, number][]) => coverageContains(shape, { points: [], lines: [positions], polygons: [] });

describe('a line in a concave coverage', () => {
  it('is inside along one arm, or around the notch', () => {
    expect(line([0.5, 0.5], [0.5, 2.5])).toBe(true);
    expect(line([0.5, 2.5], [0.5, 0.5], [2.5, 0.5], [2.5, 2.5])).toBe(true);
  });

  it('is outside where a segment between two inside positions crosses the notch', () => {
    expect(line([0.5, 2.5], [2.5, 2.5])).toBe(false);
  });

  it('is inside along the boundary, the notch’s edges and corners included', () => {
    expect(line([1, 3], [1, 1], [2, 1], [2, 3])).toBe(true);
    expect(line([0, 0], [3, 0], [3, 3])).toBe(true);
  });

  it('is outside where it leaves through a corner of the notch', () => {
    // from inside the left arm through the notch's corner (1, 1) into the notch
    expect(line([0.5, 0.5], [1.5, 1.5])).toBe(false);
  });

  it('is outside when any position is', () => {
    expect(line([0.5, 0.5], [4, 0.5])).toBe(false);
  });
});
