/**
 * Daily temperature extremes of the 2 x 2 grid points around a point read, kept by time chunk
 * (point-chunk-cache.ts): the degree days of a location over a year (docs/architecture.md §6)
 * read the same days again and again.
 */
import type { DailyExtremes } from '../grid/grid-source.js';
import { PointChunkCache } from './point-chunk-cache.js';

/** Days per chunk: a year's request touches six or seven. */
export const CHUNK_DAYS = 64;

export class PointExtremesCache extends PointChunkCache<keyof DailyExtremes<unknown>> {
  /** capacity: most chunks kept (each 2 KB) */
  constructor(capacity: number) {
    super(['tmax', 'tmin'], CHUNK_DAYS, capacity);
  }
}
