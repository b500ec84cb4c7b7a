/**
 * The registry of synced runs in the database (docs/decisions/0310-synced-registry-in-the-database.md):
 * what the sync stored, read from its files (packages/sync synced-models.ts), registered in the
 * model schema one step at a time, each step in one transaction with the life-cycle event of the
 * status it moves its run into, and the run's completion with its frames' creation events (a frame
 * exists once its run is published), through the outbox
 * (docs/architecture.md §5). Registration is insert-if-absent on natural keys and an event is
 * written only with a row this transaction inserted, so any number of registrars (the model
 * area's background task in every replica, `fieldcast serve sync` after each pass), restarts and a
 * sync killed mid-run register each step and each transition once.
 */
import type { Knex } from 'knex';
import type { OutboxWriter } from '@fieldcast/db';
import { fieldcastId } from '@fieldcast/ids';
import type { ModelForecastStatus } from '@fieldcast/schemas';
import { type SourceName, type SyncedRun, type SyncedStepFrame, readSyncedModels, syncedStepFrames } from '@fieldcast/sync';
import { isoInstant, type ModelDef, type ProductDef } from '@fieldcast/weather';
import { forecastRecord } from './domain/records.js';
import { type Run, syncedRun } from './domain/runs.js';
import { AREA, FORECASTS_TOPIC, forecastEvent } from './store.js';

/** How often the model area's background task registers the synced stores' files. */
export const SYNCED_REGISTRY_EVERY_MS = 10_000;

/** The name of that background task (tests run it with `runBackground`). */
export const SYNCED_REGISTRY_TASK = 'synced-registry';

/** fieldcast.<area>.<resource> (docs/architecture.md §5): frames the sync job stored. */
export const FRAMES_TOPIC = `fieldcast.${AREA}.frames`;

const STEPS = 'synced_steps';
const STATUSES = 'synced_run_statuses';

/**
 * The sync job of a source, the origin of its frame events (spec 6: "the creation of a frame,
 * emitted by a job resource ... tagged with the job, the product and the frame"): UUID v5 of
 * `sync-job:<source>`, the same in every process.
 */
export function syncJobId(source: SourceName): string {
  return fieldcastId('sync-job', source);
}

/** The creation event of one frame a synced step made: origin the source's sync job, tagged with the frame and its product. */
export function syncedFrameEvent(source: SourceName, run: Run, frame: SyncedStepFrame, atMs: number): Parameters<OutboxWriter['add']>[2] {
  return {
    // One id per frame everywhere, so a consumer that sees it twice stores it once (docs/decisions/0022-derived-ids-uuid-v5.md).
    id: fieldcastId('synced-frame-event', frame.id),
    area: AREA,
    resource: 'frame',
    action: 'created',
    subject: frame.id,
    time: new Date(atMs),
    data: {
      account: null,
      resource: {
        id: frame.id,
        // as the platform writes a frame's times (spec 2.4)
        validTime: isoInstant(frame.validMs),
        runTime: isoInstant(run.initMs),
        forecast: `/forecasts/${frame.forecastId}`,
        product: `/products/${frame.productId}`,
      },
      related: [
        { namespace: 'platform/frames', id: frame.id },
        { namespace: 'platform/products', id: frame.productId },
      ],
      // An area speaks for itself (docs/decisions/0123-events-described-by-their-emitter.md): the job and the namespace are the model area's.
      event: {
        origin: { namespace: 'model/jobs', id: syncJobId(source) },
        namespace: 'model/frames/created',
        message: 'Job {} stored frame {} of product {}',
      },
    },
  };
}

/**
 * The statuses a synced run has passed through, in life-cycle order, as its stored files show:
 * INITIALIZING with its first step, INCOMPLETE with its second, COMPLETE once published, EXPIRED
 * once retention removed it or a newer run was published before it (docs/decisions/0255-synced-runs-as-models.md).
 * A run published with one step never was INCOMPLETE; one given up never was COMPLETE.
 */
export function statusesReached(r: SyncedRun): ModelForecastStatus[] {
  const done = r.status === 'COMPLETE' || (r.status === 'EXPIRED' && !r.abandoned);
  return [
    'INITIALIZING' as const,
    ...(r.steps.length >= 2 ? ['INCOMPLETE' as const] : []),
    ...(done ? ['COMPLETE' as const] : []),
    ...(r.status === 'EXPIRED' ? ['EXPIRED' as const] : []),
  ];
}

/** The status a run's k-th step (from 0) moves it into, if any. */
const statusOfStep = (k: number): ModelForecastStatus | null => (k === 0 ? 'INITIALIZING' : k === 1 ? 'INCOMPLETE' : null);

