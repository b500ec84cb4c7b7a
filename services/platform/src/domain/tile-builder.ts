/**
 * The tile-building application of spec 6 (docs/decisions/0122-frame-and-run-events.md): while
 * the platform service runs, each product with frames has a job that builds its frames; when a
 * new frame becomes available the job announces it, and each forecast run's life-cycle steps are
 * announced too. Announcements go through the outbox as public resource events worded by the
 * emitter (docs/decisions/0123-events-described-by-their-emitter.md).
 */
import { fieldcastId } from '@fieldcast/ids';
import {
  analysisEndMs,
  analysisFrame,
  type FrameRecord,
  frameRecord,
  productRun,
  productTimeRange,
  type ProductDef,
  type ProductRun,
  forecastRunSchedule,
  type ZoomLevels,
} from '@fieldcast/weather';
import { forecastRecord, type ForecastRecord } from './records.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Frames announced per product in one pass at most; beyond it (a suspended process) only the newest are. */
export const MAX_FRAMES_PER_PASS = 48;

export type RunStage = 'initializing' | 'incomplete' | 'completed' | 'expired';

/** The job of a product's tile builder: UUID v5 of `tile-job:<product>`, the same in every process. */
export function tileJobId(p: Pick<ProductDef, 'name'>): string {
  return fieldcastId('tile-job', p.name);
}

/** One announcement: what the outbox relays. */
export interface Announcement {
  topic: 'frames' | 'forecasts';
  /** the frame or run id */
  subject: string;
  action: 'created' | RunStage;
  timeMs: number;
  resource: FrameRecord | ForecastRecord;
  related: { namespace: string; id: string }[];
  event: { origin: { namespace: string; id: string }; namespace: string; message: string };
}

const JOBS = 'platform/jobs';
const FRAMES = 'platform/frames';
const FORECASTS = 'platform/forecasts';
const PRODUCTS = 'platform/products';

/** A frame became available: job, frame and product tagged, in that order. */
export function frameAnnouncement(p: ProductDef, validMs: number, zoom: ZoomLevels): Announcement {
  const frame = analysisFrame(p, validMs);
  return {
    topic: 'frames',
    subject: frame.id,
    action: 'created',
    timeMs: validMs,
    resource: frameRecord(frame, zoom),
    related: [
      { namespace: FRAMES, id: frame.id },
      { namespace: PRODUCTS, id: p.id },
    ],
    event: {
      origin: { namespace: JOBS, id: tileJobId(p) },
      namespace: `${FRAMES}/created`,
      message: 'Job {} built frame {} of product {}',
    },
  };
}

const STAGE_MESSAGES: Record<RunStage, string> = {
  initializing: 'Job {} is initializing forecast {} of product {}',
  incomplete: 'Job {} is building the frames of forecast {} of product {}',
  completed: 'Job {} completed forecast {} of product {}',
  expired: 'Job {} expired forecast {} of product {}',
};

/** When each stage of a run is reached: the statuses of its life cycle (the weather package's runLifeCycle). */
export function runStageTimes(run: ProductRun): Record<RunStage, number> {
  return { initializing: run.initMs, incomplete: run.producingMs, completed: run.creationMs, expired: run.expirationMs };
}

export function runAnnouncement(p: ProductDef, run: ProductRun, stage: RunStage): Announcement {
  return {
    topic: 'forecasts',
    subject: run.id,
    action: stage,
    timeMs: runStageTimes(run)[stage],
    resource: forecastRecord(p, run),
    related: [
      { namespace: FORECASTS, id: run.id },
      { namespace: PRODUCTS, id: p.id },
    ],
    event: { origin: { namespace: JOBS, id: tileJobId(p) }, namespace: `${FORECASTS}/${stage}`, message: STAGE_MESSAGES[stage] },
  };
}

/**
 * The run-stage announcements of a product with time in (fromMs, toMs], oldest first. Runs
 * reaching a stage in that window started at most their retention before it.
 */
export function runAnnouncementsBetween(p: ProductDef, fromMs: number, toMs: number): Announcement[] {
  const schedule = forecastRunSchedule(p);
  if (!schedule || toMs <= fromMs) return [];
  const every = schedule.everyHours * HOUR_MS;
  const start = Date.parse(p.startTime);
  const out: Announcement[] = [];
  const first = Math.max(Math.ceil(start / every), Math.floor((fromMs - schedule.retentionHours * HOUR_MS) / every));
  for (let k = first; k * every <= toMs; k++) {
    const run = productRun(p, k * every);
    const times = runStageTimes(run);
    for (const stage of Object.keys(times) as RunStage[]) {
      if (times[stage] > fromMs && times[stage] <= toMs) out.push(runAnnouncement(p, run, stage));
    }
  }
  return out.sort((a, b) => a.timeMs - b.timeMs);
}

/** The newest analysis frame of a product available at nowMs, or null. */
export function newestFrameMs(p: ProductDef, nowMs: number): number | null {
  return analysisEndMs(p, nowMs, productTimeRange(p, nowMs).endMs);
}

/**
 * Valid times of the frames to announce when the newest announced is `throughMs` and the newest
 * available is `newestMs`: every one after it, at most MAX_FRAMES_PER_PASS (the newest of them).
 */
export function framesToAnnounce(p: ProductDef, throughMs: number, newestMs: number): number[] {
  const step = p.cadenceMinutes * MINUTE_MS;
  const out: number[] = [];
  for (let t = newestMs; t > throughMs && out.length < MAX_FRAMES_PER_PASS; t -= step) out.push(t);
  return out.reverse();
}
