/**
 * The model area's point series as CSV, for a client that reads series into a spreadsheet or a
 * data frame as it reads the other areas' (docs/decisions/0243-csv-answers.md): one row per point
 * and valid time, the point as the other areas' rows carry it (so a saved file keeps its place), a
 * column per variable named with its unit. The statistics of the JSON form (mean, median,
 * mode, extremes) are not rows of the series and stay out, as a metadata block above the header
 * would.
 */
import { type CsvCell, csvForm } from '@fieldcast/kit';
import type { ModelLatestForecastTimeSeries, ModelVariableTimeSeries } from '@fieldcast/schemas';

const EMPTY = 'an hour the weather lacks is an empty field';

/** The point of the path, as the series were asked for. */
type Place = { latitude: number; longitude: number };

/** The variables' series side by side: each has the run's valid times, in the same order. */
function table(place: Place, named: readonly [string, ModelVariableTimeSeries][]) {
  const times = named[0]?.[1].series.map((p) => p.validTime) ?? [];
  return {
    columns: ['latitude', 'longitude', 'validTime', ...named.map(([name, s]) => `${name} (${s.unit.label})`)],
    rows: times.map((t, i): CsvCell[] => [place.latitude, place.longitude, t, ...named.map(([, s]) => s.series[i]?.value)]),
  };
}

/** GET /forecasts/{id}/variables/{variable}/timeseries/...: the column is named by the variable asked for. */
export const variableSeriesCsv = csvForm<ModelVariableTimeSeries, Place & { variable: string }>(
  `One row per valid time: latitude, longitude, validTime, then the variable with its unit in the header (temperature (°C)); ${EMPTY}`,
  (series, params) => table(params, [[params.variable, series]]),
);

/** GET /models/{id}/latest-forecast/timeseries/...: every variable of the run, in the model's order. */
export const latestSeriesCsv = csvForm<ModelLatestForecastTimeSeries, Place>(
  `One row per valid time: latitude, longitude, validTime, then each variable of the model with its unit in the header (temperature (°C), windSpeed (m/s), ...); ${EMPTY}`,
  (result, params) => table(params, Object.entries(result.variables)),
);
