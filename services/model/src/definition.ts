import { Api } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';
import { type Catalog, createCatalog } from '@fieldcast/weather';
import { forecastEventClockMigration } from '../migrations/001_forecast_event_clock.js';
import { RunIndex } from './domain/run-index.js';
import { forecastRoutes } from './routes/forecasts.js';
import { RunListCache } from './run-list-cache.js';
import { SeriesCache } from './series-cache.js';
import { modelRoutes } from './routes/models.js';
import { AREA, FORECASTS_TOPIC, ForecastEventWriter } from './store.js';

export interface ModelServiceOptions {
  /** the catalog's models; its defaults when not given */
  catalog?: Catalog;
  /**
   * How often the life-cycle events of forecast runs are written (docs/decisions/0142-forecast-events-from-the-clock.md);
   * 0 writes none in the background (tests write them with `forecastEventWriter`).
   */
  eventIntervalMs?: number;
}

const DEFAULT_EVENT_INTERVAL_MS = 10_000;

/** Each running instance's event writer and timer, so `stop` ends what its `api` started. */
const running = new WeakMap<object, EventState>();

interface EventState {
  writer: ForecastEventWriter;
  timer: NodeJS.Timeout | null;
  /** the pass under way, if any */
  pass: Promise<unknown>;
  stopped: boolean;
}

/** The writer of a running instance's forecast events, by its dependencies (for tests and operators). */
export function forecastEventWriter(deps: object): ForecastEventWriter | undefined {
  return running.get(deps)?.writer;
}

/** The model service with a given catalog and event interval. */
export function modelServiceWith(options: ModelServiceOptions = {}) {
  const catalog = options.catalog ?? createCatalog();
  const intervalMs = options.eventIntervalMs ?? DEFAULT_EVENT_INTERVAL_MS;
  return defineService({
    area: AREA,
    title: 'Model',
    description: 'Models, forecast runs and their variables, point time series with statistics (spec 2.8, 4.7).',
    needs: { database: { migrations: [forecastEventClockMigration] }, outbox: { topics: [FORECASTS_TOPIC] }, weather: true },
    api(deps) {
      const writer = new ForecastEventWriter(deps.db.knex, deps.outbox, () => catalog.models());
      const state: EventState = { writer, timer: null, pass: Promise.resolve(), stopped: false };
      if (intervalMs > 0) {
        const pass = () => {
          // One pass at a time; a failed pass is logged and the next one tries again from the same point.
          state.pass = state.pass
            .then(() => (state.stopped ? 0 : writer.writeThrough(deps.now().getTime())))
            .catch((err: unknown) => deps.logger.error({ err }, 'writing forecast events failed'));
        };
        state.timer = setInterval(pass, intervalMs);
        state.timer.unref();
        setImmediate(pass);
      }
      running.set(deps, state);
      const routeDeps = {
        catalog,
        runs: new RunIndex(catalog),
        weather: deps.weather,
        now: deps.now,
        series: new SeriesCache(),
        lists: new RunListCache(),
      };
      return forecastRoutes(modelRoutes(new Api(), routeDeps), routeDeps);
    },
    async stop(deps) {
      const state = running.get(deps);
      if (!state) return;
      state.stopped = true;
      if (state.timer) clearInterval(state.timer);
      state.timer = null;
      await state.pass;
    },
  });
}

/** The model service: what `fieldcast serve model` and the embedded fleet run. */
export const modelService = modelServiceWith();
