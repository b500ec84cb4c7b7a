/**
 * The synced sources as forecast models (docs/decisions/0255-synced-runs-as-models.md): each
 * source the sync has written to (its registry, or a run's first steps) is a model whose runs are those the sync staged,
 * published and expired, read from the registry and the staging directories. The model area
 * describes them; this module is the one reader of those files for it.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  DEFAULT_MODELS,
  DEFAULT_SYNC_KEEP_DAYS,
  forecastFrameId,
  type ModelDef,
  type ModelVariable,
  modelId,
  type ProductDef,
  productId,
  productRunId,
  readSourceRegistry,
  registryKeepDays,
  type RunStatus,
  syncedProductBases,
  syncedProductName,
  syncedRunExpirationMs,
  syncedRunExpired,
  type VariableId,
} from '@fieldcast/weather';
import { INSTANT_VARIABLES, RATE_VARIABLES } from './run-store.js';
import { type SourceName, SOURCES } from './sources.js';
import { stagedSteps, stagingDirs } from './staging.js';

const HOUR_MS = 3_600_000;

/** One run of a synced source as the model area lists it. */
export interface SyncedRun {
  initMs: number;
  status: RunStatus;
  /** when its first step was stored */
  createdMs: number;
  /** when retention removed it, or the latest it will be (its start plus FIELDCAST_SYNC_KEEP_DAYS) */
  expirationMs: number;
  /** its steps stored, hours after initMs, ascending */
  steps: readonly number[];
  /** its store (absolute) while it is served (COMPLETE), else null */
  store: string | null;
  /** EXPIRED without having been published: given up while it was being staged, for a newer run or at its expirationTime */
  abandoned?: boolean;
}

export interface SyncedModel {
  source: SourceName;
  model: ModelDef;
  /** newest first */
  runs: SyncedRun[];
}

/**
 * A variable's public name, description and unit: those the default models give it, so a synced
 * model's temperature reads as a synthetic model's does. Every variable a run store holds hourly
 * has one (else listing the model fails loudly rather than leave a variable out).
 */
function modelVariable(variable: VariableId): ModelVariable {
  for (const m of DEFAULT_MODELS) {
    const v = m.variables.find((x) => x.variable === variable);
    if (v) return v;
  }
  throw new Error(`no default model names ${variable}`);
}

/** The model of a synced source: its hourly variables (run-store.ts) and its schedule (sources.ts). */
export function syncedModelDef(name: SourceName): ModelDef {
  const source = SOURCES[name];
  const horizonHours = Math.max(...source.runHours.map((h) => source.steps(h).at(-1)!));
  return {
    id: modelId(name),
    name,
    description: `${name} runs synced from its upstream archive (${source.defaultBaseUrl} unless configured)`,
    source: name,
    runEveryHours: 24 / source.runHours.length,
    horizonHours,
    // Run stores hold every variable on an hourly axis (docs/decisions/0250-synced-runs-staged-then-published.md).
    stepHours: 1,
    // A run's statuses come from what is stored, not from a delay (synced-models.ts).
    publishDelayMinutes: 0,
    retentionHours: DEFAULT_SYNC_KEEP_DAYS * 24,
    variables: [...INSTANT_VARIABLES, ...RATE_VARIABLES].map(modelVariable),
  };
}

/**
 * A run being staged: INITIALIZING with its first step, INCOMPLETE from its second until it is
 * published, and EXPIRED unpublished from its expirationTime on, as a published run
 * (syncedRunExpired), whether or not a sync pass has given it up yet
 * (docs/decisions/0372-staged-runs-expire-and-polls-pick-unexpired-runs.md).
 */
async function stagingRuns(sourceDir: string, published: ReadonlySet<number>, keepDays: number, nowMs: number): Promise<SyncedRun[]> {
  const out: SyncedRun[] = [];
  for (const { initMs, dir } of await stagingDirs(sourceDir)) {
    // Published or given up, its staging directory not yet removed: the registry's entry describes it.
    if (published.has(initMs)) continue;
    const steps = await stagedSteps(dir);
    const first = steps[0];
    if (!first) continue;
    const stat = await fs.stat(first.file).catch(() => null);
    // Published and removed between the two reads.
    if (!stat) continue;
    // What the sync's next pass records when it gives the run up (retention.ts abandonedEntry): EXPIRED at its expirationTime.
    const expired = syncedRunExpired(initMs, keepDays, nowMs);
    out.push({
      initMs,
      status: expired ? 'EXPIRED' : steps.length === 1 ? 'INITIALIZING' : 'INCOMPLETE',
      createdMs: stat.mtimeMs,
      expirationMs: syncedRunExpirationMs(initMs, keepDays),
      steps: steps.map((s) => s.step),
      store: null,
      ...(expired ? { abandoned: true } : {}),
    });
  }
  return out;
}

