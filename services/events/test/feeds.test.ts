import { resourceEvent } from '@fieldcast/bus';
import { eventually, useTestFleet } from '@fieldcast/runtime/testing';
import { areaAppId } from '../src/domain/apps.js';
import { eventsService } from '../src/definition.js';
import { client, type Entry } from './helpers.js';

const RESOURCE = '6f1c3b1e-8a3c-4a8e-9a55-1d8f0e2c7b10';
const PRODUCT = '2d6a1f0c-3b7e-4f59-8a2e-5c9d1e7b3a40';

const t = useTestFleet([eventsService]);
let api: ReturnType<typeof client>;
beforeAll(() => {
  api = client(t.fleet);
});

const post = async (occurrenceTime: string, message = 'Sensor {} reported', tagged = [{ namespace: 'sensors', id: RESOURCE }]) => {
  const res = await api.post(t.alice, { app: t.alice.handle, namespace: 'sensors/reported', message, occurrenceTime, tagged });
  expect(res.status).toBe(200);
  return res.body.id as string;
};

const FEEDS = () => ['/events', `/apps/${t.alice.handle}/events`, `/resources/${RESOURCE}/events`];

describe('feed order (spec 4.10): occurrenceTime descending, arrival order breaking ties', () => {
  it('orders by occurrenceTime, not by arrival, and equal times newest arrival first, in every feed', async () => {
    const late = await post('2026-01-03T00:00:00Z');
    const early = await post('2026-01-01T00:00:00Z');
    const tieA = await post('2026-01-02T00:00:00Z');
    const tieB = await post('2026-01-02T00:00:00Z');
    for (const path of FEEDS()) expect(await api.ids(t.alice, path)).toEqual([late, tieB, tieA, early]);
  });
});

describe('keyset paging in every feed', () => {
  it.each([0, 1, 2])('feed %#: after pages forward and before back, never skipping or repeating while events arrive', async (i) => {
    const posted: string[] = [];
    for (let k = 0; k < 7; k++) posted.push(await post(`2026-01-01T00:0${k}:00Z`));
    // ties on the page boundary too
    posted.push(await post('2026-01-01T00:03:00Z'));
    const path = FEEDS()[i]!;
    const all = await api.ids(t.alice, `${path}?limit=100`);
    expect(all).toHaveLength(8);
    const seen: string[] = [];
    let page = await api.ids(t.alice, `${path}?limit=3`);
    while (page.length > 0) {
      seen.push(...page);
      await post('2026-01-01T00:05:30Z'); // lands inside the pages still to come as well as behind
      page = await api.ids(t.alice, `${path}?limit=3&after=${seen[seen.length - 1]}`);
      if (seen.length > 20) throw new Error('paging does not end');
    }
    // Everything that existed at the start is seen exactly once, in order; arrivals behind the
    // cursor are not, arrivals ahead of it are, each once.
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => all.includes(id))).toEqual(all);
    const newest = await api.ids(t.alice, `${path}?limit=100`);
    const back = await api.ids(t.alice, `${path}?limit=2&before=${all[4]}`);
    expect(back).toEqual(newest.slice(newest.indexOf(all[4]!) - 2, newest.indexOf(all[4]!)));
    expect(await api.ids(t.alice, `${path}?before=${newest[0]}`)).toEqual([]);
    expect(await api.ids(t.alice, `${path}?after=${newest[newest.length - 1]}`)).toEqual([]);
  });

  it.each([0, 1, 2])('feed %#: Link rel="next" names the older page while older events remain (decision 0516)', async (i) => {
    const ids: string[] = [];
    for (let k = 4; k >= 0; k--) ids.push(await post(`2026-01-01T00:0${k}:00Z`)); // newest first
    const path = FEEDS()[i]!;
    const page = async (query: string) => {
      const res = await api.get(t.alice, `${path}?${query}`);
      expect(res.status).toBe(200);
      return [(res.body as Entry[]).map((e) => e.id), res.headers.link] as const;
    };
    const next = (after: string, limit: number) => `<${path}?limit=${limit}&after=${after}>; rel="next"`;
    expect(await page('limit=2')).toEqual([ids.slice(0, 2), next(ids[1]!, 2)]);
    expect(await page(`limit=2&after=${ids[1]}`)).toEqual([ids.slice(2, 4), next(ids[3]!, 2)]);
    // the last page, and a page that holds exactly what remains, link nothing
    expect(await page(`limit=2&after=${ids[3]}`)).toEqual([[ids[4]], undefined]);
    expect(await page('limit=5')).toEqual([ids, undefined]);
    expect(await page(`after=${ids[4]}`)).toEqual([[], undefined]);
    // a page of newer events links the older ones, the cursor first among them
    expect(await page(`limit=1&before=${ids[3]}`)).toEqual([[ids[2]], next(ids[2]!, 1)]);
    expect(await page(`before=${ids[0]}`)).toEqual([[], undefined]);
  });

  it('limit defaults to 10 and is at most 100', async () => {
    for (let k = 0; k < 12; k++) await post(`2026-01-01T00:00:${String(k).padStart(2, '0')}Z`);
    for (const path of FEEDS()) {
      expect(await api.ids(t.alice, path)).toHaveLength(10);
      const over = await api.get(t.alice, `${path}?limit=101`);
      expect(over.status).toBe(400);
      expect(over.body.errors[0].path).toBe('limit');
      expect(over.body.errors[0].message).toBe('limit must be a whole number from 1 to 100');
      const both = await api.get(t.alice, `${path}?after=${RESOURCE}&before=${RESOURCE}`);
      expect(both.status).toBe(400);
      const unknown = await api.get(t.alice, `${path}?before=${RESOURCE}`);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ id: 'unknown_cursor', errors: [{ path: 'before' }] });
    }
  });
});

