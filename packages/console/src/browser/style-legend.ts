/**
 * The weather layer's legend as a person reads it: each colorizer of a style (docs/interface.md
 * §4) a line of its stops, titled with what its mask selects ("rain", "snow") and the unit of the
 * layer it colours, from the product's styleable layers (§6). Without them a style that colours
 * rain and snow apart shows the same values twice in different colours, and no unit at all. No
 * DOM here, so it is tested in Node.
 */

/** What of a style the legend reads. */
export interface StyleColors {
  layerName: string;
  colorizers: { mask?: { attributes: string[] } | null; stops: { value: number; color: string }[] }[];
}

/** A product's styleable layer, as the platform lists it. */
export interface StyleableLayer {
  name: string;
  unit?: { label: string } | null;
}

interface LegendGroup {
  /** what the colorizer colours and in which unit, e.g. "rain, mm/h"; empty when neither is known */
  title: string;
  entries: { color: string; label: string }[];
}

export function styleLegend(style: StyleColors, layers: readonly StyleableLayer[]): LegendGroup[] {
  const unit = layers.find((l) => l.name === style.layerName)?.unit?.label;
  return style.colorizers.map((c) => {
    // Mask attributes are identifiers (freezing_rain): shown as words.
    const masked = (c.mask?.attributes ?? []).map((a) => a.replace(/_/g, ' ')).join(' or ');
    return {
      title: [masked, unit].filter(Boolean).join(', '),
      entries: c.stops.map((s) => ({ color: s.color, label: String(s.value) })),
    };
  });
}
