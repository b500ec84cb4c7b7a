/**
 * Computes variables over a block of cells and a run of time steps: the entry points the source
 * uses for windows, slices and point series. Output is row-major [t][cell].
 * Time index `i0` is hours since 1970 for hourly variables, days since 1970 for daily ones, and
 * ignored for the static altitude. Long runs are computed in chunks of time so scratch memory
 * (anchors, cloud, temperature) stays a bounded multiple of one chunk, not of the whole request.
 */
import type { DailyExtremes, EtInputs, VariableId } from '../grid/grid-source.js';
import type { Block } from './block.js';
import { fillHourlyPrecipitation } from './precipitation.js';
import { fillHourlyPressure } from './pressure.js';
import { fillHourlyCloud, fillShortwave } from './radiation.js';
import { anchorDaysForHours, anchorDaysFrom, fillDailyExtremes, fillHourlyTemperature, temperatureAnchors } from './temperature.js';
import { fillHourlyWind } from './wind.js';

/** Time steps per chunk: ~4 M cell-steps, a whole number of `quantum` steps, at least one quantum. */
function chunkSteps(block: Block, quantum: number): number {
  const steps = Math.max(1, Math.floor(4_000_000 / Math.max(1, block.nCells)));
  return Math.max(quantum, Math.floor(steps / quantum) * quantum);
}

/** Calls `fill` for each chunk of the n steps from i0: its first step, its step count, and its values' span [from, to) in the output. */
function inChunks(
  block: Block,
  i0: number,
  n: number,
  quantum: number,
  fill: (start: number, count: number, from: number, to: number) => void,
): void {
  const chunk = chunkSteps(block, quantum);
  for (let s = 0; s < n; s += chunk) {
    const m = Math.min(chunk, n - s);
    fill(i0 + s, m, s * block.nCells, (s + m) * block.nCells);
  }
}

/** One variable for steps i0 .. i0+n-1. */
export function computeVariable(variable: VariableId, block: Block, i0: number, n: number): Float32Array {
  const out = new Float32Array(block.nCells * n);
  if (variable === 'surface_altitude') {
    for (let t = 0; t < n; t++) out.set(block.altitude, t * block.nCells);
    return out;
  }
  const daily = variable === 'air_temperature_daily_max' || variable === 'air_temperature_daily_min';
  inChunks(block, i0, n, daily ? 1 : 24, (start, count, from, to) => fillChunk(variable, block, start, count, out.subarray(from, to)));
  return out;
}

/** Daily maximum and minimum ([day][cell] each) for days i0 .. i0+n-1 from one set of anchors per chunk. */
export function computeDailyExtremes(block: Block, i0: number, n: number): DailyExtremes<Float32Array> {
  if (n <= chunkSteps(block, 1)) {
    // One chunk: the anchors' own arrays are the answer (new arrays, [day][cell] from i0), not copied.
    const { tmax, tmin } = temperatureAnchors(block, anchorDaysFrom(block, i0, n), false, false);
    return { tmax, tmin };
  }
  const tmax = new Float32Array(block.nCells * n),
    tmin = new Float32Array(block.nCells * n);
  inChunks(block, i0, n, 1, (start, count, from, to) => {
    const anchors = temperatureAnchors(block, anchorDaysFrom(block, start, count), false, false);
    fillDailyExtremes(block, anchors, start, count, tmax.subarray(from, to), tmin.subarray(from, to));
  });
  return { tmax, tmin };
}

/**
 * The five hourly ET inputs ([t][cell] each) for hours i0 .. i0+n-1: air temperature and
 * dewpoint from one set of anchors, then shortwave, wind and pressure, chunk by chunk.
 */
export function computeEtInputs(block: Block, i0: number, n: number): EtInputs<Float32Array> {
  checkCells(block, 'ET inputs');
  const size = block.nCells * n;
  const out = {
    airTemperature: new Float32Array(size),
    dewpoint: new Float32Array(size),
    shortwave: new Float32Array(size),
    windSpeed: new Float32Array(size),
    pressure: new Float32Array(size),
  };
  inChunks(block, i0, n, 24, (start, count, from, to) => {
    const anchors = temperatureAnchors(block, anchorDaysForHours(block, start, count), true);
    fillHourlyTemperature(block, anchors, start, count, out.airTemperature.subarray(from, to), out.dewpoint.subarray(from, to));
    fillShortwave(block, start, count, null, out.shortwave.subarray(from, to));
    fillHourlyWind(block, start, count, out.windSpeed.subarray(from, to));
    fillHourlyPressure(block, start, count, out.pressure.subarray(from, to));
  });
  return out;
}

/** Variables computed on a block of listed cells (block.ts makeCellBlock): the temperatures, whose terms are all per cell, row or column. */
const LISTED_CELL_VARIABLES: ReadonlySet<VariableId> = new Set([
  'air_temperature',
  'dew_point_temperature',
  'air_temperature_daily_max',
  'air_temperature_daily_min',
  'surface_altitude',
]);

/** Refuses a block of listed cells for what only full blocks compute. */
function checkCells(block: Block, variable: VariableId | 'ET inputs'): void {
  if (block.cells && (variable === 'ET inputs' || !LISTED_CELL_VARIABLES.has(variable))) {
    throw new Error(`${variable} is computed on full blocks of rows x columns only`);
  }
}

function fillChunk(variable: VariableId, block: Block, i0: number, n: number, out: Float32Array): void {
  checkCells(block, variable);
  switch (variable) {
    case 'air_temperature':
    case 'dew_point_temperature': {
      const dew = variable === 'dew_point_temperature';
      const anchors = temperatureAnchors(block, anchorDaysForHours(block, i0, n), dew);
      fillHourlyTemperature(block, anchors, i0, n, dew ? null : out, dew ? out : null);
      return;
    }
    case 'air_temperature_daily_max':
    case 'air_temperature_daily_min': {
      const anchors = temperatureAnchors(block, anchorDaysFrom(block, i0, n), false, false);
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
      const anchors = temperatureAnchors(block, anchorDaysForHours(block, i0, n), false);
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
