import { centresWithin, windowParts } from '../src/index.js';

describe('grid windows', () => {
  it('counts the cell centres a window read selects, bounds included', () => {
    // centres -180 + k 0.25: -1, -0.75, -0.5, -0.25, 0 within [-1, 0]
    expect(centresWithin(-1, 0, -180, 0.25)).toBe(5);
    expect(centresWithin(-0.9, -0.8, -180, 0.25)).toBe(0);
    // a bound a rounding error off a centre still takes it
    expect(centresWithin(-1 + 1e-12, 0 - 1e-12, -180, 0.25)).toBe(5);
  });

  it('grows a bbox by whole cells and reads what lies past the antimeridian from the other end', () => {
    const cell = { dLon: 0.5, dLat: 0.25 };
    expect(windowParts([10, 20, 11, 21], cell, 1)).toEqual([{ bbox: [9.5, 19.75, 11.5, 21.25], shift: 0 }]);
    // a field across 180 in one continuous frame (179.8 .. 180.3)
    expect(windowParts([179.8, -17, 180.3, -16.5], cell, 0.5)).toEqual([
      { bbox: [179.55, -17.125, 180, -16.375], shift: 0 },
      { bbox: [-180, -17.125, 180.55 - 360, -16.375], shift: 360 },
    ]);
    expect(windowParts([-180.4, 0, -179.9, 1], cell, 0)).toEqual([
      { bbox: [-180, 0, -179.9, 1], shift: 0 },
      { bbox: [-180.4 + 360, 0, 180, 1], shift: -360 },
    ]);
    // latitudes stop at the poles
    expect(windowParts([0, 89.9, 1, 90], cell, 2)[0]!.bbox[3]).toBe(90);
  });
});
