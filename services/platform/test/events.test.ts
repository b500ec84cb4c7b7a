import { eventsService } from '@fieldcast/events';
import { fieldcastId } from '@fieldcast/ids';
import { PRODUCT_GRANTS_TOPIC } from '@fieldcast/schemas';
import { eventually, useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog, frameZoomLevels, SYNTHETIC_GRID, type ZoomLevels } from '@fieldcast/weather';
import type { Outbox } from '@fieldcast/db';
import request from 'supertest';
import { FRAME_ANNOUNCEMENTS_TASK, platformService } from '../src/definition.js';
import { tileJobId } from '../src/domain/tile-builder.js';
import { FrameAnnouncer } from '../src/frame-announcer.js';
import { Announcements } from '../src/store.js';
import { clock, H, now } from './helpers.js';

/**
 * This file's clock: the same hour of the same day as the other files', six years on, so the
 * frames, runs and events here are its own even where a broker still holds the other files'
 * announcements (the integration suite's Kafka topics are read from the beginning).
 */
const START = Date.UTC(2031, 5, 15, 10, 20);

const t = useTestFleet([platformService, eventsService], { now });

/**
 * Every row the platform's outbox holds for the events area (its frame and run announcements,
 * not the product grants' state topic, which no event is made of) has reached the events table. Against Kafka the events
 * consumer may be rejoining its group when the machine is loaded (the integration suite runs the
 * console's browser test beside it), so the wait is longer than `eventually`'s 10 s.
 */
async function delivered(): Promise<void> {
  await eventually(async () => {
    const { rows } = await t.fleet.db.knex.raw(
      'select count(*) as n from platform.outbox o where o.topic <> ? and not exists (select 1 from events.events e where e.source_event_id = o.id::text)',
      [PRODUCT_GRANTS_TOPIC],
    );
    expect(Number(rows[0].n)).toBe(0);
  }, 30_000);
}

// The passes are driven by the tests (the test fleet runs no background task on its own), and
// each test's events have arrived before the next empties the tables.
beforeAll(delivered);

afterEach(delivered);

beforeEach(() => {
  clock.ms = START;
});

interface FeedEvent {
  app: string;
  origin: { namespace: string; id: string };
  message: string;
  occurrenceTime: string;
  tagged: { namespace: string; id: string }[];
}

/** A feed's events of this file's years (see START). */
const feed = async (path: string, account = t.alice) => {
  const res = await request(t.fleet.app('events')).get(path).set('Authorization', account.auth);
  expect(res.status).toBe(200);
  return (res.body as FeedEvent[]).filter((e) => e.occurrenceTime >= '2031');
};

/** Public products with frames (the restricted one is never announced): 6 hourly, 3 daily. */
const ANNOUNCED = [
  'air-temperature',
  'air-temperature-daily-max',
  'air-temperature-daily-min',
  'precipitation-rate',
  'growing-degree-days',
  'relative-humidity',
  'evapotranspiration-short-crop',
  'shortwave-radiation',
  'precipitation-rate-north-america',
];

const outboxRows = async () => Number((await t.fleet.db.knex.withSchema('platform').table('outbox').count({ n: '*' }).first())?.n);

/** One pass of the service's background task, by hand at the test's clock; resolves to the number of announcements it made. */
async function pass(): Promise<number> {
  const before = await outboxRows();
  await t.fleet.runBackground('platform', FRAME_ANNOUNCEMENTS_TASK);
  return (await outboxRows()) - before;
}
const PRODUCT = (name: string) => fieldcastId('product', name);

