import { Api } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';
import { assetsMigration } from '../migrations/001_assets.js';
import { idempotencyKeysMigration } from '../migrations/002_idempotency_keys.js';
import { keptAnswerTagsMigration } from '../migrations/003_kept_answer_tags.js';
import { assetRoutes } from './routes/assets.js';
import { hourlyRoutes } from './routes/hourly.js';
import { seriesTextCache } from './series-cache.js';
import { seriesComputer, SERIES_WORKER } from './series-compute.js';
import { AREA, ASSETS_TOPIC, AssetStore } from './store.js';

/** The insight service: what `fieldcast serve insight` and the embedded fleet run. */
export const insightService = defineService({
  area: AREA,
  port: 3,
  workers: [SERIES_WORKER],
  title: 'Insight',
  description: 'Assets, hourly relative humidity and hourly short-crop reference evapotranspiration (spec 4.4, 4.5).',
  needs: {
    database: { migrations: [assetsMigration, idempotencyKeysMigration, keptAnswerTagsMigration] },
    outbox: { topics: [ASSETS_TOPIC] },
    weather: true,
  },
  api(deps) {
    const assets = new AssetStore(deps.db.knex, deps.outbox, deps.now);
    const computer = seriesComputer(deps.weather, deps.computeThreads);
    const api = hourlyRoutes(assetRoutes(new Api(), assets), {
      assets,
      weather: deps.weather,
      now: deps.now,
      computer,
      pointTexts: seriesTextCache(),
    });
    // its compute threads, started with the service so the first request does not wait for them
    return { api, close: () => computer.close(), warm: computer.prestart };
  },
});
