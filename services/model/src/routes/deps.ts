import { NotFoundError } from '@fieldcast/kit';
import type { GrantLookup } from '@fieldcast/runtime';
import { type Catalog, type GridSource, type ModelDef, type ModelVariable, type VariableId, weatherVersion } from '@fieldcast/weather';
import { servedVariables } from '../domain/access.js';
import { modelVariable, type RunIndex, type RunVariable } from '../domain/run-index.js';
import { type Run, runStatus } from '../domain/runs.js';
import { TruthReader, variableTimeSeries } from '../domain/time-series.js';
import type { RunListCache } from '../run-list-cache.js';
import { type SeriesCache, seriesKey } from '../series-cache.js';
import type { SyncedRuns } from '../synced-runs.js';

/** What the model area's operations read: the catalog's models, the runs derived from them, the synced sources, the weather, the clock. */
export interface ModelRouteDeps {
  catalog: Catalog;
  runs: RunIndex;
  /** the synced sources' models and runs (docs/decisions/0255-synced-runs-as-models.md) */
  synced: SyncedRuns;
  /** whether the catalog's synthetic models are served (FIELDCAST_SYNTHETIC, docs/decisions/0256-synthetic-off.md) */
  synthetic: boolean;
  weather: GridSource;
  /** the area's copy of the platform's grants of restricted products (docs/decisions/0429-model-variables-follow-product-grants.md) */
  grants: GrantLookup;
  now: () => Date;
  /** computed series by run, variable, point and valid times */
  series: SeriesCache;
  /** run lists until they change */
  lists: RunListCache;
}

/** A model and its runs at the instant asked, newest first. */
export interface FoundModel {
  model: ModelDef;
  runs: readonly Run[];
  /** a synced source's model, whose runs change with what is stored rather than with the clock */
  synced: boolean;
}

/** Every model served: the catalog's (unless the synthetic world is off), then the synced sources'. */
export async function servedModels(deps: ModelRouteDeps): Promise<ModelDef[]> {
  const synced = (await deps.synced.models(deps.now().getTime())).map((m) => m.model);
  return [...(deps.synthetic ? deps.catalog.models() : []), ...synced];
}

/** A model by id or name with its runs at nowMs, or 404 model_does_not_exist. */
export async function modelOf(deps: ModelRouteDeps, idOrName: string, nowMs: number): Promise<FoundModel> {
  const m = deps.synthetic ? deps.catalog.model(idOrName) : undefined;
  if (m) return { model: m, runs: deps.runs.runsOf(m, nowMs), synced: false };
  const synced = await deps.synced.model(idOrName, nowMs);
  if (synced) return { ...synced, synced: true };
  throw new NotFoundError('model', idOrName);
}

/** A run by id at nowMs, or 404 forecast_does_not_exist. */
export async function runOf(deps: ModelRouteDeps, id: string, nowMs: number): Promise<Run> {
  const run = (deps.synthetic ? deps.runs.run(id, nowMs) : undefined) ?? (await deps.synced.run(id, nowMs));
  if (!run) throw new NotFoundError('forecast', id);
  return run;
}

/** The model's variables the account is served, in the model's order (docs/decisions/0429-model-variables-follow-product-grants.md). */
export function variablesFor(deps: ModelRouteDeps, model: ModelDef, accountId: string): Promise<ModelVariable[]> {
  return servedVariables(deps.catalog, deps.grants, accountId, model.variables);
}

/** Whether the account is served the variable: one it is not is as missing as an unknown one (docs/decisions/0121-product-access.md). */
async function served(deps: ModelRouteDeps, variable: ModelVariable, accountId: string): Promise<boolean> {
  return (await servedVariables(deps.catalog, deps.grants, accountId, [variable])).length === 1;
}

/** A run's variable by id at nowMs as the account sees it, or 404 variable_does_not_exist. */
export async function runVariableOf(deps: ModelRouteDeps, id: string, nowMs: number, accountId: string): Promise<RunVariable> {
  const found = (deps.synthetic ? deps.runs.variable(id, nowMs) : undefined) ?? (await deps.synced.variable(id, nowMs));
  if (!found || !(await served(deps, found.variable, accountId))) throw new NotFoundError('variable', id);
  return found;
}

/** A run's variable by name as the account sees it, or 404 variable_does_not_exist. */
export async function runVariableNamed(deps: ModelRouteDeps, run: Run, name: string, accountId: string): Promise<ModelVariable> {
  const variable = modelVariable(run.model, name);
  if (!variable || !(await served(deps, variable, accountId)))
    throw new NotFoundError('variable', name, `Model ${run.model.name} has no variable ${name}`);
  return variable;
}

/**
 * What a run's series read at a point: the weather served (a synthetic run adds its error to it),
 * or a synced run's own store, which exists while the run is COMPLETE; before (its steps are
 * staged) and after (retention removed it) its values are not served: 404 forecast_values_does_not_exist.
 */
export async function truthFor(
  deps: ModelRouteDeps,
  run: Run,
  point: { latitude: number; longitude: number },
  validMs: readonly number[],
  nowMs: number,
): Promise<TruthReader> {
  if (!run.synced) return new TruthReader(deps.weather, point.latitude, point.longitude, validMs);
  if (!run.synced.store)
    throw new NotFoundError(
      'forecast_values',
      run.id,
      `Forecast ${run.id} of model ${run.model.name} is ${runStatus(run, nowMs)}: a synced run's values are served while it is COMPLETE`,
    );
  const store = await deps.synced.store(run.synced.store);
  const held = (variable: VariableId) => {
    const time = store.arrayFor(variable)?.time;
    return time ? { startMs: time.startMs, endMs: time.startMs + (time.length - 1) * time.stepMs } : null;
  };
  return new TruthReader(store, point.latitude, point.longitude, validMs, held);
}

/** The JSON text of one variable's per-variable object (spec 2.8), from the cache or computed. */
export function seriesJson(
  deps: ModelRouteDeps,
  run: Run,
  variable: ModelVariable,
  point: { latitude: number; longitude: number },
  validMs: readonly number[],
  truth: TruthReader,
): Promise<string> {
  const key = seriesKey(weatherVersion(deps.weather), run.id, variable.name, point.latitude, point.longitude, validMs);
  return deps.series.get(key, async () =>
    JSON.stringify(await variableTimeSeries(run, variable, point.latitude, point.longitude, validMs, truth)),
  );
}
