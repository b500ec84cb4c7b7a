/**
 * What the tiles area prepares of drawing before its first request (docs/decisions/0290-services-warm-up-once-they-listen.md,
 * docs/decisions/0355-cold-tiles-drawn-by-compiled-code.md): practice tiles painted and encoded
 * as a tile is, then dropped. The engine compiles a function's loops once they have run a while;
 * a process's first tile painted and filtered its 65,536 pixels in the interpreter, about a
 * tenth of a second more than the next tile.
 */
import type { Style } from '@fieldcast/schemas';
import { TILE_SIZE } from '@fieldcast/weather';
import { paint, painterOf } from './colorize.js';
import { encodePng } from './png.js';
import type { SampleMode } from './sampling.js';

/** Practice tiles per colorizer mode: enough for painting and filtering to run compiled. */
const PRACTICE_TILES = 3;

/**
 * Paints and encodes PRACTICE_TILES tiles with one of `styles` per colorizer mode among them, its
 * values sweeping past both ends of its stops so every branch of the painting runs; returns the
 * modes practised. Nothing is kept.
 */
export async function warmTileDrawing(styles: Iterable<Style>): Promise<SampleMode[]> {
  const byMode = new Map<SampleMode, Style>();
  for (const style of styles) {
    const colorizer = style.colorizers[0];
    if (colorizer && !colorizer.mask && colorizer.stops.length > 0 && !byMode.has(colorizer.defaultMode))
      byMode.set(colorizer.defaultMode, style);
  }
  const pixels = TILE_SIZE * TILE_SIZE;
  for (const style of byMode.values()) {
    const painters = style.colorizers.map((c) => painterOf(c, () => undefined));
    const stops = style.colorizers[0]!.stops.map((s) => s.value);
    const low = Math.min(...stops),
      span = Math.max(...stops) - low || 1;
    for (let k = 0; k < PRACTICE_TILES; k++) {
      // Columns sweep the stops from below the first to above the last; rows move the sweep a little.
      const values = Float32Array.from({ length: pixels }, (_, i) => {
        const x = (i % TILE_SIZE) / TILE_SIZE,
          y = Math.floor(i / TILE_SIZE) / TILE_SIZE;
        return low + span * (1.2 * x - 0.1 + 0.05 * Math.sin(6 * y + k));
      });
      await encodePng(
        paint(painters, pixels, () => values, null),
        TILE_SIZE,
        TILE_SIZE,
      );
    }
  }
  return [...byMode.keys()];
}
