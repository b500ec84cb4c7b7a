/**
 * The precipitation-type mask layer. Spec 2.4: the product record lists attribute names with
 * integer values, one of them written with a space ("freezing rain"); style masks (spec 2.3)
 * write the same attribute with an underscore ("freezing_rain"). The integer values are the
 * `precipitation_type` codes of the grid (0 none has no attribute: a mask selects where it falls).
 * Code 4 (ice pellets) is named "sleet", the US name for ice pellets, so "freezing rain" is the
 * only name with a space, as in the record the spec describes.
 */
import type { StyleableLayer } from './schema.js';

export const PRECIPITATION_TYPE_LAYER = 'precipitation_type';

export const PRECIPITATION_TYPE_ATTRIBUTES: StyleableLayer['attributes'] = [
  { name: 'rain', value: 1, unit: null },
  { name: 'snow', value: 2, unit: null },
  { name: 'freezing rain', value: 3, unit: null },
  { name: 'sleet', value: 4, unit: null },
];

/** The name a style mask uses for a product-record attribute name: spaces become underscores. */
export function maskAttributeName(recordName: string): string {
  return recordName.trim().replace(/\s+/g, '_');
}

/**
 * The product-record attribute a style-mask name refers to, or undefined if the layer has none.
 * Accepts either spelling ("freezing_rain" or "freezing rain").
 */
export function recordAttribute(
  layer: Pick<StyleableLayer, 'attributes'>,
  maskName: string,
): StyleableLayer['attributes'][number] | undefined {
  const key = maskAttributeName(maskName);
  return layer.attributes.find((a) => maskAttributeName(a.name) === key);
}

/** The product-record name of a style-mask attribute name ("freezing_rain" -> "freezing rain"). */
export function recordAttributeName(layer: Pick<StyleableLayer, 'attributes'>, maskName: string): string | undefined {
  return recordAttribute(layer, maskName)?.name;
}

/** The integer value a style-mask attribute selects, or undefined if the layer has no such attribute. */
export function maskAttributeValue(layer: Pick<StyleableLayer, 'attributes'>, maskName: string): number | undefined {
  return recordAttribute(layer, maskName)?.value;
}
