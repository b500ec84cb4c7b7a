import { Api, type Account } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';
import { PRODUCT_GRANTS_TOPIC } from '@fieldcast/schemas';
import { catalogServed, frameIndexOf, frameZoomLevels, servedWeatherOf, syncedProductsOf } from '@fieldcast/weather';
import { platformMigration } from '../migrations/001_platform.js';
import { Platform } from './domain/platform.js';
import { ANNOUNCE_EVERY_MS, FrameAnnouncer } from './frame-announcer.js';
import { FramePageCache } from './frame-page-cache.js';
import { platformRoutes } from './routes/platform.js';
import { AREA, Announcements, FORECASTS_TOPIC, FRAMES_TOPIC, ProductGrants } from './store.js';

/** The name of the tile-building application's background task (tests run it with `runBackground`). */
export const FRAME_ANNOUNCEMENTS_TASK = 'frame-announcements';
/** The name of the task that publishes every grant again (docs/decisions/0134-product-grants-published-to-the-tiles-area.md). */
export const GRANT_REPUBLISHING_TASK = 'grant-republishing';
/**
 * A day: well inside the broker's retention of a topic (7 days by default), so a reader that
 * starts from the oldest retained message finds every grant.
 */
const REPUBLISH_GRANTS_EVERY_MS = 86_400_000;

const NO_GRANTS: ReadonlySet<string> = new Set();

/** The platform service: what `fieldcast serve platform` and the embedded fleet run. */
export const platformService = defineService({
  area: AREA,
  port: 4,
  title: 'Platform',
  description: 'Products with every filter, frames, forecasts, datapoints and per-account access (spec 2.4, 4.6, 5, 6).',
  needs: {
    database: { migrations: [platformMigration] },
    outbox: { topics: [FRAMES_TOPIC, FORECASTS_TOPIC, PRODUCT_GRANTS_TOPIC] },
    weather: true,
    catalog: true,
  },
  api(deps) {
    const { catalog } = deps;
    // Under FIELDCAST_SYNTHETIC=off the catalog's products are not served, only the synced ones.
    const served = catalogServed(catalog, deps.weather);
    const zoom = frameZoomLevels(deps.weather.grid.dLon);
    const frames = frameIndexOf(served.products());
    // The synced sources' products, when the weather serves synced stores (docs/decisions/0315-synced-sources-as-products.md).
    const syncDir = servedWeatherOf(deps.weather).syncDir;
    const synced = syncDir ? syncedProductsOf(syncDir, catalog.products()) : null;
    const platform = new Platform(served, frames, deps.weather, zoom, synced);
    const grants = new ProductGrants(deps.db.knex, deps.outbox);
    const restricted = catalog.products().some((p) => p.access === 'restricted');
    const api = platformRoutes(new Api(), {
      platform,
      framePages: new FramePageCache(),
      // Without restricted products there is nothing to look up (synced products copy their catalog product's access).
      granted: (account: Account) => (restricted ? grants.granted(account.id) : Promise.resolve(NO_GRANTS)),
      now: deps.now,
    });
    // The index of every frame id is built at start, not by the first frame looked up (0120); its
    // growth stops with the area, so a closing process is not held by it.
    return { api, close: () => frames.stop(), warm: () => frames.start(deps.now().getTime()) };
  },
  background(deps) {
    const zoom = frameZoomLevels(deps.weather.grid.dLon);
    const announcer = new FrameAnnouncer(
      catalogServed(deps.catalog, deps.weather).products(),
      new Announcements(deps.db.knex),
      deps.outbox,
      zoom,
    );
    const grants = new ProductGrants(deps.db.knex, deps.outbox);
    return [
      {
        name: FRAME_ANNOUNCEMENTS_TASK,
        everyMs: ANNOUNCE_EVERY_MS,
        run: async (nowMs) => {
          await announcer.pass(nowMs);
        },
      },
      // The first pass runs at start: grants made before a reader existed reach it.
      {
        name: GRANT_REPUBLISHING_TASK,
        everyMs: REPUBLISH_GRANTS_EVERY_MS,
        run: async () => {
          await grants.republish();
        },
      },
    ];
  },
});
