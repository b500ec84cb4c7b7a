import { trustedProxyRanges } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';
import { STORM_REPORTS_TOPIC } from '@fieldcast/schemas';
import { usersMigration } from '../migrations/001_users.js';
import { stormReportsMigration } from '../migrations/002_storm_reports.js';
import { stormReportDaysMigration } from '../migrations/003_storm_report_days.js';
import { blockDrawer, BLOCKS_WORKER } from './blocks-compute.js';
import { SevereEventBlocks } from './domain/event-blocks.js';
import { StormReportStore } from './report-store.js';
import { archiveRoutes } from './routes/archive.js';
import { AREA, ArchiveUserStore } from './store.js';

/** The archive service: what `fieldcast serve archive` and the embedded fleet run. */
export const archiveService = defineService({
  area: AREA,
  port: 9,
  workers: [BLOCKS_WORKER],
  title: 'Archive',
  description:
    'Severe-weather history under /v2 (docs/interface.md §11): hailsize, hailprob, tornado, gustdur, lightning and stormreports; summary, latest and history at an ISO 6709 point or region; JSON (GeoJSON for places), XML and KML; access by u, t and a registered address. Events are the synthetic world’s, with storm reports ingested from report files (fieldcast archive ingest-reports).',
  needs: {
    database: { migrations: [usersMigration, stormReportsMigration, stormReportDaysMigration] },
    // each ingestion's announcement (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md)
    outbox: { topics: [STORM_REPORTS_TOPIC] },
    compute: true,
  },
  api(deps) {
    const drawer = blockDrawer(deps.computeThreads);
    const api = archiveRoutes({
      users: new ArchiveUserStore(deps.db.knex, deps.now),
      blocks: new SevereEventBlocks(undefined, drawer.draw),
      reports: new StormReportStore(deps.db.knex, deps.outbox, deps.now),
      trustedProxies: trustedProxyRanges(deps.trustedProxies),
      vendor: deps.vendor,
      now: deps.now,
    });
    // its compute threads, started with the service so the first request does not wait for them
    return { api, close: () => drawer.close(), warm: drawer.prestart };
  },
  // The days stored by a release that did not announce them, announced once while a rule may
  // still read them (docs/decisions/0501-storm-report-days-announced-once-and-pruned.md): the
  // first pass at the service's start; the later ones find nothing unless a CLI of such a release
  // stored a day since. Each day's revision row makes it once across replicas and restarts.
  background: (deps) => [
    {
      name: 'storm-report-days',
      everyMs: 3_600_000,
      run: async (nowMs) => {
        const announced = await new StormReportStore(deps.db.knex, deps.outbox, deps.now).announceUnannouncedDays(nowMs);
        if (announced > 0) deps.logger.info({ announced }, 'announced the stored days of storm reports never announced');
      },
    },
  ],
});
