/**
 * The width of a chart's value axis (uPlot's `axes[].size`). uPlot's fixed width cuts a label
 * wider than it from the left, so a season's "7,500" degree days or "-1,000" Utah chill units
 * would read ",500" and ",000". No DOM here, so it is tested in Node.
 */

/** What uPlot draws beside a value axis's labels: its tick marks (10 px) and the gap after them (5 px). */
const TICK_AND_GAP = 10 + 5;

/** The narrowest axis, which fits short labels ("100", "0.25") in uPlot's default font. */
const MINIMUM = 44;

/** The width that fits the widest of `labels` as `measure` (the canvas's text width in CSS pixels) gives it. */
export function valueAxisSize(labels: readonly string[] | null | undefined, measure: (text: string) => number): number {
  const widest = Math.max(0, ...(labels ?? []).map(measure));
  return Math.max(MINIMUM, Math.ceil(widest + TICK_AND_GAP));
}
