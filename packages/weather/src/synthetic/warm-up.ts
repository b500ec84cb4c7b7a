/**
 * What a service's process or thread prepares of the synthetic world before its first request
 * (docs/decisions/0290-services-warm-up-once-they-listen.md, 0305): the climate's geography and
 * lattice file, a few reads of a small block at one hour, the shape a tile's band reads below the
 * native zoom, and of the daily extremes of a few scattered points over a season, as a batch of
 * places reads them (0306). The engine compiles a function's loops once they have run a while; a fresh
 * process's first tile ran them interpreted and took two to three times as long as the next.
 */
import { prepareSyntheticClimate } from './geoclimate.js';
import type { SyntheticSource } from './synthetic-source.js';

/**
 * Reads of the warm-up, each the shape of a band of a world view's tile (16 pixel rows by 256
 * columns over the globe: 32 x 512 grid points), a sixteenth of a tile: enough for the hot loops
 * to be compiled for the reads a first tile makes. Smaller reads (16 by 128) left a fresh
 * process's first zoom-0 tile at about twice the time of its second (docs/decisions/0355-cold-tiles-drawn-by-compiled-code.md).
 */
const WARM_READS = 3;
/** The days of the warm-up's point reads: a growing season in the past. */
const SEASON = { startMs: Date.UTC(2024, 3, 1), endMs: Date.UTC(2024, 9, 17) };

/** Prepares the climate, then reads hourly temperature as point grids and daily extremes at points on `source` (values are not kept). */
export async function warmSyntheticWorld(source: Pick<SyntheticSource, 'pointGrid' | 'dailyExtremesAtPoints'>): Promise<void> {
  prepareSyntheticClimate();
  const lats = Float64Array.from({ length: 16 }, (_, k) => -84 + 11.2 * k);
  const lons = Float64Array.from({ length: 256 }, (_, k) => -179 + 1.4 * k);
  for (let i = 0; i < WARM_READS; i++) {
    // A past hour, one a day apart per read, inside every source's coverage.
    await source.pointGrid(['air_temperature'], lats, lons, Date.UTC(2025, 0, 1 + i, 12));
    const pointLats = Float64Array.from({ length: 32 }, (_, k) => -60 + 3.9 * k + i);
    await source.dailyExtremesAtPoints(
      Float64Array.from({ length: 32 }, (_, k) => -179 + 11.1 * k),
      pointLats,
      SEASON,
    );
  }
}
