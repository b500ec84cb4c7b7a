import { z } from 'zod';
import { type Api, JsonText, NotFoundError } from '@fieldcast/kit';
import {
  MODEL_FORECAST_LIST_LIMIT_DEFAULT,
  MODEL_FORECAST_LIST_LIMIT_MAX,
  ModelForecastListQuery,
  ModelForecastRecord,
  ModelLatestForecastTimeSeries,
  ModelLatestTimeSeriesParams,
  ModelParams,
  ModelRecord,
  ModelTimeSeriesQuery,
  ModelVariableRecord,
} from '@fieldcast/schemas';
import { forecastRecord, modelRecord, modelVariableRecord } from '../domain/records.js';
import { latestCompleteRun, listRuns, nextListChangeMs } from '../domain/runs.js';
import { selectValidTimes } from '../domain/time-series.js';
import { type ModelRouteDeps, modelOf, servedModels, seriesJson, truthFor, variablesFor } from './deps.js';
import { latestSeriesCsv } from './series-csv.js';

const TAGS = ['models'];
const MODEL = 'The model is named by its id (UUID) or its name.';

/** Models, their variables and runs (docs/interface.md §7; public record, model area). */
export function modelRoutes(api: Api, deps: ModelRouteDeps): Api {
  const nowMs = () => deps.now().getTime();
  /** The model's latest complete run at `now` (one reading of the clock per request). */
  const latest = async (idOrName: string, now: number) => {
    const { model: m, runs } = await modelOf(deps, idOrName, now);
    const run = latestCompleteRun(runs, now);
    if (!run) throw new NotFoundError('forecast', `of model ${m.name}`, `Model ${m.name} has no complete forecast yet`);
    return run;
  };
  return api
    .op({
      method: 'get',
      path: '/models',
      summary: 'List models',
      tags: TAGS,
      description:
        "The catalog's synthetic models (unless FIELDCAST_SYNTHETIC=off), then each synced source (from its first staged step), in source name order (docs/interface.md §7).",
      response: { status: 200, description: 'Every model served', schema: z.array(ModelRecord) },
      handle: async () => (await servedModels(deps)).map(modelRecord),
    })
    .op({
      method: 'get',
      path: '/models/{id}',
      summary: 'A model',
      description: MODEL,
      tags: TAGS,
      params: ModelParams,
      response: { status: 200, description: 'The model', schema: ModelRecord },
      errors: [404],
      handle: async ({ params }) => modelRecord((await modelOf(deps, params.id, nowMs())).model),
    })
    .op({
      method: 'get',
      path: '/models/{id}/variables',
      summary: 'The variables of a model',
      description: `${MODEL} Every run of the model forecasts these variables. One over a restricted product's variable is listed only to the accounts granted that product (docs/decisions/0429-model-variables-follow-product-grants.md).`,
      tags: TAGS,
      params: ModelParams,
      response: { status: 200, description: 'The variables', schema: z.array(ModelVariableRecord) },
      errors: [404],
      handle: async ({ account, params }) =>
        (await variablesFor(deps, (await modelOf(deps, params.id, nowMs())).model, account.id)).map(modelVariableRecord),
    })
    .op({
      method: 'get',
      path: '/models/{id}/forecasts',
      summary: 'The runs of a model',
      description: `${MODEL} Runs that exist now (INITIALIZING to EXPIRED; an expired run stays listed for one more retention period), filtered by initTime with start and end (inclusive), sorted by initTime (sort desc, the default, or asc), at most limit (default ${MODEL_FORECAST_LIST_LIMIT_DEFAULT}, at most ${MODEL_FORECAST_LIST_LIMIT_MAX}).`,
      tags: TAGS,
      params: ModelParams,
      query: ModelForecastListQuery,
      response: { status: 200, description: 'The runs', schema: z.array(ModelForecastRecord) },
      errors: [404],
      handle: async ({ params, query }) => {
        const now = nowMs();
        const found = await modelOf(deps, params.id, now);
        const limit = query.limit ?? MODEL_FORECAST_LIST_LIMIT_DEFAULT;
        const sort = query.sort ?? 'desc';
        const list = () => {
          const runs = listRuns(found.runs, {
            ...(query.start === undefined ? {} : { startMs: query.start }),
            ...(query.end === undefined ? {} : { endMs: query.end }),
            limit,
            sort,
          });
          return { text: JSON.stringify(runs.map((r) => forecastRecord(r, now))), untilMs: nextListChangeMs(runs, now) };
        };
        // A synced model's runs were just read from its files; only the clock's runs keep until a known instant.
        if (found.synced) return new JsonText(list().text);
        const key = `${found.model.id}|${query.start ?? ''}|${query.end ?? ''}|${limit}|${sort}`;
        return new JsonText(deps.lists.get(key, now, list));
      },
    })
    .op({
      method: 'get',
      path: '/models/{id}/latest-forecast',
      summary: 'The latest complete run of a model',
      description: `${MODEL} The newest run whose status is COMPLETE; 404 forecast_does_not_exist when the model has none.`,
      tags: TAGS,
      params: ModelParams,
      response: { status: 200, description: 'The run', schema: ModelForecastRecord },
      errors: [404],
      handle: async ({ params }) => {
        const now = nowMs();
        return forecastRecord(await latest(params.id, now), now);
      },
    })
    .op({
      method: 'get',
      path: '/models/{id}/latest-forecast/timeseries/{latitude}/{longitude}',
      summary: 'Every variable of the latest complete run at a point',
      description: `${MODEL} The latest complete run's series of each variable at the point, with statistics (spec 2.8, 4.7). start, end and limit select valid times as in the by-variable form (beyond the spec). Accept: text/csv answers CSV, a column per variable.`,
      tags: TAGS,
      params: ModelLatestTimeSeriesParams,
      query: ModelTimeSeriesQuery,
      response: { status: 200, description: 'The forecast link and each variable (spec 2.8)', schema: ModelLatestForecastTimeSeries },
      csv: latestSeriesCsv,
      errors: [404],
      handle: async ({ account, params, query }) => {
        const now = nowMs();
        const run = await latest(params.id, now);
        const served = await variablesFor(deps, run.model, account.id);
        const validMs = selectValidTimes(run, now, { startMs: query.start, endMs: query.end, limit: query.limit });
        const truth = await truthFor(deps, run, params, validMs, now);
        const texts = await Promise.all(served.map((v) => seriesJson(deps, run, v, params, validMs, truth)));
        // Assembled from each variable's JSON text: the same text JSON.stringify gives of the object.
        const variables = served.map((v, i) => `${JSON.stringify(v.name)}:${texts[i]}`).join(',');
        return new JsonText(`{"forecast":${JSON.stringify(`/forecasts/${run.id}`)},"variables":{${variables}}}`);
      },
    });
}
