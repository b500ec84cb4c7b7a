import { Api, createLogger, type Logger } from '@fieldcast/kit';
import { BackgroundTasks, type BackgroundTask } from '../src/background.js';
import { ConfigError, FleetEnv, parseEnv } from '../src/env.js';
import { defineService, type Service } from '../src/needs.js';
import { startServices } from '../src/services.js';
import { eventually, openTestDatabase, startTestFleet } from '../src/testing.js';

/* Background tasks: clock-driven work the runtime runs for a service (docs/decisions/0180-background-tasks.md). */

const silent = createLogger({ level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A promise the test settles. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => {
    open = r;
  });
  return { promise, open };
}

/** A service whose one task records each pass in a table of its schema. */
function recorder(task: Partial<BackgroundTask> & { run?: BackgroundTask['run'] } = {}, seen: { nowMs: number; migrated: boolean }[] = []) {
  return defineService({
    area: 'ticking',
    port: 1,
    title: 'Ticking',
    description: 'a background task that writes to its own schema',
    needs: {
      database: {
        migrations: [
          {
            name: '001_passes',
            async up(knex) {
              await knex.schema.withSchema('ticking').createTable('passes', (t) => {
                t.increments('id');
                t.bigInteger('now_ms').notNullable();
              });
            },
          },
        ],
      },
    },
    api: () => new Api(),
    background(deps) {
      return [
        {
          name: 'record',
          everyMs: task.everyMs ?? 10,
          run:
            task.run ??
            (async (nowMs) => {
              seen.push({ nowMs, migrated: await deps.db.knex.schema.withSchema('ticking').hasTable('passes') });
              await deps.db.knex.withSchema('ticking').table('passes').insert({ now_ms: nowMs });
            }),
        },
      ];
    },
  });
}

const passes = async (fleet: { db: { knex: import('knex').Knex } }) =>
  Number((await fleet.db.knex.withSchema('ticking').table('passes').count({ n: '*' }).first())?.n);

describe('in a fleet', () => {
  it('the first pass runs at start, after the schema is migrated, at the fleet clock, and passes repeat every everyMs', async () => {
    const clock = Date.parse('2030-01-01T00:00:00Z');
    const seen: { nowMs: number; migrated: boolean }[] = [];
    const fleet = await startTestFleet([recorder({}, seen)], { background: true, now: () => new Date(clock) });
    try {
      // The pass inserts into the migrated table: it would throw (and count nothing) before migration.
      await eventually(async () => expect(await passes(fleet)).toBeGreaterThanOrEqual(3));
      expect(seen[0]).toEqual({ nowMs: clock, migrated: true });
      expect(seen.every((p) => p.migrated)).toBe(true);
    } finally {
      await fleet.close();
    }
  });

  it('off by default in tests: nothing runs until the test runs a pass by hand', async () => {
    const fleet = await startTestFleet([recorder({ everyMs: 5 })]);
    try {
      // (PostgreSQL keeps the table between runs)
      await fleet.reset();
      await sleep(60);
      expect(await passes(fleet)).toBe(0);
      await fleet.runBackground('ticking');
      expect(await passes(fleet)).toBe(1);
      await fleet.runBackground('ticking', 'record');
      expect(await passes(fleet)).toBe(2);
      await expect(fleet.runBackground('ticking', 'nothing')).rejects.toThrow(/no background task named nothing; there are: record/);
      await sleep(30);
      expect(await passes(fleet)).toBe(2);
    } finally {
      await fleet.close();
    }
  });

  it('a pass run by hand that fails throws to the test', async () => {
    const fleet = await startTestFleet([
      recorder({
        run: async () => {
          throw new Error('upstream down');
        },
      }),
    ]);
    try {
      await expect(fleet.runBackground('ticking')).rejects.toThrow('upstream down');
    } finally {
      await fleet.close();
    }
  });

  it('close awaits the pass under way while the database is still open; no pass starts after', async () => {
    const hold = gate();
    const started = gate();
    let runs = 0;
    let finished = false;
    const fleet = await startTestFleet(
      [
        defineService({
          area: 'slow',
          port: 1,
          title: 'Slow',
          description: 'a slow pass',
          needs: { database: { migrations: [] } },
          api: () => new Api(),
          background: (deps) => [
            {
              name: 'slow',
              everyMs: 5,
              async run() {
                runs += 1;
                started.open();
                await hold.promise;
                // the database is still open for the end of the pass
                await deps.db.knex.raw('select 1');
                finished = true;
              },
            },
          ],
        }),
      ],
      { background: true },
    );
    await started.promise;
    let closed = false;
    const closing = fleet.close().then(() => {
      closed = true;
    });
    await sleep(30);
    expect(closed).toBe(false);
    hold.open();
    await closing;
    expect(finished).toBe(true);
    expect(runs).toBe(1);
    await sleep(30);
    expect(runs).toBe(1);
  });
});

