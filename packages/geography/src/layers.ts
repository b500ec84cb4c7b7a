// The layers of the committed geography file and how their integers map to values (see
// grid-file.ts for the curves). The derivation script writes them with these definitions
// and the runtime checks them on load, so the two cannot drift apart.
import type { LayerEncoding } from './grid-file.js';

export const LAYERS = {
  /** Mean ground height of the cell in metres; 0 at sea (bathymetry is clipped). */
  elevation: { name: 'elevation', kind: 'int16', curve: 'linear', scale: 1, offset: 0 },
  /** Share of the cell that is land, 0..1 in steps of 1/250. */
  land: { name: 'land', kind: 'uint8', curve: 'linear', scale: 1 / 250, offset: 0 },
  /**
   * Signed great-circle distance to the coast in km, positive on land, negative at sea:
   * sign(s) * (s / 2)^2, so about 1 km steps within 10 km of the coast, 10 km steps at
   * 250 km and a range of +-4,096 km.
   */
  coast: { name: 'coast', kind: 'int8', curve: 'square', scale: 1 / 2, offset: 0 },
  /** Upwind land share, 0 (maritime) .. 1 (continental), in steps of 1/250. */
  continentality: { name: 'continental', kind: 'uint8', curve: 'linear', scale: 1 / 250, offset: 0 },
} as const satisfies Record<string, LayerEncoding>;