describe('the cursors, named in their refusals as every parameter is (cursorParam in packages/schemas)', () => {
  it.each(['after', 'before'])('%s given twice is told so, though both are event ids', async (name) => {
    const id = await post('2026-01-01T00:00:00Z');
    for (const path of FEEDS()) {
      const res = await api.get(t.alice, `${path}?${name}=${id}&${name}=${id}`);
      expect([res.status, res.body.id, res.body.errors]).toEqual([
        400,
        'invalid_parameter',
        [{ path: name, message: `${name} must be given once, as the id of an event (a UUID)` }],
      ]);
    }
  });

  it('after and before that are no ids are told that, once each, not also that they cannot go together', async () => {
    for (const path of FEEDS()) {
      const res = await api.get(t.alice, `${path}?after=x&before=y`);
      expect([res.status, res.body.id, res.body.errors]).toEqual([
        400,
        'invalid_parameter',
        [
          { path: 'after', message: 'after must be the id of an event (a UUID)' },
          { path: 'before', message: 'before must be the id of an event (a UUID)' },
        ],
      ]);
      // a fault elsewhere does not hide that the two cursors cannot go together
      const both = await api.get(t.alice, `${path}?after=${RESOURCE}&before=${RESOURCE}&limit=0`);
      expect(both.body.errors).toEqual([
        { path: 'limit', message: 'limit must be a whole number from 1 to 100' },
        { path: 'before', message: 'after and before cannot be used in the same call' },
      ]);
    }
  });
});

describe('limit, as every list of the API reads it (countParam in packages/schemas)', () => {
  it.each([
    ['0x10', 'limit must be a whole number from 1 to 100'],
    ['1e1', 'limit must be a whole number from 1 to 100'],
    ['5.0', 'limit must be a whole number from 1 to 100'],
    ['%205', 'limit must be a whole number from 1 to 100'],
    ['', 'limit must be a whole number from 1 to 100'],
    ['0', 'limit must be a whole number from 1 to 100'],
    ['3&limit=4', 'limit must be given once, as a whole number from 1 to 100'],
  ])('limit=%s is 400 invalid_parameter naming limit', async (limit, message) => {
    await post('2026-01-01T00:00:00Z');
    for (const path of FEEDS()) {
      const res = await api.get(t.alice, `${path}?limit=${limit}`);
      expect([res.status, res.body.id, res.body.errors]).toEqual([400, 'invalid_parameter', [{ path: 'limit', message }]]);
    }
  });
});

describe('limit: one message for every list of the area', () => {
  it('words a limit out of range as every list does, whichever side it is out on', async () => {
    for (const path of FEEDS()) {
      for (const limit of ['0', '101']) {
        const res = await api.get(t.alice, `${path}?limit=${limit}`);
        expect(res.body.errors).toEqual([{ path: 'limit', message: 'limit must be a whole number from 1 to 100' }]);
      }
    }
    const subscriptions = await api.get(t.alice, '/subscriptions?limit=0');
    expect(subscriptions.body.errors).toEqual([{ path: 'limit', message: 'limit must be a whole number from 1 to 1000' }]);
  });

  it('refuses an unknown delivery status naming the accepted ones', async () => {
    const res = await api.get(t.alice, `/subscriptions/${RESOURCE}/deliveries?status=lost`);
    expect(res.body.errors).toEqual([{ path: 'status', message: 'status must be one of pending, delivered, dead' }]);
  });
});