export interface Registered {
  steps: number;
  transitions: number;
}

export class SyncedRegistry {
  /**
   * The catalog products whose synced frames are announced: a frame event is public, and a
   * restricted product's frames are not announced to everyone (docs/decisions/0121-product-access.md;
   * a synced product takes its catalog product's access).
   */
  private readonly announced: readonly ProductDef[];

  /** `catalogProducts`: the catalog's products, of which each source has products of its own (syncedStepFrames) */
  constructor(
    private readonly knex: Knex,
    private readonly outbox: OutboxWriter,
    catalogProducts: readonly ProductDef[],
  ) {
    this.announced = catalogProducts.filter((p) => p.access !== 'restricted');
  }

  /** Registers what the sync dir holds that is not registered yet; returns what this call registered. */
  async register(syncDir: string, nowMs: number): Promise<Registered> {
    const done: Registered = { steps: 0, transitions: 0 };
    for (const { source, model, runs } of await readSyncedModels(syncDir, nowMs)) {
      // Oldest first, so the feed tells a source's runs in the order they happened.
      for (const s of [...runs].reverse()) {
        const known = await this.known(source, s.initMs);
        if (known.steps.size === s.steps.length && statusesReached(s).every((x) => known.statuses.has(x))) continue;
        const run = syncedRun(model, s);
        const announce = async (trx: Knex.Transaction, steps: readonly number[]) => {
          for (const step of steps)
            for (const frame of syncedStepFrames(source, this.announced, s.initMs, step))
              await this.outbox.add(trx, FRAMES_TOPIC, syncedFrameEvent(source, run, frame, nowMs));
        };
        for (const [k, step] of s.steps.entries()) {
          if (known.steps.has(step)) continue;
          const made = await this.knex.transaction(async (trx) => {
            const inserted = await trx
              .withSchema(AREA)
              .table(STEPS)
              .insert({
                source,
                run: new Date(s.initMs),
                step,
                registered_at: new Date(nowMs),
              })
              .onConflict(['source', 'run', 'step'])
              .ignore()
              .returning('step');
            if (inserted.length === 0) return { steps: 0, transitions: 0 };
            // A step that joins a run already announced complete (synced again with more steps) is announced now.
            if (known.statuses.has('COMPLETE') && s.store) await announce(trx, [step]);
            const status = statusOfStep(k);
            return { steps: 1, transitions: status ? await this.transition(trx, source, model, run, status, nowMs) : 0 };
          });
          done.steps += made.steps;
          done.transitions += made.transitions;
        }
        // Publication and expiry store no step: each is a transaction of its own.
        for (const status of statusesReached(s).filter((x) => x === 'COMPLETE' || x === 'EXPIRED')) {
          if (known.statuses.has(status)) continue;
          done.transitions += await this.knex.transaction(async (trx) => {
            const made = await this.transition(trx, source, model, run, status, nowMs);
            // A frame exists once its run is published (the platform serves it): announced with the completion.
            if (made && status === 'COMPLETE') await announce(trx, s.steps);
            return made;
          });
        }
      }
    }
    return done;
  }

  /** A run's status row and its life-cycle event, when the row is new: 1, else 0. */
  private async transition(
    trx: Knex.Transaction,
    source: SourceName,
    model: ModelDef,
    run: Run,
    status: ModelForecastStatus,
    nowMs: number,
  ): Promise<number> {
    const inserted = await trx
      .withSchema(AREA)
      .table(STATUSES)
      .insert({ source, run: new Date(run.initMs), status, registered_at: new Date(nowMs) })
      .onConflict(['source', 'run', 'status'])
      .ignore()
      .returning('status');
    if (inserted.length === 0) return 0;
    await this.outbox.add(
      trx,
      FORECASTS_TOPIC,
      forecastEvent({ atMs: nowMs, status, model, forecast: { ...forecastRecord(run, nowMs), status } }),
    );
    return 1;
  }

  /** The steps and statuses of a run registered so far (read outside any transaction: a hint, the inserts decide). */
  private async known(source: SourceName, initMs: number): Promise<{ steps: Set<number>; statuses: Set<string> }> {
    const where = { source, run: new Date(initMs) };
    const [steps, statuses] = await Promise.all([
      this.knex.withSchema(AREA).table(STEPS).where(where).select('step') as Promise<Array<{ step: number }>>,
      this.knex.withSchema(AREA).table(STATUSES).where(where).select('status') as Promise<Array<{ status: string }>>,
    ]);
    return { steps: new Set(steps.map((r) => r.step)), statuses: new Set(statuses.map((r) => r.status)) };
  }
}
