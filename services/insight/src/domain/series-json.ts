import { isoTime } from '@fieldcast/schemas';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The time of day of each whole hour as `Date.prototype.toISOString` ends it. */
const HOURS_OF_DAY = Array.from({ length: 24 }, (_, h) => `${h < 10 ? '0' : ''}${h}:00:00.000Z`);

/** What a series carries besides its entries (docs/interface.md §5, the HourlySeries schema). */
export interface SeriesHead {
  latitude: number;
  longitude: number;
  startTime: string;
  endTime: string;
  unit: { description: string; label: string };
  /** `/assets/<uuid>` for a series over an asset */
  asset?: string;
}

/**
 * The JSON text of an hourly series, written straight from its values: exactly what
 * `JSON.stringify` gives for the HourlySeries object (keys in its order, numbers as JSON writes
 * them), so the kit sends it as it is. A year is 8,760 entries; an object per entry handed to
 * `JSON.stringify`, and `toISOString` per hour, cost as much as the science of the series
 * (bench/README.md). The validTime of entry h is firstMs + h hours, firstMs a whole hour: the
 * date part is formatted once per day and the time of day taken from a table.
 *
 * values: the served (rounded, finite) value of each hour; products: the JSON array of each
 * hour's products (productsJson), its length the values'.
 */
export function seriesJson(head: SeriesHead, firstMs: number, values: ArrayLike<number>, products: readonly string[]): string {
  let out =
    `{"latitude":${JSON.stringify(head.latitude)},"longitude":${JSON.stringify(head.longitude)},` +
    `"startTime":${JSON.stringify(head.startTime)},"endTime":${JSON.stringify(head.endTime)},` +
    `"unit":${JSON.stringify({ description: head.unit.description, label: head.unit.label })},"series":[`;
  let day = Math.floor(firstMs / DAY_MS);
  let hour = Math.round((firstMs - day * DAY_MS) / HOUR_MS);
  let date = `{"validTime":"${isoTime(day * DAY_MS).slice(0, 11)}`;
  for (let h = 0; h < values.length; h++) {
    if (hour === 24) {
      day++;
      hour = 0;
      date = `{"validTime":"${isoTime(day * DAY_MS).slice(0, 11)}`;
    }
    out += `${h > 0 ? ',' : ''}${date}${HOURS_OF_DAY[hour++]}","value":${values[h]},"products":${products[h]}}`;
  }
  out += ']';
  if (head.asset !== undefined) out += `,"asset":${JSON.stringify(head.asset)}`;
  return `${out}}`;
}

/**
 * The JSON array naming the products of each of `hours` series hours: those of the two stamps that
 * bound hour h, stamps `first + h` and `first + h + 1` of `productOf`, in order of first use (one
 * name when both agree). Consecutive hours of the same products share one text.
 */
export function productsJson(productOf: (stamp: number) => string, first: number, hours: number): string[] {
  const out = new Array<string>(hours);
  let a0: string | undefined, b0: string | undefined;
  let text = '';
  for (let h = 0; h < hours; h++) {
    const a = productOf(first + h),
      b = productOf(first + h + 1);
    if (a !== a0 || b !== b0) {
      a0 = a;
      b0 = b;
      text = JSON.stringify(a === b ? [a] : [a, b]);
    }
    out[h] = text;
  }
  return out;
}
