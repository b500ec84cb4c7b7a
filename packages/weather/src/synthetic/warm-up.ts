/**
 * What a service's process or thread prepares of the synthetic world before its first request
 * (docs/decisions/0290-services-warm-up-once-they-listen.md, 0305): the climate's geography and
 * lattice file, reads of hourly temperature as point grids at the pixel centres of bands of a
 * world view's tile (zoom 0), as a tile below the native zoom reads them, and of the daily extremes
 * of a few scattered points over a season, as a batch of places reads them (0306). The engine
 * compiles a function's loops once they have run a while, for the shapes they ran on: a fresh
 * process's first tile ran them interpreted, or compiled for other shapes and dropped (a band of
 * a world tile lies under few rows of a coarse noise lattice, where scattered rows do not), and
 * took two to three times as long as the next
 * (docs/decisions/0355-cold-tiles-drawn-by-compiled-code.md).
 */
import { pixelCentre, TILE_SIZE } from '../catalog/frame-tiles.js';
import { prepareSyntheticClimate } from './geoclimate.js';
import type { SyntheticSource } from './synthetic-source.js';

/** Pixel rows a tile reads together (services/tiles sampling.ts reads its bands alike). */
const BAND_ROWS = 16;
/**
 * The bands of the zoom-0 tile the warm-up reads, a sixteenth of the tile each: polar, middle and
 * equatorial latitudes, enough for the hot loops to be compiled for every branch a first tile takes.
 */
const WARM_BANDS = [1, 5, 8];
/** Sliver reads after the bands (2 x 8 pixels each). */
const SLIVERS = 24;
/** The days of the warm-up's point reads: a growing season in the past. */
const SEASON = { startMs: Date.UTC(2024, 3, 1), endMs: Date.UTC(2024, 9, 17) };

/** Prepares the climate, then reads hourly temperature as point grids and daily extremes at points on `source` (values are not kept). */
export async function warmSyntheticWorld(source: Pick<SyntheticSource, 'pointGrid' | 'dailyExtremesAtPoints'>): Promise<void> {
  prepareSyntheticClimate();
  const lons = Float64Array.from({ length: TILE_SIZE }, (_, column) => pixelCentre(0, 0, 0, 0, column).lon);
  // First a sliver of a band, short enough to run every statement of the reads in the interpreter:
  // a loop compiled while it runs (on-stack replacement) is compiled without what the statements
  // after it have not yet run, and that code was dropped at them in every band after.
  const sliver = (band: number) => Float64Array.from({ length: 2 }, (_, k) => pixelCentre(0, 0, 0, band * BAND_ROWS + k, 0).lat);
  await source.pointGrid(['air_temperature'], sliver(WARM_BANDS[0]!), lons.subarray(0, 8), Date.UTC(2025, 0, 1, 6));
  for (const [i, band] of WARM_BANDS.entries()) {
    const lats = Float64Array.from({ length: BAND_ROWS }, (_, k) => pixelCentre(0, 0, 0, band * BAND_ROWS + k, 0).lat);
    // A past hour, one a day apart per read, inside every source's coverage.
    await source.pointGrid(['air_temperature'], lats, lons, Date.UTC(2025, 0, 1 + i, 12));
    const pointLats = Float64Array.from({ length: 32 }, (_, k) => -60 + 3.9 * k + i);
    await source.dailyExtremesAtPoints(
      Float64Array.from({ length: 32 }, (_, k) => -179 + 11.1 * k),
      pointLats,
      SEASON,
    );
  }
  // Then slivers until the engine has compiled the reads' functions whole, not only their loops
  // mid-run: compiled during a first tile instead, they took about as much CPU on its threads as a
  // tenth of the tile.
  for (let i = 0; i < SLIVERS; i++)
    await source.pointGrid(['air_temperature'], sliver(WARM_BANDS[i % WARM_BANDS.length]!), lons.subarray(0, 8), Date.UTC(2025, 0, 4, i));
}
