import { z } from 'zod';
import { type Api, JsonText } from '@fieldcast/kit';
import {
  ModelForecastParams,
  ModelForecastRecord,
  ModelForecastVariableParams,
  ModelForecastVariableRecord,
  ModelTimeSeriesParams,
  ModelTimeSeriesQuery,
  ModelVariableTimeSeries,
} from '@fieldcast/schemas';
import { forecastRecord, forecastVariableRecord } from '../domain/records.js';
import { selectValidTimes } from '../domain/time-series.js';
import { type ModelRouteDeps, runOf, runVariableNamed, runVariableOf, seriesJson, truthFor, variablesFor } from './deps.js';
import { variableSeriesCsv } from './series-csv.js';

const TAGS = ['forecasts'];
const EXISTS =
  'A run exists from its init time until one retention period after it expires (docs/interface.md §7); otherwise 404 forecast_does_not_exist.';

/** Forecast runs, their variables and time series (docs/interface.md §7; spec 2.8, 4.7). */
export function forecastRoutes(api: Api, deps: ModelRouteDeps): Api {
  const nowMs = () => deps.now().getTime();
  return api
    .op({
      method: 'get',
      path: '/forecasts/{id}',
      summary: 'A forecast run',
      description: `Its status follows the clock: INITIALIZING, INCOMPLETE while its valid times are produced, COMPLETE, EXPIRED. ${EXISTS}`,
      tags: TAGS,
      params: ModelForecastParams,
      response: { status: 200, description: 'The run', schema: ModelForecastRecord },
      errors: [404],
      handle: async ({ params }) => {
        const now = nowMs();
        return forecastRecord(await runOf(deps, params.id, now), now);
      },
    })
    .op({
      method: 'get',
      path: '/forecasts/{id}/variables',
      summary: 'The variables of a forecast run',
      description: `Each with the valid times produced so far. ${EXISTS}`,
      tags: TAGS,
      params: ModelForecastParams,
      response: { status: 200, description: 'The variables', schema: z.array(ModelForecastVariableRecord) },
      errors: [404],
      handle: async ({ account, params }) => {
        const now = nowMs();
        const run = await runOf(deps, params.id, now);
        return (await variablesFor(deps, run.model, account.id)).map((v) => forecastVariableRecord(run, v, now));
      },
    })
    .op({
      method: 'get',
      path: '/variables/{id}',
      summary: 'One variable of a forecast run',
      description: `By the id its run's variable list gives; 404 variable_does_not_exist once the run no longer exists.`,
      tags: TAGS,
      params: ModelForecastVariableParams,
      response: { status: 200, description: 'The variable', schema: ModelForecastVariableRecord },
      errors: [404],
      handle: async ({ account, params }) => {
        const now = nowMs();
        const found = await runVariableOf(deps, params.id, now, account.id);
        return forecastVariableRecord(found.run, found.variable, now);
      },
    })
    .op({
      method: 'get',
      path: '/forecasts/{id}/variables/{variable}/timeseries/{latitude}/{longitude}',
      summary: 'One variable of a run at a point',
      description: `The run's values at its valid times produced so far, bilinear between grid points, with mean, median, mode (the most frequent of the values at their two decimals, docs/decisions/0009-statistics-mode.md), minimum and maximum (spec 2.8). start and end (UTC ISO 8601, inclusive) select valid times, limit keeps the first ones; start after end is 400. Accept: text/csv answers CSV. ${EXISTS} An unknown variable name is 404 variable_does_not_exist, as is a variable over a restricted product's variable for an account not granted that product (docs/decisions/0429-model-variables-follow-product-grants.md).`,
      tags: TAGS,
      params: ModelTimeSeriesParams,
      query: ModelTimeSeriesQuery,
      response: { status: 200, description: 'The per-variable object (spec 2.8)', schema: ModelVariableTimeSeries },
      csv: variableSeriesCsv,
      errors: [404],
      handle: async ({ account, params, query }) => {
        const now = nowMs();
        const run = await runOf(deps, params.id, now);
        const variable = await runVariableNamed(deps, run, params.variable, account.id);
        const validMs = selectValidTimes(run, now, { startMs: query.start, endMs: query.end, limit: query.limit });
        const truth = await truthFor(deps, run, params, validMs, now);
        return new JsonText(await seriesJson(deps, run, variable, params, validMs, truth));
      },
    });
}
