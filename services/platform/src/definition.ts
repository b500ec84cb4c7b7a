import { Api, type Account } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';
import { createCatalog, FrameIndex, frameZoomLevels } from '@fieldcast/weather';
import { platformMigration } from '../migrations/001_platform.js';
import { Platform } from './domain/platform.js';
import { ANNOUNCE_EVERY_MS, FrameAnnouncer } from './frame-announcer.js';
import { platformRoutes } from './routes/platform.js';
import { AREA, Announcements, FORECASTS_TOPIC, FRAMES_TOPIC, ProductGrants } from './store.js';

/** The name of the tile-building application's background task (tests run it with `runBackground`). */
export const FRAME_ANNOUNCEMENTS_TASK = 'frame-announcements';

const NO_GRANTS: ReadonlySet<string> = new Set();

/** The platform service: what `fieldcast serve platform` and the embedded fleet run. */
export const platformService = defineService({
  area: AREA,
  title: 'Platform',
  description: 'Products with every filter, frames, forecasts, datapoints and per-account access (spec 2.4, 4.6, 5, 6).',
  needs: {
    database: { migrations: [platformMigration] },
    outbox: { topics: [FRAMES_TOPIC, FORECASTS_TOPIC] },
    weather: true,
  },
  api(deps) {
    const catalog = createCatalog();
    const zoom = frameZoomLevels(deps.weather.grid.dLon);
    const platform = new Platform(catalog, new FrameIndex(catalog.products()), deps.weather, zoom);
    const grants = new ProductGrants(deps.db.knex);
    const restricted = catalog.products().some((p) => p.access === 'restricted');
    return platformRoutes(new Api(), {
      platform,
      // Without restricted products there is nothing to look up.
      granted: (account: Account) => (restricted ? grants.granted(account.id) : Promise.resolve(NO_GRANTS)),
      now: deps.now,
    });
  },
  background(deps) {
    const zoom = frameZoomLevels(deps.weather.grid.dLon);
    const announcer = new FrameAnnouncer(createCatalog().products(), new Announcements(deps.db.knex), deps.outbox, zoom);
    return [
      {
        name: FRAME_ANNOUNCEMENTS_TASK,
        everyMs: ANNOUNCE_EVERY_MS,
        run: async (nowMs) => {
          await announcer.pass(nowMs);
        },
      },
    ];
  },
});