describe('the tile-building application’s events (spec 6; docs/decisions/0122-frame-and-run-events.md)', () => {
  it('announces each product’s newest frame at first start, and no history', async () => {
    expect(await pass()).toBe(ANNOUNCED.length);
    const events = await eventually(async () => {
      const e = await feed('/events?limit=100');
      expect(e).toHaveLength(ANNOUNCED.length);
      return e;
    });
    const air = events.find((e) => e.tagged[2]!.id === PRODUCT('air-temperature'))!;
    const frame = fieldcastId('frame', 'air-temperature', '2031-06-15T10:00:00Z');
    expect(air).toMatchObject({
      app: 'platform',
      origin: { namespace: 'platform/jobs', id: tileJobId({ name: 'air-temperature' }) },
      message: 'Job {} built frame {} of product {}',
      occurrenceTime: '2031-06-15T10:00:00.000Z',
      tagged: [
        { namespace: 'platform/jobs', id: tileJobId({ name: 'air-temperature' }) },
        { namespace: 'platform/frames', id: frame },
        { namespace: 'platform/products', id: PRODUCT('air-temperature') },
      ],
    });
    const read = await request(t.fleet.app('events'))
      .get(`/events/${(air as unknown as { id: string }).id}`)
      .set('Authorization', t.alice.auth);
    expect(read.body.namespace).toBe('platform/frames/created');
    // public: another account sees them too, and so do the frame's, the product's, the job's and the application's feeds
    expect(await feed('/events?limit=100', t.bob)).toHaveLength(ANNOUNCED.length);
    expect(await feed(`/resources/${frame}/events`)).toHaveLength(1);
    expect(await feed(`/resources/${PRODUCT('air-temperature')}/events`)).toHaveLength(1);
    expect(await feed(`/resources/${tileJobId({ name: 'air-temperature' })}/events`)).toHaveLength(1);
    expect(await feed('/apps/platform/events?limit=100')).toHaveLength(ANNOUNCED.length);
    expect(await feed(`/resources/${PRODUCT('dew-point-temperature')}/events`)).toEqual([]);
    // nothing new, nothing announced
    expect(await pass()).toBe(0);
  });

  it('announces every frame that appears while it runs, and the forecast runs’ steps', async () => {
    await pass();
    clock.ms = START + 2 * H; // 12:20
    // 6 hourly products x 2 new frames (11Z, 12Z); per forecast product (8), the 12Z run initializing
    // and the run of 8 June 12Z expiring
    expect(await pass()).toBe(12 + 16);
    const product = PRODUCT('air-temperature');
    const events = await eventually(async () => {
      const e = await feed(`/resources/${product}/events?limit=100`);
      expect(e).toHaveLength(5);
      return e;
    });
    const run12 = fieldcastId('product-forecast', 'air-temperature', '2031-06-15T12:00:00Z');
    const run8 = fieldcastId('product-forecast', 'air-temperature', '2031-06-08T12:00:00Z');
    const rows = events.map((e) => [e.occurrenceTime, e.message, e.tagged[1]!.id]);
    // newest first; the three at 12:00 share the instant, and events of the same instant keep their
    // arrival order, which across the frames and forecasts topics is not fixed in distributed mode
    expect(
      rows
        .slice(0, 3)
        .map((r) => r.join(' '))
        .sort(),
    ).toEqual(
      [
        ['2031-06-15T12:00:00.000Z', 'Job {} is initializing forecast {} of product {}', run12],
        ['2031-06-15T12:00:00.000Z', 'Job {} expired forecast {} of product {}', run8],
        [
          '2031-06-15T12:00:00.000Z',
          'Job {} built frame {} of product {}',
          fieldcastId('frame', 'air-temperature', '2031-06-15T12:00:00Z'),
        ],
      ]
        .map((r) => r.join(' '))
        .sort(),
    );
    expect(rows.slice(3)).toEqual([
      ['2031-06-15T11:00:00.000Z', 'Job {} built frame {} of product {}', fieldcastId('frame', 'air-temperature', '2031-06-15T11:00:00Z')],
      ['2031-06-15T10:00:00.000Z', 'Job {} built frame {} of product {}', fieldcastId('frame', 'air-temperature', '2031-06-15T10:00:00Z')],
    ]);
    expect(await feed(`/resources/${run12}/events`)).toHaveLength(1);
    clock.ms = Date.UTC(2031, 5, 15, 16); // the 12Z run: incomplete at 12:52:30 (a quarter of its 3.5 h delay), complete at 15:30
    await pass();
    const steps = await eventually(async () => {
      const e = await feed(`/resources/${run12}/events`);
      expect(e).toHaveLength(3);
      return e;
    });
    expect(steps.map((e) => [e.occurrenceTime, e.message])).toEqual([
      ['2031-06-15T15:30:00.000Z', 'Job {} completed forecast {} of product {}'],
      ['2031-06-15T12:52:30.000Z', 'Job {} is building the frames of forecast {} of product {}'],
      ['2031-06-15T12:00:00.000Z', 'Job {} is initializing forecast {} of product {}'],
    ]);
  });

  it('after a restart announces only the newest frames, not what appeared while it was stopped', async () => {
    await pass();
    clock.ms = START + 24 * H;
    const deps = t.fleet.deps('platform');
    const zoom: ZoomLevels = frameZoomLevels(SYNTHETIC_GRID.dLon);
    const restarted = new FrameAnnouncer(createCatalog().products(), new Announcements(deps.db!.knex), deps.outbox as Outbox, zoom);
    // one frame per product (the daily ones have a new day too), no run steps of the day missed
    expect(await restarted.pass(clock.ms)).toBe(ANNOUNCED.length);
    clock.ms = START + 25 * H;
    expect(await restarted.pass(clock.ms)).toBe(6);
    await eventually(async () => expect(await feed('/apps/platform/events?limit=100')).toHaveLength(2 * ANNOUNCED.length + 6));
  });
});
