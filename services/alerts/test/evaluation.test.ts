import request from 'supertest';
import { agricultureService } from '@fieldcast/agriculture';
import type { Outbox } from '@fieldcast/db';
import { eventsService } from '@fieldcast/events';
import { insightService } from '@fieldcast/insight';
import { createLogger } from '@fieldcast/kit';
import { eventually, useTestFleet } from '@fieldcast/runtime/testing';
import { Evaluator } from '../src/evaluator.js';
import { alertsService } from '../src/definition.js';
import { RuleStates, TargetCopies } from '../src/store.js';
import { createAsset, createField, rules } from './helpers.js';
import { ScriptedWeather } from './scripted-weather.js';

const NOW = Date.parse('2026-06-15T10:20:00Z');
const HOUR_MS = 3_600_000;
const t = useTestFleet([agricultureService, insightService, alertsService, eventsService], { now: () => new Date(NOW) });
const logger = createLogger({ level: 'silent' });

/** An evaluator as a replica of the service runs one, on a weather the test scripts. */
function replica(weather: ScriptedWeather): Evaluator {
  const deps = t.fleet.deps('alerts');
  return new Evaluator(new RuleStates(deps.db!.knex, deps.outbox as Outbox), weather, logger, 2);
}

interface AlertEvent {
  id: string;
  type: string;
  subject: string;
  data: {
    account: string;
    resource: { value: number };
    related: { namespace: string; id: string }[];
    event: { origin: object; namespace: string; message: string };
  };
}

/** The events of a rule the outbox holds whose type matches, in order. */
async function ruleEvents(rule: string, type: RegExp): Promise<AlertEvent[]> {
  const rows: { event: AlertEvent | string }[] = await t.fleet.db.knex.withSchema('alerts').table('outbox').orderBy('seq').select('event');
  return rows
    .map((r) => (typeof r.event === 'string' ? (JSON.parse(r.event) as AlertEvent) : r.event))
    .filter((e) => e.subject === rule && type.test(e.type));
}

/** The triggered and cleared events of a rule the outbox holds, in order. */
const alertEvents = (rule: string) => ruleEvents(rule, /\.(triggered|cleared)$/);

