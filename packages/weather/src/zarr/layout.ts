/**
 * How Fieldcast lays out a gridded store (docs/decisions.md, "Weather: Zarr stores and
 * ingest"). Zarr v2 (spec: zarr-specs v2, "Metadata") with xarray's conventions: each
 * array's dimension names in the `_ARRAY_DIMENSIONS` attribute, CF attributes beside them,
 * coordinate arrays `time`, `lat`, `lon`, consolidated metadata in `.zmetadata`.
 */

export const LAT = 'lat';
export const LON = 'lon';
/** The first time axis; further ones (a store holding daily and hourly data) are `time_<n>`. */
export const TIME = 'time';
/** xarray's attribute for dimension names in Zarr v2 (xarray docs, "Zarr encoding specification"). */
export const ARRAY_DIMENSIONS = '_ARRAY_DIMENSIONS';
/**
 * Step of a time axis in milliseconds, written on the time coordinate only when the axis has a
 * single value (the step cannot be inferred from the values then).
 */
export const STEP_ATTR = 'step_ms';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** Cells per chunk side in latitude and longitude. See decisions.md for the bench behind it. */
export const SPATIAL_CHUNK = 8;

/**
 * Chunk shape for a [time, lat, lon] variable: long in time (ten years of days, one year of
 * hours) and small in space, so a point series is one chunk per variable (or up to four
 * when its bilinear stencil straddles a chunk border).
 */
export function defaultChunks(nt: number, stepMs: number, nLat: number, nLon: number): number[] {
  const timeChunk = stepMs >= DAY_MS ? 3650 : 8760;
  return [Math.max(1, Math.min(nt, timeChunk)), Math.min(nLat, SPATIAL_CHUNK), Math.min(nLon, SPATIAL_CHUNK)];
}

/** Chunk shape for a static [lat, lon] field. */
export function staticChunks(nLat: number, nLon: number): number[] {
  return [Math.min(nLat, 128), Math.min(nLon, 128)];
}
