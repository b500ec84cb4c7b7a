import { readSyncedModels } from '@fieldcast/sync';
import { forecastVariableId, type ModelDef, ZarrSource } from '@fieldcast/weather';
import type { RunVariable } from './domain/run-index.js';
import { type Run, syncedRun } from './domain/runs.js';

/** How long a store no longer served stays open for the reads begun on it (as the weather's ReloadingSource). */
const CLOSE_AFTER_MS = 60_000;

export interface SyncedModelRuns {
  model: ModelDef;
  /** newest first */
  runs: Run[];
}

/**
 * The models of the synced sources and their runs (docs/decisions/0255-synced-runs-as-models.md),
 * read from the sync dir at each request: their statuses change whenever the sync stages or
 * publishes a step, which no clock predicts, and the reads are a few small files. A registry that
 * cannot be read (cut short, or written by another version) leaves the models last read, as the
 * weather served keeps its stores (reloading-source.ts, which reports it). A served run's time
 * series read its own store, opened once and closed once the run is no longer served.
 */
export class SyncedRuns {
  private readonly stores = new Map<string, Promise<ZarrSource>>();
  private last: SyncedModelRuns[] = [];

  constructor(private readonly syncDir: string | undefined) {}

  /**
   * The synced models and their runs at `nowMs`: a run past its expirationTime reads EXPIRED and
   * its store is not served, whether or not the sync has run since
   * (docs/decisions/0363-synced-runs-expire-on-the-clock.md).
   */
  async models(nowMs: number): Promise<SyncedModelRuns[]> {
    if (!this.syncDir) return [];
    const read = await readSyncedModels(this.syncDir, nowMs).catch(() => null);
    if (!read) return this.last;
    const models = read.map(({ model, runs }) => ({ model, runs: runs.map((r) => syncedRun(model, r)) }));
    this.last = models;
    this.closeUnserved(new Set(models.flatMap((m) => m.runs.flatMap((r) => (r.synced?.store ? [r.synced.store] : [])))));
    return models;
  }

  /** A synced model by id or name, with its runs. */
  async model(idOrName: string, nowMs: number): Promise<SyncedModelRuns | undefined> {
    const id = idOrName.toLowerCase();
    return (await this.models(nowMs)).find((m) => m.model.id === id || m.model.name === idOrName);
  }

  /** A run of a synced model by its id. */
  async run(id: string, nowMs: number): Promise<Run | undefined> {
    for (const m of await this.models(nowMs)) {
      const run = m.runs.find((r) => r.id === id);
      if (run) return run;
    }
    return undefined;
  }

  /** A variable of a run of a synced model by its id. */
  async variable(id: string, nowMs: number): Promise<RunVariable | undefined> {
    for (const m of await this.models(nowMs))
      for (const run of m.runs)
        for (const variable of m.model.variables) if (forecastVariableId(run.id, variable.name) === id) return { id, run, variable };
    return undefined;
  }

  /** The store of a served (COMPLETE) run. */
  store(location: string): Promise<ZarrSource> {
    let store = this.stores.get(location);
    if (!store) {
      store = ZarrSource.open(location);
      this.stores.set(location, store);
      // A store that failed to open is tried again by the next request.
      store.catch(() => this.stores.delete(location));
    }
    return store;
  }

  private closeUnserved(served: ReadonlySet<string>): void {
    for (const [location, store] of this.stores) {
      if (served.has(location)) continue;
      this.stores.delete(location);
      setTimeout(() => void store.then((s) => s.close()).catch(() => undefined), CLOSE_AFTER_MS).unref();
    }
  }
}
