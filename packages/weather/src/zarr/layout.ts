/**
 * How Fieldcast lays out a gridded store (docs/decisions/0014-zarr-v2-point-series-layout.md).
 * Zarr v2 (spec: zarr-specs v2, "Metadata") with xarray's conventions: each
 * array's dimension names in the `_ARRAY_DIMENSIONS` attribute, CF attributes beside them,
 * coordinate arrays `time`, `lat`, `lon`, consolidated metadata in `.zmetadata`.
 */

export const LAT = 'lat';
export const LON = 'lon';
/** xarray's attribute for dimension names in Zarr v2 (xarray docs, "Zarr encoding specification"). */
export const ARRAY_DIMENSIONS = '_ARRAY_DIMENSIONS';
/**
 * Step of a time axis in milliseconds, written on the time coordinate only when the axis has a
 * single value (the step cannot be inferred from the values then).
 */
export const STEP_ATTR = 'step_ms';

export const DAY_MS = 86_400_000;

/** Cells per chunk side in latitude and longitude (docs/decisions/0014-zarr-v2-point-series-layout.md). */
export const SPATIAL_CHUNK = 8;

/**
 * Memory order of the elements inside a [time, lat, lon] chunk (Zarr v2 `.zarray` "order").
 * "F" (Fortran, first index fastest) stores each cell's time series as one contiguous run of
 * bytes, so an uncompressed chunk serves a point series with one ranged read per neighbour
 * instead of decoding the whole chunk. zarr-python, xarray, zarrita and GDAL all read "F".
 */
export const TIME_SERIES_ORDER = 'F';

/**
 * Chunk shape for a [time, lat, lon] variable: long in time (ten years of days, one year of
 * hours) and small in space, so a point series is one chunk per variable (or up to four
 * when its bilinear stencil straddles a chunk border).
 */
export function defaultChunks(nt: number, stepMs: number, nLat: number, nLon: number): number[] {
  const target = stepMs >= DAY_MS ? 3650 : 8760;
  // Ten years of days are 3650 to 3653 days and a year of hours 8760 or 8784: an axis up to 1 %
  // longer than the target is one chunk, not a full chunk plus a sliver of leap days (which an
  // uncompressed store would pad to a whole chunk, and a point read would pay a second read for).
  const timeChunk = nt <= target * 1.01 ? nt : target;
  return [Math.max(1, timeChunk), Math.min(nLat, SPATIAL_CHUNK), Math.min(nLon, SPATIAL_CHUNK)];
}

/** Chunk shape for a static [lat, lon] field. */
export function staticChunks(nLat: number, nLon: number): number[] {
  return [Math.min(nLat, 128), Math.min(nLon, 128)];
}

/**
 * A frame-oriented copy of a [time, lat, lon] array (docs/decisions/0505-frame-copies-of-synced-runs.md):
 * the same float32 values, one time step a chunk, in C order, so a map of one step reads the
 * cells it shows and not every step of them. Its `.zattrs` name the array it copies in
 * FRAMES_OF; readers take it as a faster way to that array, never as a variable of its own.
 */
export const FRAMES_OF = 'frames_of';

/** The name of the frame copy of array `name`. */
export const framesName = (name: string) => `${name}_frames`;

/**
 * Rows and columns of a frame chunk: 64 x 512 float32 (128 KiB), so a whole 0.25 degree globe is
 * 36 chunk files and a band of the point-series layout (8 rows) is one contiguous range in each.
 */
const FRAME_ROWS = 64;
const FRAME_COLUMNS = 512;

/** Chunk shape of the frame copy of a [time, lat, lon] array on nLat x nLon. */
export function frameChunks(nLat: number, nLon: number): [number, number, number] {
  return [1, Math.min(nLat, FRAME_ROWS), Math.min(nLon, FRAME_COLUMNS)];
}