describe('application and resource feeds', () => {
  it('an unknown application reads like a known one with nothing visible (200 []), so handles cannot be enumerated; a malformed reference is 400, a malformed resource id 400', async () => {
    expect((await api.post(t.bob, { app: t.bob.handle, namespace: 'notes/private', message: 'bob only' })).status).toBe(200);
    const quiet = await api.get(t.alice, `/apps/${t.bob.handle}/events`);
    expect(quiet.status).toBe(200);
    expect(quiet.body).toEqual([]);
    for (const path of ['/apps/nobody-here/events', `/apps/${RESOURCE}/events`, '/apps/nobody-here/events?limit=5']) {
      const unknown = await api.get(t.alice, path);
      expect({ status: unknown.status, type: unknown.headers['content-type'], body: unknown.body }).toEqual({
        status: quiet.status,
        type: quiet.headers['content-type'],
        body: quiet.body,
      });
    }
    // A cursor is judged the same way for both: one the caller cannot see is unknown_cursor.
    const known = await api.get(t.alice, `/apps/${t.bob.handle}/events?after=${RESOURCE}`);
    const unknown = await api.get(t.alice, `/apps/nobody-here/events?after=${RESOURCE}`);
    expect(known.status).toBe(400);
    expect(unknown.body).toEqual(known.body);
    const bad = await api.get(t.alice, '/apps/no%20such/events');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('app');
    const res = await api.get(t.alice, '/resources/42/events');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('id');
  });

  it('a resource feed holds events whose origin or tagged list names it, and only those', async () => {
    const other = '9b0e7c2d-4a1f-4e36-b8d5-0f3a2c6e9d81';
    const tagged = await post('2026-01-01T00:00:00Z');
    const origin = (
      await api.post(t.alice, {
        app: t.alice.handle,
        origin: { namespace: 'sensors', id: RESOURCE },
        namespace: 'sensors/online',
        message: 'online',
      })
    ).body.id;
    const unrelated = await post('2026-01-01T00:00:00Z', 'Sensor {} reported', [{ namespace: 'sensors', id: other }]);
    expect(await api.ids(t.alice, `/resources/${RESOURCE}/events`)).toEqual([origin, tagged]);
    expect(await api.ids(t.alice, `/resources/${other}/events`)).toEqual([unrelated]);
  });
});

describe('consumption: any fieldcast.<area>.<resource> topic, including ones created after start', () => {
  it('a platform topic first used after start is consumed; its public events reach every account and feed', async () => {
    const bob = await t.fleet.account('bob');
    const frame = '7c1e2f3a-9b8d-4c6e-a5f4-3d2c1b0a9e8f';
    const event = resourceEvent({
      area: 'platform',
      resource: 'frame',
      action: 'published',
      subject: frame,
      data: { account: null, resource: {}, related: [{ namespace: 'platform/products', id: PRODUCT }] },
    });
    // Under Kafka (the integration suite) the owning area creates its topics; here that is us.
    await t.fleet.transport.ensureTopics(['fieldcast.platform.frames']);
    await t.fleet.transport.publish([{ topic: 'fieldcast.platform.frames', key: frame, event }]);
    const id = await eventually(async () => {
      const ids = await api.ids(bob, '/events');
      expect(ids).toHaveLength(1);
      return ids[0]!;
    }, 60_000);
    const entry = (await api.get(t.alice, `/events/${id}`)).body;
    expect(entry).toMatchObject({
      app: 'platform',
      origin: { namespace: 'platform/frames', id: frame },
      namespace: 'platform/frames/published',
      message: 'Frame {} was published (with {})',
      tagged: [
        { namespace: 'platform/frames', id: frame },
        { namespace: 'platform/products', id: PRODUCT },
      ],
    });
    for (const account of [t.alice, bob]) {
      for (const path of [
        '/events',
        '/apps/platform/events',
        `/apps/${areaAppId('platform')}/events`,
        `/resources/${frame}/events`,
        `/resources/${PRODUCT}/events`,
      ]) {
        expect(await api.ids(account, path)).toEqual([id]);
      }
    }
  });

  it('a topic of an area unknown to this release is consumed too, and its app feed found by name', async () => {
    const subject = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    const event = resourceEvent({
      area: 'orchards',
      resource: 'tree',
      action: 'created',
      subject,
      data: { account: t.alice.id, resource: {} },
    });
    await t.fleet.transport.ensureTopics(['fieldcast.orchards.trees']);
    await t.fleet.transport.publish([{ topic: 'fieldcast.orchards.trees', key: subject, event }]);
    const entries: Entry[] = await eventually(async () => {
      const res = await api.get(t.alice, '/apps/orchards/events');
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(1);
      return res.body;
    }, 60_000);
    expect(entries[0]).toMatchObject({ app: 'orchards', message: 'Tree {} was created' });
  });
});
