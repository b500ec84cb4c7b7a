/**
 * The synthetic world's surface (block.ts `Geography`): Earth's elevation, land share and
 * distance to the coast from `@fieldcast/geography` (a 10 arc-minute grid, docs/data-sources.md),
 * with a small deterministic sub-grid relief on land so a farm-sized field on a 0.01 degree grid
 * still varies a little. The relief is scaled by the land share: none at sea.
 */
import { earthGeography } from '@fieldcast/geography';
import type { CellList } from './cells.js';
import { BlockNoise, noiseField } from './noise.js';

/** Hills and valleys below the geography grid's resolution: ~30 km, ~8 km and ~2 km. */
const FINE_RELIEF = noiseField([
  { spacingDeg: 0.28125, periodHours: 0, amplitude: 1, seed: 0x7e11b1 },
  { spacingDeg: 0.0703125, periodHours: 0, amplitude: 0.6, seed: 0x7e11b2 },
  { spacingDeg: 0.017578125, periodHours: 0, amplitude: 0.35, seed: 0x7e11b3 },
]);

/** Relief amplitude, m: a few tens of metres on plains, more in mountains (rougher ground). */
function reliefAmplitude(elevation: number): number {
  return 25 + 0.06 * elevation;
}

interface Surface {
  /** surface altitude, m */
  altitude: Float32Array;
  /** land share, 0..1 */
  land: Float32Array;
  /** signed distance to the coast, km (positive on land) */
  coastKm: Float32Array;
}

/** The surface at every cell of a block (row-major lats x lons, or the listed cells: block.ts CellList). */
export function earthSurface(lats: ArrayLike<number>, lons: ArrayLike<number>, cells: CellList = null): Surface {
  const geo = earthGeography();
  const n = cells ? cells.row.length : lats.length * lons.length;
  const fine = new BlockNoise(FINE_RELIEF, lats, lons, cells).at(0, new Float32Array(n));
  const altitude = new Float32Array(n),
    land = new Float32Array(n),
    coastKm = new Float32Array(n);
  // One sample written for every cell: a new object per cell was most of a tile's allocations.
  const s = { elevation: 0, landFraction: 0, coastDistanceKm: 0, continentality: 0 };
  const cell = (k: number, r: number, c: number) => {
    geo.sampleInto(lats[r]!, lons[c]!, s);
    const l = s.landFraction > 1 ? 1 : s.landFraction < 0 ? 0 : s.landFraction;
    const z = s.elevation + l * reliefAmplitude(s.elevation) * fine[k]!;
    altitude[k] = z > 0 ? z : 0;
    land[k] = l;
    coastKm[k] = s.coastDistanceKm;
  };
  if (cells) for (let k = 0; k < n; k++) cell(k, cells.row[k]!, cells.col[k]!);
  else for (let r = 0, k = 0; r < lats.length; r++) for (let c = 0; c < lons.length; c++, k++) cell(k, r, c);
  return { altitude, land, coastKm };
}
