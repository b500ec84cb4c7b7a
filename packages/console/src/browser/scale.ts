/**
 * The symbols of the degree-day scales the agriculture area takes (docs/interface.md §3:
 * `scale=celsius` or `fahrenheit`, answered capitalised; the list is @fieldcast/science's
 * DEGREE_DAY_SCALES). No DOM here, so it is tested in Node.
 */

import { DEGREE_DAY_SCALE_SYMBOLS, type DegreeDayScale } from '@fieldcast/science';

export type Scale = DegreeDayScale;

const SYMBOLS: Readonly<Record<string, string>> = DEGREE_DAY_SCALE_SYMBOLS;

/** The symbol of a scale as asked (`celsius`) or as answered (`Celsius`). */
export function scaleSymbol(scale: string): string {
  return SYMBOLS[scale.toLowerCase()] ?? scale;
}

/**
 * A threshold typed in one scale as the same temperature in another, to a tenth of a degree, so
 * a base or upper threshold keeps its meaning when the scale changes (10 °C is 50 °F, the two
 * scales' default bases). An empty or unreadable field is left as it is.
 */
export function convertThreshold(text: string, from: Scale, to: Scale): string {
  const value = Number(text);
  if (from === to || text.trim() === '' || !Number.isFinite(value)) return text;
  const celsius = from === 'celsius' ? value : ((value - 32) * 5) / 9;
  const converted = to === 'celsius' ? celsius : (celsius * 9) / 5 + 32;
  return String(Math.round(converted * 10) / 10);
}
