import { agricultureService } from '@fieldcast/agriculture';
import type { Outbox } from '@fieldcast/db';
import { createLogger } from '@fieldcast/kit';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { Evaluator } from '../src/evaluator.js';
import { alertsService } from '../src/definition.js';
import { RuleStates } from '../src/store.js';
import { createField, rules } from './helpers.js';
import { ScriptedWeather } from './scripted-weather.js';

// A clock the tests move: a rule is kept for longer than its degree-day season.
const START = Date.parse('2026-06-15T10:20:00.250Z');
let clock = START;
const DAY_MS = 86_400_000;
const t = useTestFleet([agricultureService, alertsService], { now: () => new Date(clock) });
const api = () => rules(t.fleet);
const logger = createLogger({ level: 'silent' });

beforeEach(() => (clock = START));

function replica(weather: ScriptedWeather): Evaluator {
  const deps = t.fleet.deps('alerts');
  return new Evaluator(new RuleStates(deps.db!.knex, deps.outbox as Outbox), weather, logger);
}

async function holdingRule(condition: object, weather: ScriptedWeather): Promise<{ id: string; target: object }> {
  const target = { type: 'field', id: await createField(t.fleet, t.alice) };
  const res = await api().create(t.alice, { target, condition });
  expect(res.status).toBe(201);
  expect(await replica(weather).pass(clock)).toMatchObject({ triggered: 1 });
  return { id: (res.body as { id: string }).id, target };
}

describe('a replaced rule keeps or resets its decision (docs/interface.md §12, docs/decisions/0271-alert-evaluation.md)', () => {
  it('a degree-day rule sent again after its season is the same rule: 200, its decision kept, not 422 for its start', async () => {
    // docs/decisions/0272-alert-rule-kinds.md: a rule outlives its season; only a new start is checked against today.
    const weather = new ScriptedWeather();
    weather.tmax = 30;
    const condition = { kind: 'degree-days', start: '2026-06-01', threshold: 100 };
    const { id, target } = await holdingRule(condition, weather);
    clock = START + 400 * DAY_MS;
    const again = await api().replace(t.alice, id, { description: 'North 40, last season', target, condition });
    expect([again.status, again.body.errors]).toEqual([200, undefined]);
    expect((await api().get(t.alice, `/rules/${id}/state`)).body).toMatchObject({ holding: true });
    // another condition on the old start is a new season that is too long: refused, as on create
    const moved = await api().replace(t.alice, id, { target, condition: { ...condition, threshold: 200 } });
    expect([moved.status, moved.body.id, moved.body.errors?.[0]?.path]).toEqual([422, 'invalid_condition', 'condition.start']);
  });

  it.each([
    [
      'severe-weather types in another order',
      { kind: 'severe-weather', radiusKm: 25, hours: 6, types: ['hail', 'tornado'] },
      { types: ['tornado', 'hail'] },
    ],
    [
      'a degree-day cutoff by its other name',
      { kind: 'degree-days', start: '2026-06-01', threshold: 100, method: 'single-sine', cap: 30 },
      { cutoff: 'cap' },
    ],
    [
      'a degree-day default spelt out',
      { kind: 'degree-days', start: '2026-06-01', threshold: 100 },
      { scale: 'celsius', base: 10, method: 'average' },
    ],
  ])('%s is the same condition: the decision stands and no second alert is sent', async (_, condition, respelt) => {
    const weather = new ScriptedWeather();
    weather.tmax = 30;
    weather.severeCount = 1;
    const { id, target } = await holdingRule(condition, weather);
    const res = await api().replace(t.alice, id, { target, condition: { ...condition, ...respelt } });
    expect(res.status).toBe(200);
    expect((await api().get(t.alice, `/rules/${id}/state`)).body).toMatchObject({ holding: true });
    expect(await replica(weather).pass(clock + 3_600_000)).toMatchObject({ triggered: 0, cleared: 0 });
  });

  it('writes the state’s times to the millisecond, as every timestamp (docs/interface.md §1 Values)', async () => {
    const weather = new ScriptedWeather();
    weather.airTemperature = -3;
    const { id } = await holdingRule({ kind: 'frost', threshold: 0, hours: 24 }, weather);
    expect((await api().get(t.alice, `/rules/${id}/state`)).body).toMatchObject({
      evaluatedAt: '2026-06-15T10:20:00.250Z',
      changedAt: '2026-06-15T10:20:00.250Z',
    });
    await replica(weather).pass(Date.parse('2026-06-15T11:00:00Z'));
    expect((await api().get(t.alice, `/rules/${id}/state`)).body).toMatchObject({
      evaluatedAt: '2026-06-15T11:00:00.000Z',
      changedAt: '2026-06-15T10:20:00.250Z',
    });
  });
});
