import { isDeepStrictEqual } from 'node:util';
import { type FieldError, ValidationError } from '@fieldcast/kit';
import { cutoffNamed, DEFAULT_DEGREE_DAY_BASE, dateMs, DEGREE_DAY_FIRST_DATE, degreeDayThresholdFault, isoDate } from '@fieldcast/schemas';
import { CURVE_DEGREE_DAY_METHODS } from '@fieldcast/science';
import { SEVERE_KINDS } from '@fieldcast/weather';
import type { Condition } from '../schemas.js';
import { LIMITS } from './limits.js';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** The unit of each kind's value and threshold. */
export function unitOf(condition: Condition): string {
  switch (condition.kind) {
    case 'degree-days':
      return (condition.scale ?? 'celsius') === 'celsius' ? '°C·d' : '°F·d';
    case 'frost':
      return '°C';
    case 'reference-et':
    case 'precipitation':
      return 'mm';
    case 'severe-weather':
      return 'events';
  }
}

/** The threshold a value is compared with: for severe weather, one event. */
export function thresholdOf(condition: Condition): number {
  return condition.kind === 'severe-weather' ? 1 : condition.threshold;
}

/** Whether a measured value makes the condition hold. */
export function holds(condition: Condition, value: number): boolean {
  switch (condition.kind) {
    case 'degree-days':
      return value >= condition.threshold;
    case 'frost':
      return value < condition.threshold;
    case 'reference-et':
    case 'precipitation':
      return value > condition.threshold;
    case 'severe-weather':
      return value >= 1;
  }
}

const within = (x: number, lo: number, hi: number) => Number.isFinite(x) && x >= lo && x <= hi;

/**
 * What a well-formed condition may not hold (docs/interface.md, alerts), each fault by its path
 * in the body; empty when it is acceptable. `todayMs` is the start of the current UTC day.
 */
export function conditionFaults(condition: Condition, todayMs: number): FieldError[] {
  const faults: FieldError[] = [];
  const fault = (member: string, message: string) => faults.push({ path: `condition.${member}`, message });
  switch (condition.kind) {
    case 'degree-days': {
      const first = Math.max(dateMs(DEGREE_DAY_FIRST_DATE), todayMs - (LIMITS.degreeDayDays - 1) * DAY_MS);
      const start = dateMs(condition.start);
      if (!(start >= first && start <= todayMs))
        fault(
          'start',
          `start must be a date YYYY-MM-DD from ${isoDate(first)} to today, ${isoDate(todayMs)} (UTC): a season of at most ${LIMITS.degreeDayDays} days through today`,
        );
      if (!(Number.isFinite(condition.threshold) && condition.threshold > 0)) fault('threshold', 'threshold must be greater than 0');
      // The thresholds the agriculture area takes (DEGREE_DAY_THRESHOLD_RANGE), in the rule's scale.
      const scale = condition.scale ?? 'celsius';
      const base = condition.base ?? DEFAULT_DEGREE_DAY_BASE[scale];
      const baseFault = degreeDayThresholdFault('base', base, scale);
      if (baseFault) fault('base', baseFault);
      const method = condition.method ?? 'average';
      if (condition.cap !== undefined) {
        const capFault = degreeDayThresholdFault('cap', condition.cap, scale);
        if (method === 'average') fault('cap', 'cap needs a method other than average: the average method has no upper threshold');
        else if (capFault) fault('cap', capFault);
        else if (!baseFault && condition.cap < base) fault('cap', `cap must be a number not below base (${base})`);
      }
      const cutoff = cutoffNamed(condition.cutoff);
      if (cutoff !== 'horizontal') {
        if (!CURVE_DEGREE_DAY_METHODS.includes(method))
          fault('cutoff', `cutoff ${cutoff} needs method ${CURVE_DEGREE_DAY_METHODS.join(', ')}`);
        else if (condition.cap === undefined) fault('cutoff', `cutoff ${cutoff} needs cap, the upper threshold it applies at`);
      }
      break;
    }
    case 'frost':
      if (!within(condition.threshold, ...LIMITS.frostThresholdC))
        fault('threshold', `threshold must be from ${LIMITS.frostThresholdC.join(' to ')} °C`);
      if (!within(condition.hours, 1, LIMITS.forecastHours)) fault('hours', `hours must be from 1 to ${LIMITS.forecastHours}`);
      break;
    case 'reference-et':
      if (!(Number.isFinite(condition.threshold) && condition.threshold > 0 && condition.threshold <= LIMITS.etThresholdMm))
        fault('threshold', `threshold must be greater than 0 and at most ${LIMITS.etThresholdMm} mm`);
      if (!within(condition.days, 1, LIMITS.etDays)) fault('days', `days must be from 1 to ${LIMITS.etDays}`);
      break;
    case 'precipitation':
      if (!within(condition.threshold, 0, LIMITS.precipitationThresholdMm))
        fault('threshold', `threshold must be from 0 to ${LIMITS.precipitationThresholdMm} mm`);
      if (!within(condition.hours, 1, LIMITS.forecastHours)) fault('hours', `hours must be from 1 to ${LIMITS.forecastHours}`);
      break;
    case 'severe-weather': {
      if (!(Number.isFinite(condition.radiusKm) && condition.radiusKm > 0 && condition.radiusKm <= LIMITS.severeRadiusKm))
        fault('radiusKm', `radiusKm must be greater than 0 and at most ${LIMITS.severeRadiusKm}`);
      if (!within(condition.hours, 1, LIMITS.severeHours)) fault('hours', `hours must be from 1 to ${LIMITS.severeHours}`);
      const types = condition.types;
      if (types && types.length === 0) fault('types', `types must name at least one of ${SEVERE_KINDS.join(', ')}`);
      if (types && new Set(types).size !== types.length) fault('types', 'types must name each kind once');
      break;
    }
  }
  return faults;
}

/**
 * A condition as it is measured: each default filled in and each alias resolved (the horizontal
 * cutoff's other name `cap`, the default base of the scale, every severe-weather type), the types
 * in one order. Two conditions of one form measure the same thing, so a rule re-sent with one
 * spelt the other way keeps its decision (docs/interface.md §12, docs/decisions/0371-alert-rule-edits.md).
 */
function measuredForm(condition: Condition): Record<string, unknown> {
  switch (condition.kind) {
    case 'degree-days': {
      const scale = condition.scale ?? 'celsius';
      return {
        kind: condition.kind,
        start: condition.start,
        threshold: condition.threshold,
        scale,
        base: condition.base ?? DEFAULT_DEGREE_DAY_BASE[scale],
        method: condition.method ?? 'average',
        cap: condition.cap ?? null,
        cutoff: cutoffNamed(condition.cutoff),
      };
    }
    case 'severe-weather':
      return { ...condition, types: [...(condition.types ?? SEVERE_KINDS)].sort() };
    default:
      return condition;
  }
}

/** Whether two conditions measure the same thing, however each was spelt. */
export function sameMeasure(a: Condition, b: Condition): boolean {
  return isDeepStrictEqual(measuredForm(a), measuredForm(b));
}

/** Throws the 422 of a condition with faults (docs/architecture.md §3: content, not shape). */
export function checkCondition(condition: Condition, todayMs: number): void {
  const faults = conditionFaults(condition, todayMs);
  if (faults.length > 0) throw new ValidationError('invalid_condition', 'The alert condition is not acceptable', faults);
}