async function createRule(target: { type: string; id: string }, condition: object): Promise<string> {
  const res = await rules(t.fleet).create(t.alice, { target, condition });
  if (res.status !== 201) throw new Error(`rule: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { id: string }).id;
}

/** Each kind, with the weather it does not hold in, holds in, still holds in, and clears in. */
const KINDS: { condition: object; steps: ((w: ScriptedWeather) => void)[]; triggered: RegExp; cleared: RegExp; values: number[] }[] = [
  {
    // 15 days (June 1 to 15) at (tmax + tmin) / 2 - 10 by the average method (McMaster & Wilhelm 1997)
    condition: { kind: 'degree-days', start: '2026-06-01', threshold: 100 },
    steps: [(w) => ((w.tmax = 20), (w.tmin = 10)), (w) => (w.tmax = 30), (w) => (w.tmax = 28), (w) => (w.tmax = 20)],
    values: [75, 150, 135, 75],
    triggered: /^Rule \{\}: \{\} reached 150\.0 °C·d since 2026-06-01, threshold 100\.0 °C·d$/,
    cleared: /^Rule \{\}: \{\} is back below 100\.0 °C·d since 2026-06-01 \(75\.0 °C·d\)$/,
  },
  {
    condition: { kind: 'frost', threshold: 0, hours: 24 },
    steps: [(w) => (w.airTemperature = 5), (w) => (w.airTemperature = -1.8), (w) => (w.airTemperature = -3), (w) => (w.airTemperature = 2)],
    values: [5, -1.8, -3, 2],
    triggered: /^Rule \{\}: frost risk at \{\}: -1\.8 °C forecast at 2026-06-15T1[1-9]:00Z, below 0\.0 °C$/,
    cleared: /^Rule \{\}: no more frost risk at \{\}: the lowest forecast in 24 hours is 2\.0 °C, threshold 0\.0 °C$/,
  },
  {
    condition: { kind: 'reference-et', threshold: 30, days: 7 },
    steps: [
      (w) => (w.referenceEtPerHour = 0.1),
      (w) => (w.referenceEtPerHour = 0.2),
      (w) => (w.referenceEtPerHour = 0.25),
      (w) => (w.referenceEtPerHour = 0.1),
    ],
    values: [16.8, 33.6, 42, 16.8],
    triggered: /^Rule \{\}: reference ET at \{\} was 33\.6 mm over the last 7 days, above 30\.0 mm$/,
    cleared: /^Rule \{\}: reference ET at \{\} is back to 16\.8 mm over the last 7 days, threshold 30\.0 mm$/,
  },
  {
    condition: { kind: 'precipitation', threshold: 25, hours: 24 },
    steps: [
      (w) => (w.precipitationRate = 0),
      (w) => (w.precipitationRate = 2),
      (w) => (w.precipitationRate = 1.5),
      (w) => (w.precipitationRate = 0.5),
    ],
    values: [0, 48, 36, 12],
    triggered: /^Rule \{\}: 48\.0 mm of precipitation forecast at \{\} in the next 24 hours, above 25\.0 mm$/,
    cleared: /^Rule \{\}: the precipitation forecast at \{\} is down to 12\.0 mm in the next 24 hours, threshold 25\.0 mm$/,
  },
  {
    condition: { kind: 'severe-weather', radiusKm: 25, hours: 6, types: ['hail'] },
    steps: [(w) => (w.severeCount = 0), (w) => (w.severeCount = 2), (w) => (w.severeCount = 1), (w) => (w.severeCount = 0)],
    values: [0, 2, 1, 0],
    triggered: /^Rule \{\}: 2 severe weather events \(hail\) within 25\.0 km of \{\} in the last 6 hours$/,
    cleared: /^Rule \{\}: no severe weather within 25\.0 km of \{\} in the last 6 hours$/,
  },
];

describe('alert evaluation (docs/decisions/0271-alert-evaluation.md)', () => {
  it.each(KINDS.map((k) => [(k.condition as { kind: string }).kind, k] as const))(
    '%s: triggers once and clears once as the scripted weather changes, across two replicas',
    async (kind, k) => {
      const field = await createField(t.fleet, t.alice);
      const rule = await createRule({ type: 'field', id: field }, k.condition);
      const weather = new ScriptedWeather();
      // two replicas, each evaluating every step at once
      const replicas = [replica(weather), replica(weather)];
      const results = [];
      for (const [i, step] of k.steps.entries()) {
        step(weather);
        const both = await Promise.all(replicas.map((r) => r.pass(NOW + i * HOUR_MS)));
        results.push({ triggered: both[0]!.triggered + both[1]!.triggered, cleared: both[0]!.cleared + both[1]!.cleared });
        const state = await rules(t.fleet).get(t.alice, `/rules/${rule}/state`);
        expect(state.body.value).toBeCloseTo(k.values[i]!, 4);
        expect(state.body.holding).toBe(i === 1 || i === 2);
      }
      expect(results.map((r) => [r.triggered, r.cleared])).toEqual([
        [0, 0],
        [1, 0],
        [0, 0],
        [0, 1],
      ]);
      const events = await alertEvents(rule);
      expect(events.map((e) => [e.type, e.data.event.namespace])).toEqual([
        ['fieldcast.rule.triggered', `alerts/${kind}/triggered`],
        ['fieldcast.rule.cleared', `alerts/${kind}/cleared`],
      ]);
      expect(events[0]!.data.event.message).toMatch(k.triggered);
      expect(events[1]!.data.event.message).toMatch(k.cleared);
      for (const e of events) {
        expect(e.data.account).toBe(t.alice.id);
        expect(e.data.event.origin).toEqual({ namespace: 'alerts/rules', id: rule });
        expect(e.data.related).toEqual([{ namespace: 'agriculture/fields', id: field }]);
      }
      const state = (await rules(t.fleet).get(t.alice, `/rules/${rule}/state`)).body;
      expect(state).toMatchObject({ holding: false, evaluatedAt: new Date(NOW + 3 * HOUR_MS).toISOString() });
      expect(state.changedAt).toBe(state.evaluatedAt);
    },
  );

  it('reads the hours, days and dates each kind names', async () => {
    const asset = await createAsset(t.fleet, t.alice);
    const weather = new ScriptedWeather();
    await createRule({ type: 'asset', id: asset }, { kind: 'frost', threshold: 0, hours: 24 });
    await createRule({ type: 'asset', id: asset }, { kind: 'reference-et', threshold: 30, days: 7 });
    await createRule({ type: 'asset', id: asset }, { kind: 'degree-days', start: '2026-06-01', threshold: 100, method: 'double-sine' });
    await replica(weather).pass(NOW);
    expect(weather.reads.sort()).toEqual([
      'air_temperature 2026-06-15T11:00:00.000Z 2026-06-16T10:00:00.000Z',
      // the double methods read the next day's minimum
      'daily 2026-06-01T00:00:00.000Z 2026-06-16T00:00:00.000Z',
      'et 2026-06-08T10:00:00.000Z 2026-06-15T09:00:00.000Z',
    ]);
  });

  it('two replicas evaluating at once write one event, and a restarted one none again', async () => {
    const field = await createField(t.fleet, t.alice);
    const rule = await createRule({ type: 'field', id: field }, { kind: 'frost', threshold: 0, hours: 24 });
    const weather = new ScriptedWeather();
    weather.airTemperature = -4;
    const [a, b] = await Promise.all([replica(weather).pass(NOW), replica(weather).pass(NOW)]);
    expect(a.triggered + b.triggered).toBe(1);
    // a later clock on either, and a replica started afresh: it still holds, so nothing more
    await Promise.all([replica(weather).pass(NOW + HOUR_MS), replica(weather).pass(NOW + 2 * HOUR_MS)]);
    await replica(weather).pass(NOW + 3 * HOUR_MS);
    expect((await alertEvents(rule)).map((e) => e.type)).toEqual(['fieldcast.rule.triggered']);
    weather.airTemperature = 3;
    const [c, d] = await Promise.all([replica(weather).pass(NOW + 4 * HOUR_MS), replica(weather).pass(NOW + 4 * HOUR_MS)]);
    expect(c.cleared + d.cleared).toBe(1);
    expect((await alertEvents(rule)).map((e) => e.type)).toEqual(['fieldcast.rule.triggered', 'fieldcast.rule.cleared']);
  });

  it('a replaced rule is decided afresh, and its next alert is a new event, not the id of its first', async () => {
    const field = await createField(t.fleet, t.alice);
    const rule = await createRule({ type: 'field', id: field }, { kind: 'frost', threshold: 0, hours: 24 });
    const weather = new ScriptedWeather();
    weather.airTemperature = -2;
    await replica(weather).pass(NOW);
    const replaced = await rules(t.fleet).replace(t.alice, rule, {
      target: { type: 'field', id: field },
      condition: { kind: 'frost', threshold: -1, hours: 24 },
    });
    expect(replaced.status).toBe(200);
    expect(await replica(weather).pass(NOW + HOUR_MS)).toMatchObject({ triggered: 1 });
    const events = await alertEvents(rule);
    expect(events.map((e) => e.type)).toEqual(['fieldcast.rule.triggered', 'fieldcast.rule.triggered']);
    expect(new Set(events.map((e) => e.id)).size).toBe(2);
    // both reach the owner's feed: the events area keeps one event per id
    await eventually(async () => {
      const stored = await t.fleet.db.knex
        .withSchema('events')
        .table('events')
        .where({ origin_id: rule, namespace: 'alerts/frost/triggered' });
      expect(stored).toHaveLength(2);
    });
  });

  it('a rule replaced while a pass measures it is not decided by its old condition', async () => {
    // docs/decisions/0271-alert-evaluation.md: a replaced rule is decided afresh, without an event
    // for the old condition; a pass that read the rule before the replace must not write one.
    const field = await createField(t.fleet, t.alice);
    const target = { type: 'field', id: field };
    const rule = await createRule(target, { kind: 'frost', threshold: 0, hours: 24 });
    let reading!: () => void;
    const read = new Promise<void>((resolve) => (reading = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    class HeldWeather extends ScriptedWeather {
      override async hourly(...args: Parameters<ScriptedWeather['hourly']>) {
        reading();
        await released;
        return super.hourly(...args);
      }
    }
    const weather = new HeldWeather();
    weather.airTemperature = -2;
    const pass = replica(weather).pass(NOW);
    await read;
    const replaced = await rules(t.fleet).replace(t.alice, rule, {
      target,
      condition: { kind: 'degree-days', start: '2026-06-01', threshold: 500 },
    });
    expect(replaced.status).toBe(200);
    release();
    expect(await pass).toMatchObject({ triggered: 0 });
    expect((await rules(t.fleet).get(t.alice, `/rules/${rule}/state`)).body).toMatchObject({ holding: null, value: null, unit: '°C·d' });
    // the next pass decides the new condition, which does not hold: nothing to say
    expect(await replica(weather).pass(NOW + HOUR_MS)).toMatchObject({ triggered: 0, cleared: 0 });
    expect(await alertEvents(rule)).toEqual([]);
  });

  it.each([
    ['sent again as it is', {}, 0],
    ['whose description alone is edited', { description: 'north block frost' }, 1],
  ])('a rule %s keeps its decision: no second alert, and an update event only for a change', async (_, edit, updates) => {
    const field = await createField(t.fleet, t.alice);
    const target = { type: 'field', id: field };
    const condition = { kind: 'frost', threshold: 0, hours: 24 };
    const rule = await createRule(target, condition);
    const weather = new ScriptedWeather();
    weather.airTemperature = -2;
    await replica(weather).pass(NOW);
    expect((await rules(t.fleet).replace(t.alice, rule, { ...edit, target, condition })).status).toBe(200);
    expect((await rules(t.fleet).get(t.alice, `/rules/${rule}/state`)).body).toMatchObject({ holding: true, value: -2 });
    expect(await replica(weather).pass(NOW + HOUR_MS)).toMatchObject({ triggered: 0 });
    expect((await alertEvents(rule)).map((e) => e.type)).toEqual(['fieldcast.rule.triggered']);
    expect(await ruleEvents(rule, /\.updated$/)).toHaveLength(updates);
  });

  it.each([
    [-2.3456, -2.3],
    [0.0043219, 0.0043],
  ])('shows a value of %d in its state and its alert as its message does: %d', async (measured, shown) => {
    const field = await createField(t.fleet, t.alice);
    const rule = await createRule({ type: 'field', id: field }, { kind: 'frost', threshold: 5, hours: 24 });
    const weather = new ScriptedWeather();
    weather.airTemperature = measured;
    await replica(weather).pass(NOW);
    expect((await rules(t.fleet).get(t.alice, `/rules/${rule}/state`)).body).toMatchObject({ holding: true, value: shown });
    const [alert] = await alertEvents(rule);
    expect(alert!.data.resource.value).toBe(shown);
    expect(alert!.data.event.message).toContain(`${shown} °C`);
  });

  it('evaluates a rule once its field arrives, and never one on another account’s field', async () => {
    const bobField = await createField(t.fleet, t.bob);
    const onBobs = await createRule({ type: 'field', id: bobField }, { kind: 'frost', threshold: 0, hours: 24 });
    // a field of Alice's whose creation the alerts area has not heard of yet
    const early = await createRule(
      { type: 'field', id: '3f2e1d0c-9b8a-4765-a432-10fedcba9876' },
      { kind: 'frost', threshold: 0, hours: 24 },
    );
    const weather = new ScriptedWeather();
    weather.airTemperature = -5;
    expect((await replica(weather).pass(NOW)).rules).toBe(0);
    const deps = t.fleet.deps('alerts');
    await new TargetCopies(deps.db!.knex, deps.outbox as Outbox).apply({
      target: { id: '3f2e1d0c-9b8a-4765-a432-10fedcba9876', type: 'field', accountId: t.alice.id, centroid: { lat: 42, lon: -93.5 } },
      action: 'created',
      timeMs: NOW,
    });
    expect(await replica(weather).pass(NOW + HOUR_MS)).toMatchObject({ rules: 1, triggered: 1 });
    expect((await alertEvents(early)).map((e) => e.type)).toEqual(['fieldcast.rule.triggered']);
    expect(await alertEvents(onBobs)).toEqual([]);
    expect((await rules(t.fleet).get(t.alice, `/rules/${onBobs}/state`)).body).toMatchObject({ watching: false, holding: null });
  });

  it('puts the events in the owner’s feeds, tagged with the rule and the field, and in no one else’s', async () => {
    const field = await createField(t.fleet, t.alice);
    const rule = await createRule({ type: 'field', id: field }, { kind: 'frost', threshold: 0, hours: 24 });
    const weather = new ScriptedWeather();
    weather.airTemperature = -1.8;
    await replica(weather).pass(NOW);
    const events = () => request(t.fleet.app('events'));
    const feed = await eventually(async () => {
      const res = await events().get(`/resources/${rule}/events`).set('Authorization', t.alice.auth);
      // newest first: the alert, then the rule's creation
      expect(res.body).toHaveLength(2);
      return res.body as { app: string; message: string; origin: object; tagged: object[] }[];
    });
    expect(feed[0]).toMatchObject({
      app: 'alerts',
      origin: { namespace: 'alerts/rules', id: rule },
      tagged: [
        { namespace: 'alerts/rules', id: rule },
        { namespace: 'agriculture/fields', id: field },
      ],
    });
    expect(feed[0]!.message).toBe('Rule {}: frost risk at {}: -1.8 °C forecast at 2026-06-15T11:00Z, below 0.0 °C');
    expect(feed[1]!.message).toBe('Rule {} was created (with {})');
    const stored = await t.fleet.db.knex.withSchema('events').table('events').where({ origin_id: rule }).select('namespace');
    expect(stored.map((e: { namespace: string }) => e.namespace).sort()).toEqual(['alerts/frost/triggered', 'alerts/rules/created']);
    const fieldFeed = await events().get(`/resources/${field}/events`).set('Authorization', t.alice.auth);
    expect(JSON.stringify(fieldFeed.body)).toContain('frost risk');
    for (const path of [`/resources/${rule}/events`, `/resources/${field}/events`, '/events']) {
      const bobs = await events().get(path).set('Authorization', t.bob.auth);
      expect(JSON.stringify(bobs.body)).not.toContain('frost risk');
      expect(JSON.stringify(bobs.body)).not.toContain(rule);
    }
  });

  it('runs the timed pass of a clock hour once among the replicas: the first to claim the hour (docs/decisions/0357-hourly-alert-pass-once.md)', async () => {
    const field = await createField(t.fleet, t.alice);
    const first = await createRule({ type: 'field', id: field }, { kind: 'frost', threshold: 0, hours: 48 });
    await t.fleet.runBackground('alerts', 'evaluate');
    const stateOf = async (id: string) => (await rules(t.fleet).get(t.alice, `/rules/${id}/state`)).body as { evaluatedAt: string | null };
    expect((await stateOf(first)).evaluatedAt).toBe('2026-06-15T10:20:00.000Z');
    // Another replica's timer in the same hour finds the hour claimed and runs no pass.
    const second = await createRule({ type: 'field', id: field }, { kind: 'frost', threshold: -5, hours: 48 });
    await t.fleet.runBackground('alerts', 'evaluate');
    expect((await stateOf(second)).evaluatedAt).toBeNull();

    const deps = t.fleet.deps('alerts');
    const states = new RuleStates(deps.db!.knex, deps.outbox as Outbox);
    expect(await states.claimHour(NOW + 30 * 60_000)).toBe(false);
    expect(await states.claimHour(NOW + HOUR_MS)).toBe(true);
    expect(await states.claimHour(NOW + HOUR_MS + 30 * 60_000)).toBe(false);
    // Claims over a day old are let go as new hours are claimed.
    const hour = Math.floor(NOW / HOUR_MS);
    expect(await states.claimHour(NOW + 20 * HOUR_MS)).toBe(true);
    expect(await states.claimHour(NOW + 26 * HOUR_MS)).toBe(true);
    const kept: { hour: string | number }[] = await deps
      .db!.knex.withSchema('alerts')
      .table('hourly_passes')
      .orderBy('hour')
      .select('hour');
    expect(kept.map((h) => Number(h.hour))).toEqual([hour + 20, hour + 26]);
  });

  it('claims every clock hour within a minute of its start, also in a replica started in an hour another passed (docs/decisions/0357-hourly-alert-pass-once.md)', async () => {
    const deps = t.fleet.deps('alerts');
    const states = new RuleStates(deps.db!.knex, deps.outbox as Outbox);
    const [task] = alertsService.background!(deps as Parameters<NonNullable<typeof alertsService.background>>[0]);
    // Days after the other tests' hours: another replica passed 03:05; this one starts at 03:30.
    const hour3 = Math.floor(NOW / 86_400_000) * 86_400_000 + 10 * 86_400_000 + 3 * HOUR_MS;
    expect(await states.claimHour(hour3 + 5 * 60_000)).toBe(true);
    // The runtime starts a pass at once and each next one everyMs after the last ends (passes
    // here take no time): the claims its timer makes up to 06:00.
    for (let at = hour3 + 30 * 60_000; at < hour3 + 3 * HOUR_MS; at += task!.everyMs) await task!.run(at);
    const claims: { hour: string | number; claimed_at: Date }[] = await deps
      .db!.knex.withSchema('alerts')
      .table('hourly_passes')
      .where('hour', '>', Math.floor(hour3 / HOUR_MS))
      .orderBy('hour')
      .select('hour', 'claimed_at');
    const hours = Math.floor(hour3 / HOUR_MS);
    expect(claims.map((c) => Number(c.hour))).toEqual([hours + 1, hours + 2]);
    for (const c of claims) expect(new Date(c.claimed_at).getTime() - Number(c.hour) * HOUR_MS).toBeLessThanOrEqual(60_000);
  });

  it('evaluates every kind on the service’s own weather, on its timer and when a forecast run completes', async () => {
    const field = await createField(t.fleet, t.alice);
    const conditions = [
      { kind: 'degree-days', start: '2026-05-01', threshold: 100, method: 'single-triangle', cap: 30 },
      { kind: 'frost', threshold: 0, hours: 48 },
      { kind: 'reference-et', threshold: 30, days: 7 },
      { kind: 'precipitation', threshold: 25, hours: 24 },
      { kind: 'severe-weather', radiusKm: 100, hours: 24 },
    ];
    const ids = [];
    for (const condition of conditions) ids.push(await createRule({ type: 'field', id: field }, condition));
    await t.fleet.runBackground('alerts', 'evaluate');
    for (const id of ids) {
      const state = (await rules(t.fleet).get(t.alice, `/rules/${id}/state`)).body;
      expect(state).toMatchObject({ evaluatedAt: '2026-06-15T10:20:00.000Z', holding: expect.any(Boolean), value: expect.any(Number) });
    }
    // A run's completion asks for a pass: a new rule is decided without the timer.
    const later = await createRule({ type: 'field', id: field }, { kind: 'frost', threshold: -50, hours: 12 });
    await t.fleet.transport.ensureTopics(['fieldcast.model.forecasts']);
    await t.fleet.transport.publish([
      {
        topic: 'fieldcast.model.forecasts',
        key: 'run',
        event: {
          specversion: '1.0',
          id: '5d0c6a8e-2b1f-4c3d-9e8f-7a6b5c4d3e2f',
          source: '/model',
          type: 'fieldcast.forecast.completed',
          subject: '5d0c6a8e-2b1f-4c3d-9e8f-7a6b5c4d3e20',
          time: new Date(NOW).toISOString(),
          datacontenttype: 'application/json',
          data: { account: null, resource: {} },
        },
      },
    ]);
    await eventually(async () => {
      const state = (await rules(t.fleet).get(t.alice, `/rules/${later}/state`)).body;
      expect(state).toMatchObject({ holding: false, evaluatedAt: '2026-06-15T10:20:00.000Z' });
    }, 30_000);
  });
});
