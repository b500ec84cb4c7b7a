/**
 * The alerts area (targets in bench/README.md). Run:
 *   npx -y pnpm@10 exec tsx bench/alerts.bench.ts
 * 10,000 rules on 5,000 fields spread over the US Corn Belt (PGlite, in-process bus, the synthetic
 * world), of every kind: frost 48 h and precipitation 24 h (3,000 each), degree days since 60
 * days ago (2,000), reference ET over 7 days (1,000), severe weather within 50 km in 24 h (1,000).
 * One pass is evaluated as a new forecast run asks for it, then a second at the next hour (the
 * steady state: every row decided, few changes). Figures: seconds per pass; the ratio of a pass
 * to the baseline, the same rules measured on the same weather without the database (reads and
 * science only), in the same run; the heap and resident memory above their level before the pass
 * (the heap sampled at each batch's write, when the batch is all held; with --expose-gc, from its
 * level after a collection), which the batch of 500 rules bounds, not the number of rules.
 * BENCH_RULES sets the number of rules (default 10,000): the heap's peak should not grow with it.
 */
import { randomUUID } from 'node:crypto';
import { startTestFleet } from '../packages/runtime/src/testing.js';
import { createLogger } from '../packages/kit/src/index.js';
import { SyntheticSource } from '../packages/weather/src/index.js';
import { alertsService } from '../services/alerts/src/definition.js';
import { gridAlertWeather, sharedReads } from '../services/alerts/src/domain/alert-weather.js';
import { measure } from '../services/alerts/src/domain/measure.js';
import { Evaluator } from '../services/alerts/src/evaluator.js';
import { RuleStates } from '../services/alerts/src/store.js';
import type { Condition } from '../services/alerts/src/schemas.js';

const RULES = Number(process.env.BENCH_RULES ?? 10_000);
const NOW = Date.parse('2026-07-01T12:10:00Z');
const HOUR_MS = 3_600_000;
const MB = 1024 * 1024;

function conditionOf(i: number): Condition {
  const k = i % 10;
  if (k < 3) return { kind: 'frost', threshold: 12, hours: 48 };
  if (k < 6) return { kind: 'precipitation', threshold: 5, hours: 24 };
  if (k < 8) return { kind: 'degree-days', start: new Date(NOW - 60 * 24 * HOUR_MS).toISOString().slice(0, 10), threshold: 700 };
  if (k < 9) return { kind: 'reference-et', threshold: 35, days: 7 };
  return { kind: 'severe-weather', radiusKm: 50, hours: 24 };
}

/**
 * The live heap's peak in a sampled run: read at each batch's write, when the batch's reads and
 * measurements are all held (a pass never yields to timers), after a collection when run with
 * --expose-gc, so it counts what is held rather than garbage not yet collected.
 */
let heapPeak = 0;
const sample = () => {
  global.gc?.();
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
};

/** Rule states that sample the heap as each batch is written. */
class SampledStates extends RuleStates {
  override decide(...args: Parameters<RuleStates['decide']>) {
    sample();
    return super.decide(...args);
  }
}

/** Seconds, the heap's peak above its level before (after a collection when run with --expose-gc), and the growth of the process's peak RSS. */
async function sampled<T>(run: () => Promise<T>): Promise<{ result: T; seconds: number; heapMb: number; rssMb: number }> {
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.resourceUsage().maxRSS;
  heapPeak = heapBefore;
  const t0 = performance.now();
  const result = await run();
  const seconds = (performance.now() - t0) / 1000;
  sample();
  return { result, seconds, heapMb: (heapPeak - heapBefore) / MB, rssMb: (process.resourceUsage().maxRSS - rssBefore) / 1024 };
}

async function main(): Promise<void> {
  const weather = new SyntheticSource({ now: () => NOW });
  const fleet = await startTestFleet([alertsService], { now: () => new Date(NOW), weather });
  const knex = fleet.db.knex;
  const account = randomUUID();
  const fields = Array.from({ length: Math.ceil(RULES / 2) }, (_, i) => ({
    id: randomUUID(),
    type: 'field',
    account_id: account,
    // a 50 x 100 lattice over 37-47 N, 100-85 W
    latitude: 37 + (Math.floor(i / 100) % 50) * 0.2 + 0.013,
    longitude: -100 + (i % 100) * 0.15 + 0.007,
    deleted: false,
    event_time: new Date(NOW),
  }));
  const rules = Array.from({ length: RULES }, (_, i) => ({
    id: randomUUID(),
    account_id: account,
    description: '',
    target_type: 'field',
    target_id: fields[i % fields.length]!.id,
    condition: JSON.stringify(conditionOf(i)),
    created_at: new Date(NOW),
    updated_at: new Date(NOW),
  }));
  for (let i = 0; i < fields.length; i += 1000)
    await knex
      .withSchema('alerts')
      .table('targets')
      .insert(fields.slice(i, i + 1000));
  for (let i = 0; i < rules.length; i += 1000)
    await knex
      .withSchema('alerts')
      .table('rules')
      .insert(rules.slice(i, i + 1000));

  const deps = fleet.deps('alerts');
  const states = new SampledStates(knex, deps.outbox!);
  const logger = createLogger({ level: 'silent' });
  const alertWeather = gridAlertWeather(weather);

  // Baseline: the same measurements without the database, in batches as a pass makes them.
  const watched = await states.page(null, RULES);
  const baseline = await sampled(async () => {
    for (let i = 0; i < watched.length; i += 500) {
      const shared = sharedReads(alertWeather);
      await Promise.all(watched.slice(i, i + 500).map((w) => measure(w.rule.condition, w.target.centroid, NOW, shared)));
      sample();
    }
  });
  const first = await sampled(() => new Evaluator(states, alertWeather, logger).request(NOW));
  const second = await sampled(() => new Evaluator(states, alertWeather, logger).request(NOW + HOUR_MS));
  const out = (label: string, s: { seconds: number; heapMb: number; rssMb: number }) =>
    process.stdout.write(
      `${label.padEnd(44)} ${s.seconds.toFixed(2)} s  ${(s.seconds / baseline.seconds).toFixed(2)} x baseline  heap peak +${s.heapMb.toFixed(1)} MB  peak RSS +${s.rssMb.toFixed(0)} MB\n`,
    );
  process.stdout.write(`${RULES.toLocaleString('en')} rules on ${fields.length.toLocaleString('en')} fields\n`);
  out('baseline: measurements only', baseline);
  out(`first pass (${first.result.triggered} triggered)`, first);
  out(`next hour (${second.result.triggered} triggered, ${second.result.cleared} cleared)`, second);
  await fleet.close();
}

await main();
