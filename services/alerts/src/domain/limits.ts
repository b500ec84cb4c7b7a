import { SEVERE_WEATHER_MAX_HOURS } from '@fieldcast/schemas';

/**
 * How far each kind looks (docs/decisions/0272-alert-rule-kinds.md): the synthetic world and the
 * catalog's models forecast 10 days and more, and a season of degree days is at most a year (a
 * start more days back is refused, and an older rule's total stops at its season's end), so an
 * evaluation of one rule is a bounded read whatever the rule says and however old it is.
 */
export const LIMITS = {
  degreeDayDays: 366,
  forecastHours: 240,
  etDays: 31,
  severeHours: SEVERE_WEATHER_MAX_HOURS,
  severeRadiusKm: 200,
  /** thresholds no place's weather comes near: a larger one is a mistake in units, refused */
  etThresholdMm: 1000,
  precipitationThresholdMm: 10_000,
  frostThresholdC: [-60, 20],
} as const;
