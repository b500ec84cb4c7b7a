import {
  frameZoomLevels,
  lonLatToTileXY,
  MAX_MERCATOR_LATITUDE,
  nativeZoom,
  pixelCentre,
  tileAndPixelOf,
  tileYToLatitude,
} from '../src/catalog/frame-tiles.js';

// Hand computations from the spherical Mercator of EPSG:3857 (OGC 17-083r2 WebMercatorQuad):
// x = 2^z (lon + 180) / 360, y = 2^z (1 - ln(tan(lat) + sec(lat)) / pi) / 2.
describe('frame tiles (web mercator XYZ)', () => {
  it('puts the north-west corner of the world at tile (0, 0) and the equator at the middle', () => {
    expect(lonLatToTileXY(-180, MAX_MERCATOR_LATITUDE, 3).x).toBeCloseTo(0, 9);
    expect(lonLatToTileXY(-180, MAX_MERCATOR_LATITUDE, 3).y).toBeCloseTo(0, 9);
    expect(lonLatToTileXY(0, 0, 1)).toEqual({ x: 1, y: 1 });
    expect(MAX_MERCATOR_LATITUDE).toBeCloseTo(85.0511287798, 9);
  });

  it('maps 45 degrees north to y = 2^z (1 - ln(tan 45 + sec 45) / pi) / 2', () => {
    // ln(1 + sqrt 2) = 0.881373587; (1 - 0.881373587 / pi) / 2 = 0.359725...
    expect(lonLatToTileXY(90, 45, 0).y).toBeCloseTo(0.35972503691, 9);
    expect(lonLatToTileXY(90, 45, 0).x).toBeCloseTo(0.75, 12);
    expect(tileYToLatitude(0.35972503691, 0)).toBeCloseTo(45, 8);
  });

  it('names the tile and pixel of a point, and the pixel centre maps back into it', () => {
    // lon 90, lat 45 at z 2: x = 3.0 (tile 3, column 0), y = 1.4389... (tile 1, row floor(0.4389 x 256) = 112)
    const at = tileAndPixelOf(90, 45, 2);
    expect(at).toEqual({ tile: { z: 2, x: 3, y: 1 }, pixel: { row: 112, column: 0 } });
    const centre = pixelCentre(2, 3, 1, 112, 0);
    expect(tileAndPixelOf(centre.lon, centre.lat, 2)).toEqual(at);
    // longitude 180 and the poles stay inside the world
    expect(tileAndPixelOf(180, -90, 1)).toEqual({ tile: { z: 1, x: 1, y: 1 }, pixel: { row: 255, column: 255 } });
  });

  it('derives the native zoom from the grid cell: 0.01 degrees is zoom 7', () => {
    expect(nativeZoom(0.01)).toBe(7);
    expect(nativeZoom(0.25)).toBe(2);
    expect(nativeZoom(10)).toBe(0);
    expect(frameZoomLevels(0.01)).toEqual({ minimum: 0, native: 7, maximum: 11 });
  });
});
