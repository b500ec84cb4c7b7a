import { eventually, startTestFleet, useTestFleet } from '@fieldcast/runtime/testing';
import { fieldcastId } from '@fieldcast/ids';
import type { Outbox } from '@fieldcast/db';
import { createCatalog } from '@fieldcast/weather';
import { FORECAST_EVENTS_TASK, modelService } from '../src/definition.js';
import { ForecastEventWriter } from '../src/store.js';
import { HOUR, MINUTE, TestClock } from './helpers.js';

/*
 * The public events of forecast runs (docs/interface.md §7; docs/architecture.md §5;
 * docs/decisions/0142-forecast-events-from-the-clock.md), written by the clock through the
 * outbox and relayed to fieldcast.model.forecasts.
 */
const clock = new TestClock(Date.parse('2026-05-01T05:00:00Z'));
const t = useTestFleet([modelService], { now: clock.now });
const GLOBAL_ID = fieldcastId('model', 'synthetic-global');
const RAPID_ID = fieldcastId('model', 'synthetic-rapid');
const runId = (model: string, initIso: string) => fieldcastId('forecast', model, new Date(initIso).toISOString().replace('.000Z', 'Z'));

interface Envelope {
  id: string;
  type: string;
  source: string;
  subject: string;
  time: string;
  data: {
    account: null;
    resource: { id: string; status: string; initTime: string };
    related: { namespace: string; id: string }[];
    event: { message: string };
  };
}

const delivered: Envelope[] = [];
let writer: ForecastEventWriter;

beforeAll(async () => {
  // The writer itself, to read how many events each pass wrote; the service's background task runs the same.
  const catalog = createCatalog();
  writer = new ForecastEventWriter(t.fleet.db.knex, t.fleet.deps('model').outbox as Outbox, () => catalog.models());
  await t.fleet.transport.subscribe(`model-test-${process.pid}-${Date.now()}`, /^fieldcast\.model\.forecasts$/, async (m) => {
    delivered.push(JSON.parse(m.value) as Envelope);
  });
});

async function outboxEvents(): Promise<Envelope[]> {
  const rows = await t.fleet.db.knex.withSchema('model').table('outbox').orderBy('seq').select('topic', 'key', 'event');
  for (const row of rows) expect(row.topic).toBe('fieldcast.model.forecasts');
  return rows.map((r: { event: Envelope | string }) => (typeof r.event === 'string' ? JSON.parse(r.event) : r.event));
}

const summary = (e: Envelope) => `${e.time} ${e.type} ${e.data.resource.initTime}`;