/**
 * Each source with a directory in syncDir (a registry, or a run being staged) as a model with its
 * runs (newest first), in source name order, as they stand at `nowMs`: a run the registry still
 * serves past its expirationTime is EXPIRED from that instant, its store no longer named, whether
 * or not a sync pass has taken it out of the registry yet
 * (docs/decisions/0363-synced-runs-expire-on-the-clock.md), and so is a run still staged
 * (stagingRuns).
 */
export async function readSyncedModels(syncDir: string, nowMs: number = Date.now()): Promise<SyncedModel[]> {
  const out: SyncedModel[] = [];
  for (const name of (Object.keys(SOURCES) as SourceName[]).sort()) {
    const sourceDir = path.join(syncDir, name);
    // A source is a model from its first staged step on, before its first run is published.
    const exists = await fs.stat(sourceDir).catch(() => null);
    if (!exists?.isDirectory()) continue;
    const registry = await readSourceRegistry(sourceDir, name);
    const keepDays = registryKeepDays(registry);
    const runs: SyncedRun[] = [
      ...registry.runs.map((r) => {
        const initMs = Date.parse(r.run);
        // What the sync's next pass records when it takes the run out (retention.ts expiredEntry): EXPIRED at its expirationTime.
        const expired = syncedRunExpired(initMs, keepDays, nowMs);
        return {
          initMs,
          status: expired ? ('EXPIRED' as const) : ('COMPLETE' as const),
          createdMs: Date.parse(r.createdAt ?? r.syncedAt),
          expirationMs: syncedRunExpirationMs(initMs, keepDays),
          steps: r.steps,
          store: expired ? null : path.join(sourceDir, r.path),
        };
      }),
      ...registry.expired.map((e) => ({
        initMs: Date.parse(e.run),
        status: 'EXPIRED' as const,
        createdMs: Date.parse(e.createdAt),
        expirationMs: Date.parse(e.at),
        steps: e.steps,
        store: null,
        ...(e.abandoned ? { abandoned: true } : {}),
      })),
    ];
    const known = new Set(runs.map((r) => r.initMs));
    runs.push(...(await stagingRuns(sourceDir, known, keepDays, nowMs)));
    out.push({ source: name, model: syncedModelDef(name), runs: runs.sort((a, b) => b.initMs - a.initMs) });
  }
  return out;
}

/** A synced run's valid times: its init time plus each stored step. */
export const syncedValidTimes = (r: SyncedRun): number[] => r.steps.map((h) => r.initMs + h * HOUR_MS);

/** A frame a synced step made: of the source's product made from one catalog product (docs/decisions/0315-synced-sources-as-products.md). */
export interface SyncedStepFrame {
  /** `<source>.<catalog product>` */
  product: string;
  productId: string;
  /** the product's forecast (platform area) of the run */
  forecastId: string;
  id: string;
  validMs: number;
}

/**
 * The frames a synced step made: one per product of the source whose variable the step gives a
 * value to (run-store.ts: instants at every step, mean rates from the first hour's end on, so not
 * at step 0), each with the id of its natural key (product, run, valid time) as for every
 * forecast frame, so the events of the sync and the platform's frames name the same frames in
 * every process (docs/decisions/0310-synced-registry-in-the-database.md).
 */
export function syncedStepFrames(
  source: SourceName,
  catalogProducts: readonly ProductDef[],
  initMs: number,
  step: number,
): SyncedStepFrame[] {
  const validMs = initMs + step * HOUR_MS;
  const given = (v: VariableId) => INSTANT_VARIABLES.includes(v) || (RATE_VARIABLES.includes(v) && step > 0);
  return syncedProductBases(catalogProducts, given).map((base) => {
    const product = { name: syncedProductName(source, base) };
    return {
      product: product.name,
      productId: productId(product.name),
      forecastId: productRunId(product, initMs),
      id: forecastFrameId(product, initMs, validMs),
      validMs,
    };
  });
}
