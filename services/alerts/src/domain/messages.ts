import { roundToTenth } from '@fieldcast/science';
import type { Condition } from '../schemas.js';
import { thresholdOf, unitOf } from './conditions.js';
import type { Measurement } from './measure.js';

/**
 * A measured value as the area shows it, in messages, states and alerts: one decimal, as the
 * areas round theirs (halves away from zero); under 1, two significant digits, so that a small
 * threshold (0.05 mm of ET in a greenhouse) does not read as 0.0 and an alert does not say a value
 * of 0.0 is above a threshold of 0.0. Rules compare the value unrounded.
 */
export function shownValue(x: number): number {
  if (x === 0 || Math.abs(x) >= 1) return roundToTenth(x);
  return Number(x.toPrecision(2));
}

const one = (x: number) => {
  const v = shownValue(x);
  return v === 0 || Math.abs(v) >= 1
    ? v.toLocaleString('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 })
    : v.toLocaleString('en', { minimumFractionDigits: 1, maximumSignificantDigits: 2 });
};
const hourOf = (ms: number) => `${new Date(ms).toISOString().slice(0, 13)}:00Z`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The message of a rule's triggered or cleared event: the value and the threshold, with a `{}`
 * for the rule and one for its field or asset, in the order they are tagged
 * (docs/decisions/0123-events-described-by-their-emitter.md).
 */
export function alertMessage(condition: Condition, m: Measurement, triggered: boolean): string {
  const unit = unitOf(condition);
  const threshold = `${one(thresholdOf(condition))} ${unit}`;
  switch (condition.kind) {
    case 'degree-days':
      return triggered
        ? `Rule {}: {} reached ${one(m.value)} ${unit} since ${condition.start}, threshold ${threshold}`
        : `Rule {}: {} is back below ${threshold} since ${condition.start} (${one(m.value)} ${unit})`;
    case 'frost':
      return triggered
        ? `Rule {}: frost risk at {}: ${one(m.value)} °C forecast${m.atMs === undefined ? '' : ` at ${hourOf(m.atMs)}`}, below ${threshold}`
        : `Rule {}: no more frost risk at {}: the lowest forecast in ${plural(condition.hours, 'hour')} is ${one(m.value)} °C, threshold ${threshold}`;
    case 'reference-et':
      return triggered
        ? `Rule {}: reference ET at {} was ${one(m.value)} mm over the last ${plural(condition.days, 'day')}, above ${threshold}`
        : `Rule {}: reference ET at {} is back to ${one(m.value)} mm over the last ${plural(condition.days, 'day')}, threshold ${threshold}`;
    case 'precipitation':
      return triggered
        ? `Rule {}: ${one(m.value)} mm of precipitation forecast at {} in the next ${plural(condition.hours, 'hour')}, above ${threshold}`
        : `Rule {}: the precipitation forecast at {} is down to ${one(m.value)} mm in the next ${plural(condition.hours, 'hour')}, threshold ${threshold}`;
    case 'severe-weather': {
      // what was counted: the kinds, and how many of the events are reports ingested into the archive
      const ingested = m.ingested ? `; ${plural(m.ingested, 'ingested storm report')}` : '';
      return triggered
        ? `Rule {}: ${plural(m.value, 'severe weather event')} (${(m.kinds ?? []).join(', ')}${ingested}) within ${one(condition.radiusKm)} km of {} in the last ${plural(condition.hours, 'hour')}`
        : `Rule {}: no severe weather within ${one(condition.radiusKm)} km of {} in the last ${plural(condition.hours, 'hour')}`;
    }
  }
}
