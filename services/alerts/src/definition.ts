import type { Knex } from 'knex';
import type { OutboxWriter } from '@fieldcast/db';
import { Api, type Logger } from '@fieldcast/kit';
import type { GridSource } from '@fieldcast/weather';
import { defineService } from '@fieldcast/runtime';
import { alertsMigration } from '../migrations/001_alerts.js';
import { hourlyPassesMigration } from '../migrations/002_hourly_passes.js';
import { idempotencyKeysMigration } from '../migrations/003_idempotency_keys.js';
import { keptAnswerTagsMigration } from '../migrations/004_kept_answer_tags.js';
import { stormReportsMigration } from '../migrations/005_storm_reports.js';
import { stormReportsConsumer, targetsConsumer, weatherConsumer } from './consumers.js';
import { gridAlertWeather } from './domain/alert-weather.js';
import { Evaluator } from './evaluator.js';
import { ruleRoutes } from './routes/rules.js';
import { StormReportCopy } from './storm-report-copy.js';
import { AREA, RULES_TOPIC, RuleStates, RuleStore, TargetCopies } from './store.js';

interface EvaluatorDeps {
  db: { knex: Knex };
  outbox: OutboxWriter;
  weather: GridSource;
  logger: Logger;
}

/** One evaluator per process's service, shared by its timer and its consumer so their passes take turns. */
const evaluators = new WeakMap<EvaluatorDeps, { evaluator: Evaluator; states: RuleStates }>();
function evaluatorOf(deps: EvaluatorDeps): { evaluator: Evaluator; states: RuleStates } {
  let made = evaluators.get(deps);
  if (!made) {
    const states = new RuleStates(deps.db.knex, deps.outbox);
    const weather = gridAlertWeather(deps.weather, new StormReportCopy(deps.db.knex));
    made = { evaluator: new Evaluator(states, weather, deps.logger), states };
    evaluators.set(deps, made);
  }
  return made;
}

/** How often a replica asks for the clock hour's timed pass: the most a pass starts after its hour. */
const CLAIM_EVERY_MS = 60_000;

/** How often the copy of the archive's storm reports forgets the days no rule reads: a day's worth of them is a few thousand rows at most. */
const STORM_REPORTS_PRUNED_EVERY_MS = 3_600_000;

/** The alerts service: what `fieldcast serve alerts` and the embedded fleet run. */
export const alertsService = defineService({
  area: AREA,
  port: 10,
  title: 'Alerts',
  description: 'Alert rules on fields and assets, evaluated as the weather changes; their events in the owner’s feeds.',
  needs: {
    database: {
      migrations: [alertsMigration, hourlyPassesMigration, idempotencyKeysMigration, keptAnswerTagsMigration, stormReportsMigration],
    },
    outbox: { topics: [RULES_TOPIC] },
    weather: true,
  },
  api: (deps) => ruleRoutes(new Api(), new RuleStore(deps.db.knex, deps.outbox, deps.now)),
  consumers: (deps) => [
    targetsConsumer(new TargetCopies(deps.db.knex, deps.outbox), deps.logger),
    weatherConsumer(evaluatorOf(deps).evaluator, deps.now),
    stormReportsConsumer(new StormReportCopy(deps.db.knex), evaluatorOf(deps).evaluator, deps.now, deps.logger),
  ],
  // The rules are evaluated at least hourly, whatever the weather areas announce (0271): each
  // replica's timer asks every minute, and the first to claim a clock hour runs its pass (0357),
  // so each hour's pass starts within a minute of the hour, however long the last pass took and
  // whenever the replica started.
  background: (deps) => [
    {
      name: 'evaluate',
      everyMs: CLAIM_EVERY_MS,
      run: async (nowMs) => {
        const { evaluator, states } = evaluatorOf(deps);
        if (await states.claimHour(nowMs)) await evaluator.request(nowMs);
      },
    },
    // The copy of the archive's storm reports keeps only the days a rule may still read
    // (docs/decisions/0501-storm-report-days-announced-once-and-pruned.md): two deletes, so any
    // number of replicas may run it.
    {
      name: 'storm-reports',
      everyMs: STORM_REPORTS_PRUNED_EVERY_MS,
      run: async (nowMs) => void (await new StormReportCopy(deps.db.knex).prune(nowMs)),
    },
  ],
});
