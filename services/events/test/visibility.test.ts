import { resourceEvent } from '@fieldcast/bus';
import { eventually, startTestFleet, type TestAccount, type TestFleet } from '@fieldcast/runtime/testing';
import { agricultureService } from '@fieldcast/agriculture';
import { eventsService } from '../src/definition.js';
import { client, storedIds } from './helpers.js';

/**
 * Visibility (docs/architecture.md §5): an account sees public events, its own application's
 * events and events about its own resources, never another account's. Each test here tries to
 * cross that line through one door: every feed, with and without cursors, and GET by id.
 */
const PRODUCT = '2d6a1f0c-3b7e-4f59-8a2e-5c9d1e7b3a40';
const FRAME = '9b0e7c2d-4a1f-4e36-b8d5-0f3a2c6e9d81';

let fleet: TestFleet;
let api: ReturnType<typeof client>;
let alice: TestAccount;
let bob: TestAccount;
let w: {
  aliceField: string;
  bobField: string;
  /** consumed events */
  aliceFieldEvent: string;
  bobFieldEvent: string;
  /** bob's application event about his field */
  bobAppEvent: string;
  /** alice's application event naming bob's field */
  aliceAboutBob: string;
  publicEvent: string;
};

beforeAll(async () => {
  fleet = await startTestFleet([agricultureService, eventsService]);
  // On PostgreSQL the tables outlive earlier test files, and their public events would show here.
  await fleet.reset();
  api = client(fleet);
  alice = await fleet.account('alice');
  bob = await fleet.account('bob');
  const aliceField = await api.createField(alice);
  const bobField = await api.createField(bob);
  const frameEvent = resourceEvent({
    area: 'platform',
    resource: 'frame',
    action: 'published',
    subject: FRAME,
    data: { account: null, resource: {}, related: [{ namespace: 'platform/products', id: PRODUCT }] },
  });
  await fleet.transport.ensureTopics(['fieldcast.platform.frames']);
  await fleet.transport.publish([{ topic: 'fieldcast.platform.frames', key: FRAME, event: frameEvent }]);
  const [aliceFieldEvent, bobFieldEvent, publicEvent] = await eventually(async () => {
    const ids = [(await storedIds(fleet, aliceField))[0], (await storedIds(fleet, bobField))[0], (await storedIds(fleet, FRAME))[0]];
    for (const id of ids) expect(id).toBeDefined();
    return ids as string[];
  }, 60_000);
  const appEvent = async (account: TestAccount, field: string, message: string) => {
    const res = await api.post(account, {
      app: account.handle,
      namespace: 'irrigation/started',
      message,
      tagged: [{ namespace: 'agriculture/fields', id: field }],
    });
    expect(res.status).toBe(200);
    return res.body.id as string;
  };
  w = {
    aliceField,
    bobField,
    aliceFieldEvent: aliceFieldEvent!,
    bobFieldEvent: bobFieldEvent!,
    publicEvent: publicEvent!,
    bobAppEvent: await appEvent(bob, bobField, 'Irrigation started on {}'),
    aliceAboutBob: await appEvent(alice, bobField, 'Spotted {} from the road'),
  };
}, 90_000);
afterAll(async () => {
  await fleet.close();
}, 30_000);

const bobsEvents = () => [w.bobFieldEvent, w.bobAppEvent];
const feedsFor = (me: TestAccount, other: TestAccount, otherField: string) => [
  '/events',
  `/apps/${other.handle}/events`,
  `/apps/${other.id}/events`,
  `/apps/${me.handle}/events`,
  '/apps/agriculture/events',
  '/apps/platform/events',
  `/resources/${otherField}/events`,
  `/resources/${w.aliceField}/events`,
  `/resources/${w.bobField}/events`,
  `/resources/${PRODUCT}/events`,
];

describe('what each account sees', () => {
  it('alice: her field, her application’s events (even one naming bob’s field) and public events', async () => {
    expect(new Set(await api.ids(alice, '/events'))).toEqual(new Set([w.aliceFieldEvent, w.aliceAboutBob, w.publicEvent]));
    expect(await api.ids(alice, '/apps/agriculture/events')).toEqual([w.aliceFieldEvent]);
    expect(await api.ids(alice, `/resources/${w.bobField}/events`)).toEqual([w.aliceAboutBob]);
  });

  it('bob: his field and his application’s events; alice’s event naming his field is hers, not in his feeds', async () => {
    expect(new Set(await api.ids(bob, '/events'))).toEqual(new Set([w.bobFieldEvent, w.bobAppEvent, w.publicEvent]));
    expect(new Set(await api.ids(bob, `/resources/${w.bobField}/events`))).toEqual(new Set([w.bobFieldEvent, w.bobAppEvent]));
    expect(await api.ids(bob, `/apps/${alice.handle}/events`)).toEqual([]);
  });

  it('public events reach both through every feed that names them', async () => {
    for (const account of [alice, bob]) {
      for (const path of ['/events', '/apps/platform/events', `/resources/${PRODUCT}/events`, `/resources/${FRAME}/events`]) {
        expect(await api.ids(account, path)).toContain(w.publicEvent);
      }
    }
  });
});

describe('crossing the line', () => {
  it('no feed of alice’s, at any limit, holds an event of bob’s', async () => {
    for (const path of feedsFor(alice, bob, w.bobField)) {
      const ids = await api.ids(alice, `${path}?limit=100`);
      for (const id of bobsEvents()) expect({ path, leaked: ids.includes(id) }).toEqual({ path, leaked: false });
    }
  });

  it('no feed of bob’s holds an event of alice’s', async () => {
    for (const path of feedsFor(bob, alice, w.aliceField)) {
      const ids = await api.ids(bob, `${path}?limit=100`);
      for (const id of [w.aliceFieldEvent, w.aliceAboutBob]) expect({ path, leaked: ids.includes(id) }).toEqual({ path, leaked: false });
    }
  });

  it('bob’s events are 404 by id on both paths, exactly like an id that never existed', async () => {
    for (const id of bobsEvents()) {
      for (const path of [`/events/${id}`, `/event/${id}`]) {
        const res = await api.get(alice, path);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          ...(await api.get(alice, path.replace(id, FRAME.replace('9b0e', '0000')))).body,
          detail: expect.any(String),
          message: expect.any(String),
        });
      }
    }
    for (const path of [`/events/${w.aliceAboutBob}`, `/event/${w.aliceFieldEvent}`]) expect((await api.get(bob, path)).status).toBe(404);
  });

  it('bob’s events are unknown cursors in every feed, in both directions', async () => {
    for (const path of feedsFor(alice, bob, w.bobField)) {
      for (const id of bobsEvents()) {
        for (const dir of ['after', 'before']) {
          const res = await api.get(alice, `${path}?${dir}=${id}`);
          expect({ path, dir, status: res.status, id: res.body.id }).toEqual({ path, dir, status: 400, id: 'unknown_cursor' });
        }
      }
    }
  });

  it('alice cannot emit as bob, nor as a platform application', async () => {
    for (const app of [bob.handle, bob.id, 'agriculture', 'platform']) {
      const res = await api.post(alice, { app, namespace: 'x/y', message: 'm' });
      expect(res.status).toBe(403);
    }
  });
});
