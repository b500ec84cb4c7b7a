import { Api } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';
import { observationSetsMigration } from '../migrations/001_observation_sets.js';
import { accountVersionsMigration } from '../migrations/002_account_versions.js';
import { idempotencyKeysMigration } from '../migrations/003_idempotency_keys.js';
import { keptAnswerTagsMigration } from '../migrations/004_kept_answer_tags.js';
import { observationSetRoutes } from './routes/observation-sets.js';
import { AREA, ObservationSetStore, SETS_TOPIC } from './store.js';

/** The observations service: what `fieldcast serve observations` and the embedded fleet run. */
export const observationsService = defineService({
  area: AREA,
  port: 6,
  title: 'Observations',
  description: 'Observation sets: publish, list by period, read back as submitted (spec 2.9, 4.8).',
  needs: {
    database: { migrations: [observationSetsMigration, accountVersionsMigration, idempotencyKeysMigration, keptAnswerTagsMigration] },
    outbox: { topics: [SETS_TOPIC] },
  },
  // The embedded PGlite has one writer, this process: its kept list pages need no version read (docs/decisions/0154-observation-list-cache.md).
  api: (deps) =>
    observationSetRoutes(
      new Api(),
      new ObservationSetStore(deps.db, deps.outbox, { soleWriter: deps.db.kind === 'pglite', now: deps.now }),
    ),
});
