/**
 * Computes one variable over a block of cells and a run of time steps: the single entry point
 * the source uses for windows, slices and point series. Output is row-major [t][cell].
 * Time index `i0` is hours since 1970 for hourly variables, days since 1970 for daily ones, and
 * ignored for the static altitude. Long runs are computed in chunks of time so scratch memory
 * (anchors, cloud, temperature) stays a bounded multiple of one chunk, not of the whole request.
 */
import type { VariableId } from '../grid-source.js';
import type { Block } from './block.js';
import { fillHourlyPrecipitation } from './precipitation.js';
import { fillHourlyPressure } from './pressure.js';
import { fillHourlyCloud, fillShortwave } from './radiation.js';
import { anchorDaysForDays, anchorDaysForHours, fillDailyExtremes, fillHourlyTemperature, temperatureAnchors } from './temperature.js';
import { fillHourlyWind } from './wind.js';

/** Time steps per chunk: ~4 M cell-steps, at least one step. */
function chunkSteps(block: Block, quantum: number): number {
  const steps = Math.max(1, Math.floor(4_000_000 / Math.max(1, block.nCells)));
  return Math.max(quantum, Math.floor(steps / quantum) * quantum);
}

export function computeField(variable: VariableId, block: Block, i0: number, n: number): Float32Array {
  const nCells = block.nCells;
  const out = new Float32Array(nCells * n);
  if (variable === 'surface_altitude') {
    for (let t = 0; t < n; t++) out.set(block.altitude, t * nCells);
    return out;
  }
  const daily = variable === 'air_temperature_daily_max' || variable === 'air_temperature_daily_min';
  const chunk = chunkSteps(block, daily ? 1 : 24);
  for (let s = 0; s < n; s += chunk) {
    const m = Math.min(chunk, n - s);
    fillChunk(variable, block, i0 + s, m, out.subarray(s * nCells, (s + m) * nCells));
  }
  return out;
}

/**
 * Daily maximum and minimum ([day][cell] each) for days i0 .. i0+n-1 from one set of anchors per
 * chunk: the values computeField gives for each variable alone.
 */
export function computeDailyExtremes(block: Block, i0: number, n: number): [Float32Array, Float32Array] {
  const nCells = block.nCells;
  const max = new Float32Array(nCells * n), min = new Float32Array(nCells * n);
  const chunk = chunkSteps(block, 1);
  for (let s = 0; s < n; s += chunk) {
    const m = Math.min(chunk, n - s);
    const span = anchorDaysForDays(i0 + s, m);
    const anchors = temperatureAnchors(block, span.d0, span.nDays, false, false);
    fillDailyExtremes(block, anchors, i0 + s, m, max.subarray(s * nCells, (s + m) * nCells), min.subarray(s * nCells, (s + m) * nCells));
  }
  return [max, min];
}

function fillChunk(variable: VariableId, block: Block, i0: number, n: number, out: Float32Array): void {
  switch (variable) {
    case 'air_temperature':
    case 'dew_point_temperature': {
      const span = anchorDaysForHours(i0, n);
      const dew = variable === 'dew_point_temperature';
      const anchors = temperatureAnchors(block, span.d0, span.nDays, dew);
      fillHourlyTemperature(block, anchors, i0, n, dew ? null : out, dew ? out : null);
      return;
    }
    case 'air_temperature_daily_max':
    case 'air_temperature_daily_min': {
      const span = anchorDaysForDays(i0, n);
      const anchors = temperatureAnchors(block, span.d0, span.nDays, false, false);
      const max = variable === 'air_temperature_daily_max';
      fillDailyExtremes(block, anchors, i0, n, max ? out : null, max ? null : out);
      return;
    }
    case 'surface_downwelling_shortwave_flux_in_air':
      fillShortwave(block, i0, n, null, out);
      return;
    case 'surface_downwelling_shortwave_flux_in_air_assuming_clear_sky':
      fillShortwave(block, i0, n, out, null);
      return;
    case 'wind_speed':
      fillHourlyWind(block, i0, n, out);
      return;
    case 'surface_air_pressure':
      fillHourlyPressure(block, i0, n, out);
      return;
    case 'precipitation_rate':
    case 'precipitation_type': {
      const span = anchorDaysForHours(i0, n);
      const anchors = temperatureAnchors(block, span.d0, span.nDays, false);
      const temp = new Float32Array(out.length);
      fillHourlyTemperature(block, anchors, i0, n, temp, null);
      const cloud = new Float32Array(out.length);
      fillHourlyCloud(block, i0, n, cloud);
      const rate = variable === 'precipitation_rate';
      fillHourlyPrecipitation(block, i0, n, temp, cloud, rate ? out : null, rate ? null : out);
      return;
    }
    case 'surface_altitude':
      for (let t = 0; t < n; t++) out.set(block.altitude, t * block.nCells);
      return;
  }
}
