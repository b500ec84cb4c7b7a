import { forecastVariableId, type Catalog, type ModelDef, type ModelVariable } from '@fieldcast/weather';
import { existingRuns, type Run } from './runs.js';

const HOUR_MS = 3_600_000;

export interface RunVariable {
  id: string;
  run: Run;
  variable: ModelVariable;
}

interface Index {
  hour: number;
  runs: Map<string, Run>;
  variables: Map<string, RunVariable>;
  /** each model's existing runs, newest first */
  byModel: Map<string, Run[]>;
}

/**
 * Finds runs and run variables by id. Ids are UUID v5 of natural keys and cannot be read
 * backwards, so the ids of every existing run are computed and kept. The set of existing runs
 * is the same for every instant of a UTC hour (runs.ts), so this is one explicit, bounded, keyed
 * cache: one entry, keyed by the hour it holds (docs/decisions/0036-caches.md).
 */
export class RunIndex {
  private cached: Index | null = null;

  constructor(private readonly catalog: Catalog) {}

  private build(hour: number, nowMs: number): Index {
    const runs = new Map<string, Run>();
    const variables = new Map<string, RunVariable>();
    const byModel = new Map<string, Run[]>();
    for (const m of this.catalog.models()) {
      const existing = existingRuns(m, nowMs);
      byModel.set(m.id, existing);
      for (const run of existing) {
        runs.set(run.id, run);
        for (const variable of m.variables) {
          const id = forecastVariableId(run.id, variable.name);
          variables.set(id, { id, run, variable });
        }
      }
    }
    return { hour, runs, variables, byModel };
  }

  private index(nowMs: number): Index {
    const hour = Math.floor(nowMs / HOUR_MS);
    if (this.cached?.hour !== hour) this.cached = this.build(hour, nowMs);
    return this.cached;
  }

  /** The existing run with this id at nowMs. */
  run(id: string, nowMs: number): Run | undefined {
    return this.index(nowMs).runs.get(id);
  }

  /** The runs of a catalog model that exist at nowMs, newest first (runs.ts existingRuns). */
  runsOf(m: ModelDef, nowMs: number): readonly Run[] {
    return this.index(nowMs).byModel.get(m.id) ?? existingRuns(m, nowMs);
  }

  /** The variable of an existing run with this id at nowMs. */
  variable(id: string, nowMs: number): RunVariable | undefined {
    return this.index(nowMs).variables.get(id);
  }
}

/** The variable of m by its name. */
export function modelVariable(m: ModelDef, name: string): ModelVariable | undefined {
  return m.variables.find((v) => v.name === name);
}