describe('as `fieldcast start` and `fieldcast serve` start services', () => {
  async function serve(background: boolean | undefined, definition: Service = recorder({ everyMs: 5 })) {
    const db = await openTestDatabase();
    const fleet = await startServices([{ definition, port: 0 }], {
      db,
      logger: silent,
      vendor: 'fieldcast',
      bodyLimit: '1mb',
      host: '127.0.0.1',
      shutdownTimeoutMs: 1000,
      ...(background === undefined ? {} : { background }),
    });
    return { db, fleet };
  }

  it('tasks run on their clocks by default', async () => {
    const { db, fleet } = await serve(undefined);
    try {
      await eventually(async () => expect(await passes({ db })).toBeGreaterThanOrEqual(2));
    } finally {
      await fleet.stop();
    }
  });

  it('background: false (FIELDCAST_BACKGROUND=off) runs none', async () => {
    const { db, fleet } = await serve(false);
    try {
      // (PostgreSQL keeps the table between runs)
      await db.knex.withSchema('ticking').table('passes').delete();
      await sleep(60);
      expect(await passes({ db })).toBe(0);
    } finally {
      await fleet.stop();
    }
  });

  it.each([
    [undefined, 1],
    [false, 0],
  ])('background %s: warmed up (StartedApi.warm) %i time(s), by the time the services listen', async (background, times) => {
    let warmed = 0;
    const service = defineService({
      area: 'warming',
      port: 1,
      title: 'Warming',
      description: 'counts its warm-ups',
      needs: {},
      api: () => ({ api: new Api(), close: async () => undefined, warm: () => void (warmed += 1) }),
    });
    const { fleet } = await serve(background, service);
    try {
      expect(warmed).toBe(times);
    } finally {
      await fleet.stop();
    }
  });
});

describe('BackgroundTasks', () => {
  function logged(): { logger: Logger; errors: unknown[] } {
    const errors: unknown[] = [];
    const logger = { error: (obj: unknown) => errors.push(obj) } as unknown as Logger;
    return { logger, errors };
  }

  it('one pass at a time per task, whether the timer or a caller by hand starts it', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    const tasks = new BackgroundTasks(
      [
        {
          name: 'overlapping',
          everyMs: 1,
          async run() {
            active += 1;
            most = Math.max(most, active);
            runs += 1;
            await sleep(15);
            active -= 1;
          },
        },
      ],
      () => new Date(),
      silent,
    );
    tasks.start();
    await Promise.all([tasks.runOnce(), tasks.runOnce('overlapping'), tasks.runOnce()]);
    await sleep(40);
    await tasks.stop();
    expect(runs).toBeGreaterThanOrEqual(4);
    expect(most).toBe(1);
  });

  it('a failing pass is logged with its task, and the next pass runs', async () => {
    const { logger, errors } = logged();
    let runs = 0;
    const tasks = new BackgroundTasks(
      [
        {
          name: 'flaky',
          everyMs: 5,
          async run() {
            runs += 1;
            if (runs <= 2) throw new Error(`failure ${runs}`);
          },
        },
      ],
      () => new Date(),
      logger,
    );
    tasks.start();
    await eventually(() => expect(runs).toBeGreaterThanOrEqual(4));
    await tasks.stop();
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ task: 'flaky', err: new Error('failure 1') });
  });

  it('stop clears timers that have not fired; a stopped runner refuses passes by hand', async () => {
    let runs = 0;
    const tasks = new BackgroundTasks(
      [
        {
          name: 'rare',
          everyMs: 20,
          async run() {
            runs += 1;
          },
        },
      ],
      () => new Date(),
      silent,
    );
    tasks.start();
    await eventually(() => expect(runs).toBeGreaterThanOrEqual(1));
    await tasks.stop();
    const atStop = runs;
    await sleep(60);
    expect(runs).toBe(atStop);
    await expect(tasks.runOnce()).rejects.toThrow(/rare is stopped/);
    // starting again after stop runs nothing
    tasks.start();
    await sleep(30);
    expect(runs).toBe(atStop);
  });

  it('refuses a name declared twice and a period that is not positive', () => {
    const task = { name: 'a', everyMs: 10, run: async () => undefined };
    expect(() => new BackgroundTasks([task, task], () => new Date(), silent)).toThrow(/declared twice/);
    expect(() => new BackgroundTasks([{ ...task, everyMs: 0 }], () => new Date(), silent)).toThrow(/everyMs > 0/);
  });
});

it('FIELDCAST_BACKGROUND: on by default, off turns the timers off, anything else stops start-up naming it', () => {
  expect(parseEnv(FleetEnv, {}).FIELDCAST_BACKGROUND).toBe(true);
  expect(parseEnv(FleetEnv, { FIELDCAST_BACKGROUND: 'on' }).FIELDCAST_BACKGROUND).toBe(true);
  expect(parseEnv(FleetEnv, { FIELDCAST_BACKGROUND: 'off' }).FIELDCAST_BACKGROUND).toBe(false);
  for (const bad of ['no', 'false', '0']) {
    expect(() => parseEnv(FleetEnv, { FIELDCAST_BACKGROUND: bad })).toThrow(ConfigError);
    expect(() => parseEnv(FleetEnv, { FIELDCAST_BACKGROUND: bad })).toThrow(/FIELDCAST_BACKGROUND/);
  }
});