describe('forecast life-cycle events', () => {
  it('a first pass starts at now; the next writes each step since, once, in time order per model', async () => {
    clock.set('2026-05-01T05:00:00Z');
    expect(await writer.writeThrough(clock.ms)).toBe(0);
    clock.set('2026-05-01T07:00:00Z');
    expect(await writer.writeThrough(clock.ms)).toBe(11);
    const events = await outboxEvents();
    expect(events.map(summary)).toEqual([
      // synthetic-global: every 6 h, INCOMPLETE after 52.5 min, COMPLETE after 210 min, EXPIRED after 168 h
      '2026-05-01T06:00:00.000Z fieldcast.forecast.initializing 2026-05-01T06:00:00.000Z',
      '2026-05-01T06:00:00.000Z fieldcast.forecast.expired 2026-04-24T06:00:00.000Z',
      '2026-05-01T06:52:30.000Z fieldcast.forecast.incomplete 2026-05-01T06:00:00.000Z',
      // synthetic-rapid: hourly, INCOMPLETE after 11.25 min, COMPLETE after 45 min, EXPIRED after 24 h
      '2026-05-01T05:11:15.000Z fieldcast.forecast.incomplete 2026-05-01T05:00:00.000Z',
      '2026-05-01T05:45:00.000Z fieldcast.forecast.completed 2026-05-01T05:00:00.000Z',
      '2026-05-01T06:00:00.000Z fieldcast.forecast.initializing 2026-05-01T06:00:00.000Z',
      '2026-05-01T06:00:00.000Z fieldcast.forecast.expired 2026-04-30T06:00:00.000Z',
      '2026-05-01T06:11:15.000Z fieldcast.forecast.incomplete 2026-05-01T06:00:00.000Z',
      '2026-05-01T06:45:00.000Z fieldcast.forecast.completed 2026-05-01T06:00:00.000Z',
      '2026-05-01T07:00:00.000Z fieldcast.forecast.initializing 2026-05-01T07:00:00.000Z',
      '2026-05-01T07:00:00.000Z fieldcast.forecast.expired 2026-04-30T07:00:00.000Z',
    ]);
    // Again at the same instant, and a minute later with no step in between: nothing new.
    expect(await writer.writeThrough(clock.ms)).toBe(0);
    expect(await writer.writeThrough(clock.ms + MINUTE)).toBe(0);
    expect(await outboxEvents()).toHaveLength(11);
  });

  it('each event is public, names the run as subject and snapshot, and tags the model', async () => {
    clock.set('2026-05-01T09:00:00Z');
    await writer.writeThrough(clock.ms);
    clock.set('2026-05-01T09:30:00Z');
    // synthetic-global's 06Z run completes at 09:30; synthetic-rapid's 09Z run starts producing at 09:11:15.
    expect(await writer.writeThrough(clock.ms)).toBe(2);
    const events = await outboxEvents();
    const completed = events.find(
      (e) => e.type === 'fieldcast.forecast.completed' && e.subject === runId('synthetic-global', '2026-05-01T06:00:00Z'),
    )!;
    expect(completed).toEqual({
      specversion: '1.0',
      id: fieldcastId('forecast-event', completed.subject, 'COMPLETE'),
      source: '/model',
      type: 'fieldcast.forecast.completed',
      subject: runId('synthetic-global', '2026-05-01T06:00:00Z'),
      time: '2026-05-01T09:30:00.000Z',
      datacontenttype: 'application/json',
      data: {
        account: null,
        resource: {
          id: completed.subject,
          initTime: '2026-05-01T06:00:00.000Z',
          creationTime: '2026-05-01T09:30:00.000Z',
          expirationTime: '2026-05-08T06:00:00.000Z',
          status: 'COMPLETE',
          model: `/models/${GLOBAL_ID}`,
          variables: `/forecasts/${completed.subject}/variables`,
        },
        related: [{ namespace: 'model/models', id: GLOBAL_ID }],
        event: { message: 'Forecast {} of model {} is complete' },
      },
    });
    const rapid = events.filter((e) => e.data.related[0]!.id === RAPID_ID);
    expect(rapid.map((e) => e.type)).toEqual(['fieldcast.forecast.incomplete']);
    // Relayed to the topic through the outbox: marked sent, and received by a consumer of the topic.
    await eventually(async () => {
      const unsent = await t.fleet.db.knex.withSchema('model').table('outbox').whereNull('sent_at').count({ n: '*' }).first();
      expect(Number(unsent?.n)).toBe(0);
      for (const e of events) expect(delivered.map((d) => d.id)).toContain(e.id);
    });
  });

  it('the status in each event is the one the run has from that instant on', async () => {
    clock.set('2026-05-01T00:00:00Z');
    await writer.writeThrough(clock.ms);
    clock.set('2026-05-01T12:00:00Z');
    await writer.writeThrough(clock.ms);
    const statusOf = { initializing: 'INITIALIZING', incomplete: 'INCOMPLETE', completed: 'COMPLETE', expired: 'EXPIRED' };
    const messages = new Set<string>();
    for (const e of await outboxEvents()) {
      expect(e.data.resource.status).toBe(statusOf[e.type.split('.')[2] as keyof typeof statusOf]);
      messages.add(e.data.event.message);
      // One {} for the run (the origin) and one for the model (the related resource).
      expect(e.data.event.message.split('{}')).toHaveLength(3);
      expect(e.id).toBe(fieldcastId('forecast-event', e.subject, e.data.resource.status));
    }
    expect(messages.size).toBe(4);
  });

  it('after a long pause writes only the last day of steps', async () => {
    clock.set('2026-05-01T00:00:00Z');
    await writer.writeThrough(clock.ms);
    clock.set('2026-05-04T00:00:00Z');
    const n = await writer.writeThrough(clock.ms);
    const events = await outboxEvents();
    expect(events).toHaveLength(n);
    const times = events.map((e) => Date.parse(e.time));
    expect(Math.min(...times)).toBeGreaterThan(clock.ms - 24 * HOUR);
    // A day of steps: synthetic-global 4 runs x 4 steps, synthetic-rapid 24 runs x 4 steps.
    expect(n).toBe(16 + 96);
  });
});

describe('the background task', () => {
  it('writes steps as the clock moves, one pass each time the runtime runs it, and none after the service stops', async () => {
    const local = new TestClock(Date.parse('2026-05-01T05:59:00Z'));
    const fleet = await startTestFleet([modelService], { now: local.now });
    const count = async () => Number((await fleet.db.knex.withSchema('model').table('outbox').count({ n: '*' }).first())?.n);
    try {
      // The test fleet runs no pass on its own.
      expect(await fleet.db.knex.withSchema('model').table('forecast_event_clock').select('model_id')).toHaveLength(0);
      // The first pass starts each model's clock at now.
      await fleet.runBackground('model', FORECAST_EVENTS_TASK);
      expect(await fleet.db.knex.withSchema('model').table('forecast_event_clock').select('model_id')).toHaveLength(2);
      expect(await count()).toBe(0);
      local.set('2026-05-01T06:00:00Z');
      await fleet.runBackground('model');
      // 06Z: synthetic-global's run initialising and a run expiring; the same for synthetic-rapid.
      expect(await count()).toBe(4);
    } finally {
      await fleet.close();
    }
    await expect(fleet.runBackground('model')).rejects.toThrow(/stopped/);
  });

  it('runs on its own clock when the fleet runs background work', async () => {
    const local = new TestClock(Date.parse('2026-05-01T05:59:00Z'));
    const fleet = await startTestFleet([modelService], { now: local.now, background: true });
    try {
      // The first pass runs at start, without being asked.
      await eventually(async () =>
        expect(await fleet.db.knex.withSchema('model').table('forecast_event_clock').select('model_id')).toHaveLength(2),
      );
    } finally {
      await fleet.close();
    }
  });
});
