import type { Knex } from 'knex';
import type { OutboxWriter } from '@fieldcast/db';
import { Api, type Logger } from '@fieldcast/kit';
import type { GridSource } from '@fieldcast/weather';
import { defineService } from '@fieldcast/runtime';
import { alertsMigration } from '../migrations/001_alerts.js';
import { targetsConsumer, weatherConsumer } from './consumers.js';
import { gridAlertWeather } from './domain/alert-weather.js';
import { Evaluator } from './evaluator.js';
import { ruleRoutes } from './routes/rules.js';
import { AREA, RULES_TOPIC, RuleStates, RuleStore, TargetCopies } from './store.js';

/** The rules are evaluated at least this often, whatever the weather areas announce (docs/decisions/0271-alert-evaluation.md). */
const EVALUATE_EVERY_MS = 3_600_000;

interface EvaluatorDeps {
  db: { knex: Knex };
  outbox: OutboxWriter;
  weather: GridSource;
  logger: Logger;
}

/** One evaluator per process's service, shared by its timer and its consumer so their passes take turns. */
const evaluators = new WeakMap<EvaluatorDeps, Evaluator>();
function evaluatorOf(deps: EvaluatorDeps): Evaluator {
  let evaluator = evaluators.get(deps);
  if (!evaluator) {
    evaluator = new Evaluator(new RuleStates(deps.db.knex, deps.outbox), gridAlertWeather(deps.weather), deps.logger);
    evaluators.set(deps, evaluator);
  }
  return evaluator;
}

/** The alerts service: what `fieldcast serve alerts` and the embedded fleet run. */
export const alertsService = defineService({
  area: AREA,
  port: 10,
  title: 'Alerts',
  description: 'Alert rules on fields and assets, evaluated as the weather changes; their events in the owner’s feeds.',
  needs: { database: { migrations: [alertsMigration] }, outbox: { topics: [RULES_TOPIC] }, weather: true },
  api: (deps) => ruleRoutes(new Api(), new RuleStore(deps.db.knex, deps.outbox, deps.now), deps.now),
  consumers: (deps) => [
    targetsConsumer(new TargetCopies(deps.db.knex, deps.outbox), deps.logger),
    weatherConsumer(evaluatorOf(deps), deps.now),
  ],
  background: (deps) => [
    { name: 'evaluate', everyMs: EVALUATE_EVERY_MS, run: async (nowMs) => void (await evaluatorOf(deps).request(nowMs)) },
  ],
});
