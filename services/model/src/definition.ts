import { Api } from '@fieldcast/kit';
import { defineService, ProductGrantCopy, productGrantsConsumer } from '@fieldcast/runtime';
import { servedWeatherOf } from '@fieldcast/weather';
import { forecastEventClockMigration } from '../migrations/001_forecast_event_clock.js';
import { syncedRegistryMigration } from '../migrations/002_synced_registry.js';
import { productGrantsMigration } from '../migrations/003_product_grants.js';
import { RunIndex } from './domain/run-index.js';
import { forecastRoutes } from './routes/forecasts.js';
import { RunListCache } from './run-list-cache.js';
import { seriesCache } from './series-cache.js';
import { FRAMES_TOPIC, SYNCED_REGISTRY_EVERY_MS, SYNCED_REGISTRY_TASK, SyncedRegistry } from './synced-registry.js';
import { SyncedRuns } from './synced-runs.js';
import { modelRoutes } from './routes/models.js';
import { AREA, FORECASTS_TOPIC, ForecastEventWriter } from './store.js';

/** How often the life-cycle events of forecast runs are written (docs/decisions/0142-forecast-events-from-the-clock.md). */
export const FORECAST_EVENTS_EVERY_MS = 10_000;

/** The name of the forecast events' background task (tests run it with `runBackground`). */
export const FORECAST_EVENTS_TASK = 'forecast-events';

/** The model service: what `fieldcast serve model` and the embedded fleet run. */
export const modelService = defineService({
  area: AREA,
  port: 5,
  title: 'Model',
  description: 'Models, forecast runs and their variables, point time series with statistics (spec 2.8, 4.7).',
  needs: {
    database: { migrations: [forecastEventClockMigration, syncedRegistryMigration, productGrantsMigration] },
    outbox: { topics: [FORECASTS_TOPIC, FRAMES_TOPIC] },
    weather: true,
    catalog: true,
  },
  api(deps) {
    const { catalog } = deps;
    const served = servedWeatherOf(deps.weather);
    const routeDeps = {
      catalog,
      runs: new RunIndex(catalog),
      synced: new SyncedRuns(served.syncDir),
      synthetic: served.synthetic,
      weather: deps.weather,
      grants: new ProductGrantCopy(deps.db.knex, AREA),
      now: deps.now,
      series: seriesCache(),
      lists: new RunListCache(),
    };
    return forecastRoutes(modelRoutes(new Api(), routeDeps), routeDeps);
  },
  // A variable over a restricted product's variable is served to the accounts the platform area granted it (docs/decisions/0429-model-variables-follow-product-grants.md).
  consumers(deps) {
    return [productGrantsConsumer(AREA, new ProductGrantCopy(deps.db.knex, AREA), deps.logger)];
  },
  background(deps) {
    // A failed pass writes nothing (one transaction); the next tries again from the same point.
    // FIELDCAST_SYNTHETIC=off: the synthetic models are not served, so their runs make no events.
    const { synthetic, syncDir } = servedWeatherOf(deps.weather);
    const writer = new ForecastEventWriter(deps.db.knex, deps.outbox, () => (synthetic ? deps.catalog.models() : []));
    const tasks = [
      {
        name: FORECAST_EVENTS_TASK,
        everyMs: FORECAST_EVENTS_EVERY_MS,
        run: async (nowMs: number) => {
          await writer.writeThrough(nowMs);
        },
      },
    ];
    // The serving fleet registers what any sync stored, embedded (one writer: this process) or distributed.
    if (syncDir) {
      const registry = new SyncedRegistry(deps.db.knex, deps.outbox, deps.catalog.products());
      tasks.push({
        name: SYNCED_REGISTRY_TASK,
        everyMs: SYNCED_REGISTRY_EVERY_MS,
        run: async (nowMs: number) => {
          await registry.register(syncDir, nowMs);
        },
      });
    }
    return tasks;
  },
});
