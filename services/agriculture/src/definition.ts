import { Api } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';
import { fieldsMigration } from '../migrations/001_fields.js';
import { idempotencyKeysMigration } from '../migrations/002_idempotency_keys.js';
import { keptAnswerTagsMigration } from '../migrations/003_kept_answer_tags.js';
import { degreeDayComputer, DEGREE_DAY_WORKER } from './degree-day-compute.js';
import { chillRoutes } from './routes/chill.js';
import { fieldRoutes } from './routes/fields.js';
import { pointResults } from './point-results.js';
import { growingDegreeDayRoutes } from './routes/growing-degree-days.js';
import { AREA, FIELDS_TOPIC, FieldStore } from './store.js';

/** The agriculture service: what `fieldcast serve agriculture` and the embedded fleet run. */
export const agricultureService = defineService({
  area: AREA,
  port: 1,
  workers: [DEGREE_DAY_WORKER],
  title: 'Agriculture',
  description: 'Fields, growing degree days (spec 4.1, 4.2) and winter chill.',
  needs: {
    database: { migrations: [fieldsMigration, idempotencyKeysMigration, keptAnswerTagsMigration] },
    outbox: { topics: [FIELDS_TOPIC] },
    weather: true,
  },
  api(deps) {
    const fields = new FieldStore(deps.db.knex, deps.outbox, deps.now, { soleWriter: deps.db.kind === 'pglite' });
    const computer = degreeDayComputer(deps.weather, { threads: deps.computeThreads });
    const degreeDays = growingDegreeDayRoutes(fieldRoutes(new Api(), fields), {
      fields,
      weather: deps.weather,
      now: deps.now,
      computer,
      points: pointResults(),
    });
    return {
      api: chillRoutes(degreeDays, { fields, weather: deps.weather, now: deps.now, computer, points: pointResults() }),
      close: () => computer.close(),
      // its compute threads, started with the service so the first request does not wait for them
      warm: computer.prestart,
    };
  },
});
