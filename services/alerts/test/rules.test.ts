import request from 'supertest';
import { agricultureService } from '@fieldcast/agriculture';
import { insightService } from '@fieldcast/insight';
import { storedCharLength, useTestFleet } from '@fieldcast/runtime/testing';
import { alertsService } from '../src/definition.js';
import type { Outbox } from '@fieldcast/db';
import { targetChangeOf } from '../src/consumers.js';
import { TargetCopies } from '../src/store.js';
import { copied, countRules, createAsset, createField, rules } from './helpers.js';

// A fixed clock, so the degree-day start dates accepted do not move.
const NOW = new Date('2026-06-15T10:20:00Z');
const t = useTestFleet([agricultureService, insightService, alertsService], { now: () => NOW });
const api = () => rules(t.fleet);

const frost = (target: { type: string; id: string }, condition: object = { kind: 'frost', threshold: 0, hours: 48 }) => ({
  description: 'Frost on North 40',
  target,
  condition,
});

describe('alert rules: owned like fields (docs/interface.md, alerts)', () => {
  it('creates, reads, lists, replaces and deletes a rule on a field and one on an asset', async () => {
    const field = await createField(t.fleet, t.alice);
    const asset = await createAsset(t.fleet, t.alice);
    const created = await api().create(t.alice, frost({ type: 'field', id: field }));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      description: 'Frost on North 40',
      target: { type: 'field', id: field },
      condition: { kind: 'frost', threshold: 0, hours: 48 },
    });
    const onAsset = await api().create(t.alice, {
      target: { type: 'asset', id: asset },
      condition: { kind: 'reference-et', threshold: 30, days: 7 },
    });
    expect(onAsset.status).toBe(201);
    expect(onAsset.body.description).toBe('');

    expect((await api().get(t.alice, `/rules/${created.body.id}`)).body).toEqual(created.body);
    // Both made at the test's one clock reading: the list orders them by id.
    const [first, second] = [created.body, onAsset.body].sort((a, b) => (a.id < b.id ? -1 : 1));
    const page = await api().get(t.alice, '/rules?limit=1');
    expect(page.body).toEqual([first]);
    expect(page.headers.link).toBe(`</rules?limit=1&after=${first.id}>; rel="next"`);
    expect((await api().get(t.alice, `/rules?limit=1&after=${first.id}`)).body).toEqual([second]);

    const replaced = await api().replace(
      t.alice,
      created.body.id,
      frost({ type: 'field', id: field }, { kind: 'precipitation', threshold: 25, hours: 24 }),
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.condition).toEqual({ kind: 'precipitation', threshold: 25, hours: 24 });
    const state = await api().get(t.alice, `/rules/${created.body.id}/state`);
    expect(state.body).toEqual({
      rule: created.body.id,
      watching: true,
      holding: null,
      value: null,
      threshold: 25,
      unit: 'mm',
      evaluatedAt: null,
      changedAt: null,
    });

    expect((await api().remove(t.alice, created.body.id)).status).toBe(200);
    expect((await api().get(t.alice, `/rules/${created.body.id}`)).status).toBe(404);
    expect(await countRules(t.fleet)).toBe(1);
  });

  it('a created rule’s Location (RFC 9110 section 10.2.2) reads it back; an after given twice is told so', async () => {
    const created = await api().create(t.alice, frost({ type: 'field', id: await createField(t.fleet, t.alice) }));
    expect([created.status, created.headers.location]).toEqual([201, `/rules/${created.body.id}`]);
    const read = await api().get(t.alice, created.headers.location!);
    expect([read.status, read.body.id]).toEqual([200, created.body.id]);
    const twice = await api().get(t.alice, `/rules?after=${created.body.id}&after=${created.body.id}`);
    expect([twice.status, twice.body.errors]).toEqual([
      400,
      [{ path: 'after', message: 'after must be given once, as the id of an item of the list (a UUID)' }],
    ]);
  });

  it('takes every kind with its parameters', async () => {
    const field = await createField(t.fleet, t.alice);
    const target = { type: 'field', id: field };
    const conditions = [
      {
        kind: 'degree-days',
        start: '2026-04-15',
        threshold: 500,
        base: 50,
        scale: 'fahrenheit',
        method: 'single-sine',
        cap: 86,
        cutoff: 'vertical',
      },
      { kind: 'degree-days', start: '2026-04-15', threshold: 500, method: 'single-triangle', cap: 30, cutoff: 'cap' },
      // the thresholds' edges: air temperatures on Earth with a margin, in either scale (decision 0485)
      { kind: 'degree-days', start: '2026-04-15', threshold: 500, base: -100, method: 'single-sine', cap: 100 },
      { kind: 'degree-days', start: '2026-04-15', threshold: 500, base: -148, scale: 'fahrenheit', method: 'single-sine', cap: 212 },
      { kind: 'frost', threshold: -2, hours: 240 },
      { kind: 'reference-et', threshold: 0.5, days: 31 },
      { kind: 'precipitation', threshold: 0, hours: 1 },
      { kind: 'severe-weather', radiusKm: 200, hours: 72, types: ['hail', 'tornado'] },
    ];
    for (const condition of conditions) {
      const res = await api().create(t.alice, { target, condition });
      expect([res.status, res.body.condition]).toEqual([201, condition]);
    }
  });

  it('a create’s, a read’s and a replace’s answer show one rule alike: the same members in one order and one ETag, so If-Match takes the create’s', async () => {
    // The rule is stored as jsonb, which keeps members in an order of its own (by length): the
    // answers must not show the order the rule took on its way (docs/decisions/0461-owned-resources-honour-if-match.md).
    const target = { type: 'field', id: await createField(t.fleet, t.alice) };
    for (const condition of [
      { kind: 'frost', threshold: -2, hours: 48 },
      { kind: 'severe-weather', radiusKm: 20, hours: 6, types: ['hail'] },
      { kind: 'degree-days', start: '2026-04-15', threshold: 500, base: 8, method: 'single-sine', cap: 30, cutoff: 'vertical' },
    ]) {
      const created = await api().create(t.alice, { target, condition });
      const read = await api().get(t.alice, `/rules/${created.body.id}`);
      expect([read.text, read.headers.etag]).toEqual([created.text, created.headers.etag]);
      const replaced = await api()
        .replace(t.alice, created.body.id, { description: 'renamed', target, condition })
        .set('If-Match', created.headers.etag!);
      expect([replaced.status, replaced.body.errors]).toEqual([200, undefined]);
      const reread = await api().get(t.alice, `/rules/${created.body.id}`);
      expect([reread.text, reread.headers.etag]).toEqual([replaced.text, replaced.headers.etag]);
    }
  });

  it('the description counts characters: 1,000 outside the BMP are stored, 1,001 refused at description (decision 0485)', async () => {
    const target = { type: 'field', id: await createField(t.fleet, t.alice) };
    const corn = '\u{1F33D}'; // one character, two UTF-16 code units
    const res = await api().create(t.alice, { ...frost(target), description: corn.repeat(1000) });
    expect([res.status, res.body.description]).toEqual([201, corn.repeat(1000)]);
    expect(await storedCharLength(t.fleet, 'alerts.rules', res.body.id, 'description')).toBe(1000);
    const over = await api().create(t.alice, { ...frost(target), description: corn.repeat(1001) });
    expect([over.status, over.body.errors.map((e: { path: string }) => e.path)]).toEqual([400, ['description']]);
    expect(await countRules(t.fleet)).toBe(1);
  });

  it('answers another account’s rules with 404, and watches another account’s field or asset never', async () => {
    const aliceField = await createField(t.fleet, t.alice);
    const bobField = await createField(t.fleet, t.bob);
    const bobAsset = await createAsset(t.fleet, t.bob);
    const rule = (await api().create(t.alice, frost({ type: 'field', id: aliceField }))).body as { id: string };
    expect((await api().get(t.bob, `/rules/${rule.id}`)).status).toBe(404);
    expect((await api().get(t.bob, `/rules/${rule.id}/state`)).body.id).toBe('rule_does_not_exist');
    expect((await api().replace(t.bob, rule.id, frost({ type: 'field', id: bobField }))).status).toBe(404);
    expect((await api().remove(t.bob, rule.id)).status).toBe(404);
    expect((await api().get(t.bob, '/rules')).body).toEqual([]);
    // Bob's field and asset read as an id nobody has: accepted, never watched (nothing tells Alice they exist).
    const unknown = '7c1e0b7a-3d2f-4e5a-9b8c-6d5e4f3a2b1c';
    for (const target of [
      { type: 'field', id: bobField },
      { type: 'asset', id: bobAsset },
      { type: 'field', id: unknown },
    ]) {
      const res = await api().create(t.alice, frost(target));
      expect(res.status).toBe(201);
      expect((await api().get(t.alice, `/rules/${res.body.id}/state`)).body).toMatchObject({ watching: false, holding: null });
    }
    expect((await api().get(t.alice, `/rules/${rule.id}/state`)).body.watching).toBe(true);
  });

  it('refuses the account’s own field named as an asset, and its deleted field, with 422, changing nothing', async () => {
    const field = await createField(t.fleet, t.alice);
    const rule = (await api().create(t.alice, frost({ type: 'field', id: field }))).body as { id: string };
    const asAsset = await api().create(t.alice, frost({ type: 'asset', id: field }));
    expect(asAsset.status).toBe(422);
    expect(asAsset.body).toMatchObject({ id: 'target_does_not_exist', errors: [{ path: 'target.id' }] });
    const moved = await api().replace(t.alice, rule.id, frost({ type: 'asset', id: field }));
    expect([moved.status, moved.body.id]).toEqual([422, 'target_does_not_exist']);
    expect((await api().get(t.alice, `/rules/${rule.id}`)).body.target).toEqual({ type: 'field', id: field });
    expect(await countRules(t.fleet)).toBe(1);
  });

  it('names the target’s own type in plain English when it is sent with the other one', async () => {
    const field = await createField(t.fleet, t.alice);
    const asset = await createAsset(t.fleet, t.alice);
    const asAsset = await api().create(t.alice, frost({ type: 'asset', id: field }));
    expect(asAsset.body.errors).toEqual([{ path: 'target.id', message: "is the id of one of the account's fields, not of an asset" }]);
    const asField = await api().create(t.alice, frost({ type: 'field', id: asset }));
    expect(asField.body.errors).toEqual([{ path: 'target.id', message: "is the id of one of the account's assets, not of a field" }]);
  });

  it('answers a body of the wrong shape with 400 and a condition out of its ranges with 422, naming the path', async () => {
    const field = await createField(t.fleet, t.alice);
    const target = { type: 'field', id: field };
    const shape: [object, string][] = [
      [{ target, condition: { kind: 'frost', threshold: '0', hours: 48 } }, 'condition.threshold'],
      [{ target, condition: { kind: 'hail', threshold: 0 } }, 'condition.kind'],
      [{ target, condition: { kind: 'frost', threshold: 0, hours: 1.5 } }, 'condition.hours'],
      [{ target: { type: 'farm', id: field }, condition: { kind: 'frost', threshold: 0, hours: 48 } }, 'target.type'],
      [{ target: { type: 'field', id: 'north-40' }, condition: { kind: 'frost', threshold: 0, hours: 48 } }, 'target.id'],
      [{ target, condition: { kind: 'severe-weather', radiusKm: 10, hours: 6, types: ['hail', 'frogs'] } }, 'condition.types.1'],
      [{ target }, 'condition'],
      // a member the rule does not know, misspelt or not, is refused rather than dropped
      [{ target, condition: { kind: 'frost', threshold: 0, hours: 48, hourz: 5 } }, 'condition'],
      [{ target, condition: { kind: 'degree-days', start: '2026-04-15', threshold: 100, cuttoff: 'vertical' } }, 'condition'],
      [{ target: { ...target, kind: 'field' }, condition: { kind: 'frost', threshold: 0, hours: 48 } }, 'target'],
      [{ target, condition: { kind: 'frost', threshold: 0, hours: 48 }, bogus: 1 }, ''],
    ];
    for (const [body, path] of shape) {
      const res = await api().create(t.alice, body);
      expect([res.status, res.body.id, res.headers['content-type']]).toEqual([
        400,
        'invalid_body',
        'application/problem+json; charset=utf-8',
      ]);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    const content: [object, string][] = [
      [{ kind: 'frost', threshold: 0, hours: 0 }, 'condition.hours'],
      [{ kind: 'frost', threshold: -80, hours: 24 }, 'condition.threshold'],
      [{ kind: 'precipitation', threshold: 10, hours: 241 }, 'condition.hours'],
      [{ kind: 'reference-et', threshold: 0, days: 7 }, 'condition.threshold'],
      [{ kind: 'reference-et', threshold: 10, days: 32 }, 'condition.days'],
      [{ kind: 'severe-weather', radiusKm: 500, hours: 6 }, 'condition.radiusKm'],
      [{ kind: 'severe-weather', radiusKm: 50, hours: 6, types: [] }, 'condition.types'],
      [{ kind: 'severe-weather', radiusKm: 50, hours: 6, types: ['hail', 'hail'] }, 'condition.types'],
      [{ kind: 'degree-days', start: '2025-06-14', threshold: 100 }, 'condition.start'],
      [{ kind: 'degree-days', start: '2026-06-16', threshold: 100 }, 'condition.start'],
      [{ kind: 'degree-days', start: '2026-02-30', threshold: 100 }, 'condition.start'],
      [{ kind: 'degree-days', start: '2026-04-15', threshold: 100, cap: 30 }, 'condition.cap'],
      [{ kind: 'degree-days', start: '2026-04-15', threshold: 100, method: 'single-sine', cap: 5 }, 'condition.cap'],
      [
        { kind: 'degree-days', start: '2026-04-15', threshold: 100, method: 'modified-average', cap: 30, cutoff: 'vertical' },
        'condition.cutoff',
      ],
      [{ kind: 'degree-days', start: '2026-04-15', threshold: 0 }, 'condition.threshold'],
      [{ kind: 'degree-days', start: '2026-04-15', threshold: 100, base: 150 }, 'condition.base'],
      [{ kind: 'degree-days', start: '2026-04-15', threshold: 100, base: 213, scale: 'fahrenheit' }, 'condition.base'],
      [{ kind: 'degree-days', start: '2026-04-15', threshold: 100, method: 'single-sine', cap: 1e24 }, 'condition.cap'],
      [
        { kind: 'degree-days', start: '2026-04-15', threshold: 100, method: 'single-sine', cap: 212.5, scale: 'fahrenheit' },
        'condition.cap',
      ],
    ];
    for (const [condition, path] of content) {
      const res = await api().create(t.alice, { target, condition });
      expect([res.status, res.body.id, path]).toEqual([422, 'invalid_condition', path]);
      expect(res.body.errors).toEqual([{ path, message: expect.any(String) }]);
    }
    // A start 366 days back would make a season of 367 days: the message says what is accepted.
    const long = await api().create(t.alice, { target, condition: { kind: 'degree-days', start: '2025-06-14', threshold: 100 } });
    expect(long.body.errors).toEqual([
      {
        path: 'condition.start',
        message: 'start must be a date YYYY-MM-DD from 2025-06-15 to today, 2026-06-15 (UTC): a season of at most 366 days through today',
      },
    ]);
    // A threshold is refused in the scale the rule asks in, its bounds named in it.
    const hot = await api().create(t.alice, {
      target,
      condition: {
        kind: 'degree-days',
        start: '2026-04-15',
        threshold: 100,
        scale: 'fahrenheit',
        base: 50,
        method: 'single-sine',
        cap: 300,
      },
    });
    expect(hot.body.errors).toEqual([
      {
        path: 'condition.cap',
        message: 'cap must be from -148 to 212 °F (scale fahrenheit): the air temperatures on Earth, with a margin',
      },
    ]);
    expect(await countRules(t.fleet)).toBe(0);
  });

  it('says what is wrong with a condition that is missing or no object, and with a number JSON cannot hold, changing nothing', async () => {
    const field = await createField(t.fleet, t.alice);
    const target = { type: 'field', id: field };
    // the kind's words are for an object whose kind is unknown; 1e400 is past every double (RFC 8259 section 6)
    for (const [body, errors] of [
      [{ target }, [{ path: 'condition', message: 'is missing: must be an object' }]],
      [{ target, condition: null }, [{ path: 'condition', message: 'must be an object, not null' }]],
      [{ target, condition: [] }, [{ path: 'condition', message: 'must be an object, not an array' }]],
      [
        { target, condition: {} },
        [{ path: 'condition.kind', message: 'kind must be one of degree-days, frost, reference-et, precipitation, severe-weather' }],
      ],
    ] as const) {
      const res = await api().create(t.alice, body);
      expect([JSON.stringify(body), res.status, res.body.errors]).toEqual([JSON.stringify(body), 400, errors]);
    }
    const huge = await request(t.fleet.app('alerts'))
      .post('/rules')
      .set('Authorization', t.alice.auth)
      .set('Content-Type', 'application/json')
      .send(`{"target": ${JSON.stringify(target)}, "condition": {"kind": "frost", "threshold": 1e400, "hours": 48}}`);
    expect([huge.status, huge.body.errors]).toEqual([
      400,
      [{ path: 'condition.threshold', message: 'must be a number, not one beyond the largest JSON number this API reads (±1.8e308)' }],
    ]);
    expect(await countRules(t.fleet)).toBe(0);
  });

  it('deletes the rules of a field when the field is deleted, and keeps them in step with its events', async () => {
    const field = await createField(t.fleet, t.alice);
    const rule = (await api().create(t.alice, frost({ type: 'field', id: field }))).body as { id: string };
    const gone = await request(t.fleet.app('agriculture')).delete(`/fields/${field}`).set('Authorization', t.alice.auth);
    expect(gone.status).toBe(200);
    await copied(t.fleet, field, true);
    expect((await api().get(t.alice, `/rules/${rule.id}`)).status).toBe(404);
    const again = await api().create(t.alice, frost({ type: 'field', id: field }));
    expect([again.status, again.body.id, again.body.errors]).toEqual([
      422,
      'target_does_not_exist',
      [{ path: 'target.id', message: 'the field was deleted' }],
    ]);
    const outbox: { event: { type: string; subject: string } }[] = await t.fleet.db.knex
      .withSchema('alerts')
      .table('outbox')
      .select('event');
    const deleted = outbox
      .map((r) => (typeof r.event === 'string' ? JSON.parse(r.event) : r.event))
      .filter((e) => e.subject === rule.id && e.type === 'fieldcast.rule.deleted');
    expect(deleted).toHaveLength(1);
  });

  it('deletes only the owner’s rules with a deleted field: another account’s rule naming its id stays, as on an unknown id', async () => {
    // docs/decisions/0270-alerts-area.md: an id of another account's reads exactly like an unknown
    // one, so Bob's rule neither watches Alice's field nor learns of its deletion.
    const field = await createField(t.fleet, t.alice);
    const bobs = (await api().create(t.bob, frost({ type: 'field', id: field }))).body as { id: string };
    const gone = await request(t.fleet.app('agriculture')).delete(`/fields/${field}`).set('Authorization', t.alice.auth);
    expect(gone.status).toBe(200);
    await copied(t.fleet, field, true);
    expect((await api().get(t.bob, `/rules/${bobs.id}`)).status).toBe(200);
    expect((await api().get(t.bob, `/rules/${bobs.id}/state`)).body).toMatchObject({ watching: false, holding: null });
  });

  it('keeps its copy from the events in order: a redelivered older event changes nothing', async () => {
    const field = await createField(t.fleet, t.alice);
    const deps = t.fleet.deps('alerts');
    const copies = new TargetCopies(deps.db!.knex, deps.outbox as Outbox);
    const row = () => t.fleet.db.knex.withSchema('alerts').table('targets').where({ id: field }).first();
    const eventTime = new Date((await row()).event_time).getTime();
    // an update of the field from before the one applied, delivered again: ignored
    await copies.apply({
      target: { id: field, type: 'field', accountId: t.alice.id, centroid: { lat: 10, lon: 10 } },
      action: 'updated',
      timeMs: eventTime - 1000,
    });
    expect((await row()).latitude).toBeCloseTo(42.005, 6);
    await copies.apply({
      target: { id: field, type: 'field', accountId: t.alice.id, centroid: { lat: 10, lon: 10 } },
      action: 'deleted',
      timeMs: eventTime + 2000,
    });
    // its creation delivered again after the deletion does not bring it back
    await copies.apply({
      target: { id: field, type: 'field', accountId: t.alice.id, centroid: { lat: 10, lon: 10 } },
      action: 'created',
      timeMs: eventTime + 1000,
    });
    expect((await row()).deleted).toBe(true);
  });

  it('passes over messages that are no change of a field or asset', () => {
    const event = (type: string, data: object, subject = '3f2e1d0c-9b8a-4765-a432-10fedcba9876') =>
      JSON.stringify({
        specversion: '1.0',
        id: 'x',
        source: '/agriculture',
        type,
        subject,
        time: '2026-06-15T10:00:00Z',
        datacontenttype: 'application/json',
        data,
      });
    const field = {
      id: '3f2e1d0c-9b8a-4765-a432-10fedcba9876',
      description: 'North 40',
      type: 'GeometryCollection',
      geometries: [],
      centroid: { latitude: 42, longitude: -93.5 },
    };
    const account = '0b7f2c3e-5a8d-4c21-9f1e-2d6a7b8c9d01';
    const topic = 'fieldcast.agriculture.fields';
    expect(targetChangeOf(topic, event('fieldcast.field.created', { account, resource: field }))).toEqual({
      target: { id: field.id, type: 'field', accountId: account, centroid: { lat: 42, lon: -93.5 } },
      action: 'created',
      timeMs: Date.parse('2026-06-15T10:00:00Z'),
    });
    expect(targetChangeOf(topic, 'not json')).toBe('not JSON');
    expect(targetChangeOf(topic, event('fieldcast.asset.created', { account, resource: field }))).toMatch(/no change of a field/);
    expect(targetChangeOf(topic, event('fieldcast.field.created', { account: null, resource: field }))).toMatch(/account/);
    expect(targetChangeOf(topic, event('fieldcast.field.created', { account, resource: { ...field, centroid: null } }))).toMatch(
      /not a field/,
    );
    expect(
      targetChangeOf(topic, event('fieldcast.field.created', { account, resource: field }, '00000000-0000-4000-8000-000000000000')),
    ).toMatch(/not a field/);
    expect(targetChangeOf('fieldcast.tiles.styles', event('fieldcast.style.created', { account, resource: {} }))).toMatch(/not watched/);
  });
});
