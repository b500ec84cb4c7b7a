import { relativeHumidity } from '@fieldcast/science';
import { type EtHourlyInputs, hourMean } from '@fieldcast/weather';

export const HOUR_MS = 3_600_000;

/**
 * One place's hourly weather as the source gives it (EtHourlyInputs of @fieldcast/weather: the
 * hour before `k` at index k, read as `values[offset + k * stride]`); relative humidity reads its
 * temperature and dewpoint, short-crop ET all of it.
 */
export type HourlyInputs = EtHourlyInputs;

/**
 * Relative humidity (%) of `n` hours from input index `first` (Bolton 1980, via @fieldcast/science
 * relativeHumidity): from the hour's mean temperature and dewpoint. Writes out[0..n-1].
 */
export function relativeHumidityHours(inputs: HourlyInputs, first: number, n: number, out: Float64Array): void {
  const { offset, stride, temperature, dewpoint } = inputs;
  for (let h = 0; h < n; h++) {
    const at = offset + (first + h) * stride;
    out[h] = relativeHumidity(hourMean(temperature, at, stride), hourMean(dewpoint, at, stride));
  }
}
