import { LoadingCache } from '@fieldcast/caches';

/**
 * The explicit, bounded caches of the tiles area (docs/architecture.md §6,
 * docs/decisions/0036-caches.md, docs/decisions/0133-tile-caches.md): entries keyed by everything
 * that decides them, least recently used first out once the entries' bytes pass the bound. An
 * entry is a function of its key, so every request would compute the same one. Concurrent
 * requests for one key share a single computation.
 */
export function tileCache<T extends { byteLength: number }>(maxBytes: number): LoadingCache<T> {
  return new LoadingCache<T>(maxBytes, (entry) => entry.byteLength);
}

/** A tile's sampled values of one variable at one instant, keyed by source, variable, instant, tile and sampling mode. */
export type SampleCache = LoadingCache<Float32Array>;

/** Encoded tiles, keyed by their strong ETag (frame, run, style content, tile, renderer). */
export type PngCache = LoadingCache<Buffer>;
