import { NotFoundError } from '@fieldcast/kit';
import type { Catalog, GridSource, ModelDef, ModelVariable } from '@fieldcast/weather';
import type { RunIndex } from '../domain/run-index.js';
import type { Run } from '../domain/runs.js';
import { type TruthReader, variableTimeSeries } from '../domain/time-series.js';
import type { RunListCache } from '../run-list-cache.js';
import { type SeriesCache, seriesKey } from '../series-cache.js';

/** What the model area's operations read: the catalog's models, the runs derived from them, the weather, the clock. */
export interface ModelRouteDeps {
  catalog: Catalog;
  runs: RunIndex;
  weather: GridSource;
  now: () => Date;
  /** computed series by run, variable, point and valid times */
  series: SeriesCache;
  /** run lists until they change */
  lists: RunListCache;
}

/** A model by id or name, or 404 model_does_not_exist. */
export function modelOf(deps: ModelRouteDeps, idOrName: string): ModelDef {
  const m = deps.catalog.model(idOrName);
  if (!m) throw new NotFoundError('model', idOrName);
  return m;
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
  const key = seriesKey(run.id, variable.name, point.latitude, point.longitude, validMs);
  return deps.series.get(key, async () =>
    JSON.stringify(await variableTimeSeries(run, variable, point.latitude, point.longitude, validMs, truth)),
  );
}
