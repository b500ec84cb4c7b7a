import { NotFoundError } from '@fieldcast/kit';
import type { Catalog, GridSource, ModelDef } from '@fieldcast/weather';
import type { RunIndex } from '../domain/run-index.js';

/** What the model area's operations read: the catalog's models, the runs derived from them, the weather, the clock. */
export interface ModelRouteDeps {
  catalog: Catalog;
  runs: RunIndex;
  weather: GridSource;
  now: () => Date;
}

/** A model by id or name, or 404 model_does_not_exist. */
export function modelOf(deps: ModelRouteDeps, idOrName: string): ModelDef {
  const m = deps.catalog.model(idOrName);
  if (!m) throw new NotFoundError('model', idOrName);
  return m;
}
