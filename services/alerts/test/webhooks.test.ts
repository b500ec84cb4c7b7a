import request from 'supertest';
import { agricultureService } from '@fieldcast/agriculture';
import type { Outbox } from '@fieldcast/db';
import { eventsService } from '@fieldcast/events';
import { createLogger } from '@fieldcast/kit';
import { eventually, type TestAccount, useTestFleet } from '@fieldcast/runtime/testing';
import { WebhookReceiver } from '../../events/test/webhook-receiver.js';
import { alertsService } from '../src/definition.js';
import { Evaluator } from '../src/evaluator.js';
import { RuleStates } from '../src/store.js';
import { createField, rules } from './helpers.js';
import { ScriptedWeather } from './scripted-weather.js';

/**
 * An alert reaches its owner without polling (docs/interface.md §12, events; §10, webhooks): the
 * triggered and cleared events of a rule are pushed, in order, to the owner's subscriptions whose
 * filter takes them, and to no other account's.
 */
const NOW = Date.parse('2026-06-15T10:20:00Z');
const HOUR_MS = 3_600_000;
const t = useTestFleet([agricultureService, alertsService, eventsService], {
  now: () => new Date(NOW),
  webhookAllowPrivate: ['127.0.0.1'],
});

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.stop();
});

async function subscribed(account: TestAccount, filter: object): Promise<WebhookReceiver> {
  const receiver = new WebhookReceiver();
  await receiver.start();
  receivers.push(receiver);
  const res = await request(t.fleet.app('events'))
    .post('/subscriptions')
    .set('Authorization', account.auth)
    .send({ url: receiver.url, filter });
  expect(res.status).toBe(201);
  return receiver;
}

it('pushes a frost rule’s triggered and cleared events to the owner’s matching webhook, and to no one else’s', async () => {
  const frost = await subscribed(t.alice, { namespaces: ['alerts/frost'] });
  const everything = await subscribed(t.alice, {});
  const bobs = await subscribed(t.bob, {});
  const field = await createField(t.fleet, t.alice);
  const created = await rules(t.fleet).create(t.alice, {
    target: { type: 'field', id: field },
    condition: { kind: 'frost', threshold: 0, hours: 24 },
  });
  expect(created.status).toBe(201);
  const rule = (created.body as { id: string }).id;

  // a replica of the service's evaluator on weather the test scripts
  const deps = t.fleet.deps('alerts');
  const weather = new ScriptedWeather();
  const replica = new Evaluator(new RuleStates(deps.db!.knex, deps.outbox as Outbox), weather, createLogger({ level: 'silent' }));
  weather.airTemperature = -1.8;
  expect(await replica.pass(NOW)).toMatchObject({ triggered: 1 });
  weather.airTemperature = 2;
  expect(await replica.pass(NOW + HOUR_MS)).toMatchObject({ cleared: 1 });

  const pushed = await eventually(() => {
    expect(frost.delivered).toHaveLength(2);
    return frost.delivered as unknown as { type: string; subject: string; data: { message: string; tagged: { id: string }[] } }[];
  }, 15_000);
  expect(pushed.map((e) => [e.type, e.subject])).toEqual([
    ['fieldcast.alerts.frost.triggered', rule],
    ['fieldcast.alerts.frost.cleared', rule],
  ]);
  expect(pushed[0]!.data.message).toBe('Rule {}: frost risk at {}: -1.8 °C forecast at 2026-06-15T11:00Z, below 0.0 °C');
  expect(pushed[0]!.data.tagged.map((x) => x.id)).toEqual([rule, field]);
  // The unfiltered subscription of the owner gets them too, beside the field's and the rule's own changes.
  await eventually(() =>
    expect(everything.delivered.map((e) => e.type)).toEqual(
      expect.arrayContaining(['fieldcast.alerts.frost.triggered', 'fieldcast.alerts.frost.cleared']),
    ),
  );
  // Bob's subscription takes everything he may see: his own subscription's creation, nothing of Alice's
  await eventually(() => expect(bobs.delivered.map((e) => e.type)).toEqual(['fieldcast.events.subscriptions.created']));
  for (const id of [rule, field]) expect(JSON.stringify(bobs.requests)).not.toContain(id);
});
