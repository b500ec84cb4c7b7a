import { roundToTenth } from '@fieldcast/science';
import { dateMs, isoDate } from '@fieldcast/schemas';

const DAY_MS = 86_400_000;

/**
 * The daily values beside a total (include=daily; docs/decisions/0244-daily-values.md): each day's
 * value and the running total, both times `factor` and rounded as every output is. The running
 * total is summed in day order, as the total is, so the last one is the total.
 */
export function dailyEntries<K extends 'degreeDays' | 'chill'>(
  key: K,
  startDate: string,
  days: ArrayLike<number>,
  factor = 1,
): ({ date: string; accumulated: number } & Record<K, number>)[] {
  const first = dateMs(startDate);
  const out: ({ date: string; accumulated: number } & Record<K, number>)[] = [];
  let sum = 0;
  for (let i = 0; i < days.length; i++) {
    const value = days[i] as number;
    sum += value;
    out.push({ date: isoDate(first + i * DAY_MS), [key]: roundToTenth(value * factor), accumulated: roundToTenth(sum * factor) } as {
      date: string;
      accumulated: number;
    } & Record<K, number>);
  }
  return out;
}
