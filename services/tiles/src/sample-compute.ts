import { type AreaWorker, computePool, workerModule } from '@fieldcast/runtime/workers';
import { type GridSource, type ServedStores, storesOf, syntheticWorldForThreads } from '@fieldcast/weather';
import { type LayerSampler, sampleLayer, type SampledLayer } from './domain/layers.js';
import type { SampleMode, TileAddress } from './domain/sampling.js';
import { AREA } from './store.js';
/** Its thread module, `src/sample-worker.ts`, declared in the service definition's `workers`. */
export const SAMPLE_WORKER: AreaWorker = { area: AREA, name: 'sample-worker' };

/** One tile's sampling as sent to a compute thread (structured-cloneable). */
export interface SampleTask {
  /** the stores the process serves, which the thread opens */
  stores: ServedStores;
  layer: SampledLayer;
  timeMs: number;
  tile: TileAddress;
  mode: SampleMode;
}

export interface TileSampler extends LayerSampler {
  /** starts the threads before the first cold tile (the service's warm-up) */
  prestart(): void;
  close(): Promise<void>;
}

/**
 * Cold tiles of low zooms off the event loop (docs/decisions/0051-heavy-work-in-worker-threads.md,
 * docs/decisions/0132-tile-rendering.md): below the native zoom a tile's pixels each span several
 * grid cells, and at the lowest zooms a sub-grid of up to 512 x 512 grid points is read (hundreds
 * of milliseconds of the synthetic world), which would stall every other request of the process.
 * Zooms from `threadedBelowZoom` up read a few small windows and stay inline. The threads start
 * with the service (`prestart`) or on the first such tile. With `threads` 0, or a source no thread
 * can open, all is inline.
 */
export function tileSampler(source: GridSource, threads: number, threadedBelowZoom: number): TileSampler {
  // The stores served at each tile: a newly synced run is among them (docs/decisions/0251-synced-stores-registry.md).
  const storesNow = () => (threads > 0 ? storesOf(source) : undefined);
  const pool = computePool<SampleTask, Float32Array>(workerModule(import.meta.url, SAMPLE_WORKER), threads, syntheticWorldForThreads);
  return {
    async sample(layer, timeMs, tile, mode) {
      const stores = tile.z >= threadedBelowZoom ? undefined : storesNow();
      if (!stores) return sampleLayer(source, layer, timeMs, tile, mode);
      return pool.run({ stores, layer, timeMs, tile, mode });
    },
    prestart: () => {
      if (storesNow()) pool.prestart();
    },
    close: pool.close,
  };
}
