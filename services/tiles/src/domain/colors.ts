/**
 * Colours of a style (spec 2.3) as the bytes a pixel is painted with. The forms are checked when
 * a style is stored (packages/schemas tiles.ts); here they are only read.
 */

/** r, g, b, a as bytes 0-255 (alpha 0-1 scaled to 0-255 and rounded). */
export type Rgba = [number, number, number, number];

/** The bytes of `#rrggbb` (opaque) or `rgba(r, g, b, a)`; transparent black for anything else. */
export function parseColor(color: string): Rgba {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (hex) return [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16), parseInt(hex[3]!, 16), 255];
  const rgba = /^rgba\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*([\d.]+)\s*\)$/.exec(color);
  if (!rgba) return [0, 0, 0, 0];
  const byte = (n: number) => Math.max(0, Math.min(255, Math.round(n)));
  return [byte(Number(rgba[1])), byte(Number(rgba[2])), byte(Number(rgba[3])), byte(Number(rgba[4]) * 255)];
}
