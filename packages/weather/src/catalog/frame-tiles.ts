/**
 * How a frame is cut into map tiles: web mercator (EPSG:3857) XYZ tiles of 256 x 256 pixels, the
 * tiling of the public record's frames (`tileSize` 256, `zoomLevels {minimum, native, maximum}`).
 * Shared by the platform area (a frame's zoom levels, the tile and pixel of a datapoint) and the
 * tiles area (rendering), so both agree on every tile and pixel.
 *
 * Formulas: the spherical ("pseudo") Mercator of EPSG:3857 on the XYZ scheme, tile (0, 0) at
 * the north-west corner (OGC 17-083r2 "WebMercatorQuad"): with n = 2^z,
 * x = n (lon + 180) / 360 and y = n (1 - ln(tan(lat) + sec(lat)) / pi) / 2.
 */

/** Pixels along each side of a tile (public record: `tileSize` 256). */
export const TILE_SIZE = 256;

/** Northernmost latitude of the square web mercator world, degrees: atan(sinh(pi)). */
export const MAX_MERCATOR_LATITUDE = (Math.atan(Math.sinh(Math.PI)) * 180) / Math.PI;

/** A frame's zoom levels (public record frame record `zoomLevels`). */
export interface ZoomLevels {
  minimum: number;
  native: number;
  maximum: number;
}

/** Zoom levels beyond the native one a frame is still served at (each doubles the pixels per cell). */
const ZOOM_BEYOND_NATIVE = 4;

/**
 * The zoom at which one tile pixel at the equator is closest to one grid cell of `cellDegrees`
 * (the native zoom: 360 / (256 x 2^z) degrees per pixel), never below 0. For the synthetic
 * world's 0.01 degree grid this is 7 (0.0137 degrees per pixel).
 */
export function nativeZoom(cellDegrees: number): number {
  if (!(cellDegrees > 0) || !Number.isFinite(cellDegrees)) return 0;
  return Math.max(0, Math.round(Math.log2(360 / (TILE_SIZE * cellDegrees))));
}

/** The zoom levels a frame on a grid of `cellDegrees` is tiled at: from the whole world (0) to 4 past native. */
export function frameZoomLevels(cellDegrees: number): ZoomLevels {
  const native = nativeZoom(cellDegrees);
  return { minimum: 0, native, maximum: native + ZOOM_BEYOND_NATIVE };
}

/** Longitude of a tile x coordinate (pixel edges are integers, pixel centres halves) at zoom z. */
export function tileXToLongitude(x: number, z: number): number {
  return (x / 2 ** z) * 360 - 180;
}

/** Latitude of a tile y coordinate at zoom z (inverse spherical Mercator). */
export function tileYToLatitude(y: number, z: number): number {
  const mercatorY = Math.PI * (1 - (2 * y) / 2 ** z);
  return (Math.atan(Math.sinh(mercatorY)) * 180) / Math.PI;
}

/** The fractional tile coordinates of a point at zoom z; latitude is clamped to the mercator square. */
export function lonLatToTileXY(lon: number, lat: number, z: number): { x: number; y: number } {
  const n = 2 ** z;
  const clamped = Math.max(-MAX_MERCATOR_LATITUDE, Math.min(MAX_MERCATOR_LATITUDE, lat));
  const phi = (clamped * Math.PI) / 180;
  return {
    x: (n * (lon + 180)) / 360,
    y: (n * (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI)) / 2,
  };
}

/**
 * The tile holding a point at zoom z and the pixel within it (row from the top, column from the
 * left), as a datapoint names them. Longitude 180 falls in the last column, latitude beyond the
 * mercator square in the first or last row.
 */
export function tileAndPixelOf(
  lon: number,
  lat: number,
  z: number,
): { tile: { z: number; x: number; y: number }; pixel: { row: number; column: number } } {
  const n = 2 ** z;
  const { x, y } = lonLatToTileXY(lon, lat, z);
  const px = Math.min(n * TILE_SIZE - 1, Math.max(0, Math.floor(x * TILE_SIZE)));
  const py = Math.min(n * TILE_SIZE - 1, Math.max(0, Math.floor(y * TILE_SIZE)));
  return {
    tile: { z, x: Math.floor(px / TILE_SIZE), y: Math.floor(py / TILE_SIZE) },
    pixel: { row: py % TILE_SIZE, column: px % TILE_SIZE },
  };
}

/** Longitude and latitude of the centre of pixel (row, column) of tile (z, x, y). */
export function pixelCentre(z: number, x: number, y: number, row: number, column: number): { lon: number; lat: number } {
  return {
    lon: tileXToLongitude(x + (column + 0.5) / TILE_SIZE, z),
    lat: tileYToLatitude(y + (row + 0.5) / TILE_SIZE, z),
  };
}
