import type { Outbox } from '@fieldcast/db';
import { forecastRunSchedule, type ProductDef, type ZoomLevels } from '@fieldcast/weather';
import { type Announcement, frameAnnouncement, framesToAnnounce, newestFrameMs, runAnnouncementsBetween } from './domain/tile-builder.js';
import { AREA, type Announced, type Announcements, FORECASTS_TOPIC, FRAMES_TOPIC } from './store.js';

/** How often the tile-building application looks for new frames and run steps (its background task's period). */
export const ANNOUNCE_EVERY_MS = 10_000;
/**
 * A product last looked at longer ago than this was not being watched (the service was stopped):
 * what appeared meanwhile is not announced, only the newest frame (docs/decisions/0122-frame-and-run-events.md).
 */
const WATCHED_WITHIN_MS = 2 * 60_000;

/**
 * The tile-building application (spec 6), run as the service's background task
 * (docs/decisions/0180-background-tasks.md): each pass, per public product, announces the frames
 * that became available and the forecast-run steps reached since the previous pass, in one
 * transaction with the product's announcement row, so replicas never announce the same thing
 * twice. The runtime runs one pass at a time.
 */
export class FrameAnnouncer {
  private firstPass = true;

  constructor(
    private readonly products: readonly ProductDef[],
    private readonly announcements: Announcements,
    private readonly outbox: Outbox,
    private readonly zoom: ZoomLevels,
  ) {}

  /** One pass over every product at `nowMs`; resolves to the number of announcements made. */
  async pass(nowMs: number): Promise<number> {
    let count = 0;
    // Restricted products are invisible to all but their grantees, and events are public or one account's: they are not announced.
    for (const p of this.products) {
      if (!p.hasFrames || p.access === 'restricted') continue;
      count += await this.announcements.transaction(async (trx) => {
        const before = await this.announcements.lock(trx, p.id);
        const { after, made } = this.plan(p, before, nowMs);
        for (const a of made) await this.outbox.add(trx, a.topic === 'frames' ? FRAMES_TOPIC : FORECASTS_TOPIC, toEvent(a));
        await this.announcements.save(trx, p.id, after);
        return made.length;
      });
    }
    this.firstPass = false;
    return count;
  }

  private plan(p: ProductDef, before: Announced, nowMs: number): { after: Announced; made: Announcement[] } {
    const resumed = this.firstPass && (before.checkedAtMs === null || nowMs - before.checkedAtMs > WATCHED_WITHIN_MS);
    const made: Announcement[] = [];
    let framesThroughMs = before.framesThroughMs;
    const newest = newestFrameMs(p, nowMs);
    if (newest !== null && (framesThroughMs === null || newest > framesThroughMs)) {
      const times = resumed || framesThroughMs === null ? [newest] : framesToAnnounce(p, framesThroughMs, newest);
      made.push(...times.map((t) => frameAnnouncement(p, t, this.zoom)));
      framesThroughMs = newest;
    }
    let runsThroughMs = before.runsThroughMs;
    if (forecastRunSchedule(p)) {
      if (!resumed && runsThroughMs !== null) made.push(...runAnnouncementsBetween(p, runsThroughMs, nowMs));
      runsThroughMs = Math.max(nowMs, runsThroughMs ?? nowMs);
    }
    // In time order, so the feed's arrival order agrees with occurrence times.
    made.sort((a, b) => a.timeMs - b.timeMs);
    return { after: { framesThroughMs, runsThroughMs, checkedAtMs: nowMs }, made };
  }
}

function toEvent(a: Announcement) {
  return {
    area: AREA,
    resource: a.topic === 'frames' ? 'frame' : 'forecast',
    action: a.action,
    subject: a.subject,
    time: new Date(a.timeMs),
    data: { account: null, resource: a.resource, related: a.related, event: a.event },
  };
}
