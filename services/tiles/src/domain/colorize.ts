/**
 * Painting sampled values with a style's colorizers (spec 2.3; docs/decisions/0132-tile-rendering.md).
 *
 * - Colorizers apply in order; the first whose mask matches the pixel paints it. A colorizer
 *   without a mask matches every pixel that has data; one with a mask matches where the mask
 *   layer's value is one of its attributes' values.
 * - `linear`: the RGBA of the two enclosing stops interpolated by the value's position between
 *   them; a value below the first or above the last stop takes `defaultColor`.
 * - `discrete`: the colour of the highest stop at or below the value (the classes are open
 *   above); a value below the first stop takes `defaultColor`.
 * - A missing value (NaN) under a matching colorizer takes its `defaultColor`.
 * - Where no colorizer matches, or there is no data at all (outside the source's grid or the
 *   product's coverage), the pixel stays transparent.
 */
import { parseColor, type Rgba } from './colors.js';

export interface PaintStop {
  value: number;
  color: Rgba;
}

/** A colorizer ready to paint: colours as bytes and the mask as the layer values it selects. */
export interface Painter {
  mode: 'linear' | 'discrete';
  stops: PaintStop[];
  defaultColor: Rgba;
  /** the mask layer values this colorizer paints; null paints everywhere */
  maskValues: ReadonlySet<number> | null;
}

export interface ColorizerLike {
  mask?: { layerName: string; attributes: string[] } | undefined;
  defaultColor: string;
  defaultMode: 'linear' | 'discrete';
  stops: { value: number; color: string }[];
}

/** The painter of a colorizer, given how its mask attribute names map to layer values. */
export function painterOf(colorizer: ColorizerLike, maskValue: (name: string) => number | undefined): Painter {
  const values = colorizer.mask?.attributes.map(maskValue).filter((v): v is number => v !== undefined);
  return {
    mode: colorizer.defaultMode,
    stops: colorizer.stops.map((s) => ({ value: s.value, color: parseColor(s.color) })),
    defaultColor: parseColor(colorizer.defaultColor),
    maskValues: colorizer.mask ? new Set(values) : null,
  };
}

/** The colour of one value under one painter, written into out at offset o. */
export function paintValue(p: Painter, value: number, out: Uint8Array, o: number): void {
  const stops = p.stops;
  let color: Rgba = p.defaultColor;
  if (!Number.isNaN(value) && stops.length > 0) {
    const first = stops[0]!;
    const last = stops[stops.length - 1]!;
    if (p.mode === 'discrete') {
      if (value >= first.value) {
        // The highest stop at or below the value: binary search on ascending stop values.
        let lo = 0;
        let hi = stops.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (stops[mid]!.value <= value) lo = mid;
          else hi = mid - 1;
        }
        color = stops[lo]!.color;
      }
    } else if (value >= first.value && value <= last.value) {
      let hi = 1;
      while (hi < stops.length && stops[hi]!.value < value) hi++;
      if (hi >= stops.length || value === first.value) {
        color = value === first.value ? first.color : last.color;
      } else {
        const a = stops[hi - 1]!;
        const b = stops[hi]!;
        const t = (value - a.value) / (b.value - a.value);
        out[o] = Math.round(a.color[0] + t * (b.color[0] - a.color[0]));
        out[o + 1] = Math.round(a.color[1] + t * (b.color[1] - a.color[1]));
        out[o + 2] = Math.round(a.color[2] + t * (b.color[2] - a.color[2]));
        out[o + 3] = Math.round(a.color[3] + t * (b.color[3] - a.color[3]));
        return;
      }
    }
  }
  out[o] = color[0];
  out[o + 1] = color[1];
  out[o + 2] = color[2];
  out[o + 3] = color[3];
}

/**
 * The RGBA image of sampled values: `values` per painter's mode (the same sampling serves all
 * painters of one mode), `mask` the mask layer's values (NaN where unknown) when any painter has
 * a mask, and `covered` 0 at pixels outside the product's coverage (null when all are inside).
 */
export function paint(
  painters: readonly Painter[],
  pixels: number,
  valuesFor: (mode: 'linear' | 'discrete') => Float32Array,
  mask: Float32Array | null,
  covered: Uint8Array | null = null,
): Uint8Array {
  const out = new Uint8Array(pixels * 4);
  const sampled = painters.map((p) => valuesFor(p.mode));
  for (let i = 0; i < pixels; i++) {
    if (covered && covered[i] === 0) continue;
    for (let k = 0; k < painters.length; k++) {
      const p = painters[k]!;
      if (p.maskValues) {
        const m = mask ? mask[i]! : NaN;
        if (Number.isNaN(m) || !p.maskValues.has(m)) continue;
      }
      const v = sampled[k]![i]!;
      // No data at all (outside the source's grid): transparent, whatever the colorizer.
      if (v === NO_DATA) break;
      paintValue(p, v, out, i * 4);
      break;
    }
  }
  return out;
}

/**
 * Marks a pixel outside every grid the frame has (distinct from NaN, a missing value inside it):
 * the most negative float32, which no physical quantity takes.
 */
export const NO_DATA = -3.4028234663852886e38;
