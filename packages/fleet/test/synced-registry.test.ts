import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Outbox, OutboxWriter } from '@fieldcast/db';
import { eventsService } from '@fieldcast/events';
import { modelService } from '@fieldcast/model';
import { platformService } from '@fieldcast/platform';
import { SYNCED_REGISTRY_TASK, SyncedRegistry, syncJobId } from '@fieldcast/model/synced-registry';
import { eventually, type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { runName, syncedStepFrames, syncRun } from '@fieldcast/sync';
import { createCatalog, forecastId, type GridSource, isoInstant, loadWeatherSource, modelId, ReloadingSource } from '@fieldcast/weather';
import { type ArchiveServer, serveArchive } from '../../sync/test/archive-server.js';
import { writeEcmwfStep, writeGfsStep } from '../../sync/test/runs.js';

/*
 * The registry of synced runs in the database and its events
 * (docs/decisions/0310-synced-registry-in-the-database.md): a `fieldcast sync` process killed
 * (SIGKILL) mid-run and synced again, a registration that died between its writes, and two
 * registrars at once leave exactly one creation event per frame a stored step made and one life-cycle
 * event per status a run entered, in the model area's outbox and in the events area's feeds. The
 * same file runs on PostgreSQL and Kafka in the integration suite.
 */
const HOUR = 3_600_000;
const RUN_A = Math.floor(Date.now() / (6 * HOUR)) * 6 * HOUR - 6 * HOUR;
const RUN_B = RUN_A + 6 * HOUR;
const SOURCE = 'gfs-0p25';
const LAT = 45.6;
/** Inside the ECMWF test grid (sync/test/runs.ts), outside the GFS one. */
const ECMWF_LON = -4;
const JSON_V1 = 'application/vnd.fieldcast+json; version=1';
const CLI = join(process.cwd(), 'packages/fleet/src/cli.ts');
const iso = (ms: number) => new Date(ms).toISOString();

let archive: string;
let data: string;
let server: ArchiveServer;
let weather: GridSource;
const options: TestFleetOptions = {};
const syncDir = () => join(data, 'sync');

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'synced-registry-archive-'));
  data = mkdtempSync(join(tmpdir(), 'synced-registry-data-'));
  server = await serveArchive(archive);
  // Reloaded by hand (below), so the test says when the served stores change.
  weather = await loadWeatherSource({ syncDir: syncDir(), reloadMs: 3_600_000 });
  options.weather = weather;
});
afterAll(async () => {
  await (weather as { close?: () => Promise<void> } | undefined)?.close?.();
  await server?.close();
  rmSync(archive, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

const t = useTestFleet([modelService, eventsService, platformService], options);

/** One in-process sync of a run (a restart of the one killed), publishing it when its steps are in. */
const syncOptions = (runMs: number, steps: string) =>
  ({
    source: SOURCE,
    baseUrl: server.baseUrl,
    syncDir: syncDir(),
    runMs,
    steps,
    partial: true,
    keepRuns: 1,
    http: { retries: 0, backoffMs: 5, timeoutMs: 2000 },
    stepRetries: 0,
  }) as const;
const sync = (runMs: number, steps: string) => syncRun(syncOptions(runMs, steps));

const stagedFiles = (runMs: number) => {
  const dir = join(syncDir(), SOURCE, 'staging', new Date(runMs).toISOString().slice(0, 13).replace(/[-T]/g, ''));
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.f32')) : [];
};

/** `fieldcast sync --once` as its own process, as a user runs it beside the fleet; stuck retrying the step not yet published. */
function syncProcess(runMs: number, steps: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CLI, 'sync', SOURCE, '--once', '--run', runName(runMs), '--steps', steps], {
    env: {
      ...process.env,
      FIELDCAST_DATA_DIR: data,
      FIELDCAST_SOURCE_GFS_0P25_URL: server.baseUrl,
      FIELDCAST_SYNC_RETRY_MS: '600000',
      DATABASE_URL: '',
      NODE_OPTIONS: '',
    },
    stdio: 'ignore',
  });
}

interface Envelope {
  id: string;
  type: string;
  subject: string;
  data: {
    resource: { initTime?: string; status?: string };
    related: Array<{ namespace: string; id: string }>;
    event: { origin?: { namespace: string; id: string }; namespace?: string; message: string };
  };
}

async function outbox(topic: string): Promise<Envelope[]> {
  const rows = (await t.fleet.db.knex.withSchema('model').table('outbox').where({ topic }).orderBy('seq').select('event')) as Array<{
    event: Envelope | string;
  }>;
  return rows.map((r) => (typeof r.event === 'string' ? (JSON.parse(r.event) as Envelope) : r.event));
}

const register = () => t.fleet.runBackground('model', SYNCED_REGISTRY_TASK);
const CATALOG_PRODUCTS = createCatalog().products();
/** The frames of the source's products that a run's steps made, in order. */
const framesOf = (runMs: number, steps: number[]) => steps.flatMap((s) => syncedStepFrames(SOURCE, CATALOG_PRODUCTS, runMs, s));
/** ... and those announced in public events: not a restricted product's (docs/decisions/0121-product-access.md). */
const RESTRICTED = `${SOURCE}.dew-point-temperature`;
const announcedOf = (runMs: number, steps: number[]) => framesOf(runMs, steps).filter((f) => f.product !== RESTRICTED);
const lifeCycle = async () =>
  (await outbox('fieldcast.model.forecasts')).map((e) => `${e.data.resource.initTime} ${e.data.resource.status} ${e.type}`);

describe('the registry of synced runs and its events', () => {
  it('one life-cycle event per transition and one frame event per step of a published run, across a killed sync, a failed registration and two registrars, in the feeds', async () => {
    for (const s of [0, 1]) writeGfsStep(archive, RUN_A, s);
    const child = syncProcess(RUN_A, '0-4');
    try {
      await eventually(async () => expect(stagedFiles(RUN_A)).toHaveLength(2), 60_000);
      // The fleet registers the steps while the sync is under way.
      await register();
      child.kill('SIGKILL');
      await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));
    } finally {
      child.kill('SIGKILL');
    }
    // Step 0 makes the frames of the instants (temperature, dewpoint); later steps those of the hour's mean rates too.
    expect(framesOf(RUN_A, [0]).map((f) => f.product)).toEqual([`${SOURCE}.air-temperature`, `${SOURCE}.dew-point-temperature`]);
    expect(framesOf(RUN_A, [1])).toHaveLength(4);
    // A staged step's frames are not served yet: they are announced when the run is published.
    expect(await outbox('fieldcast.model.frames')).toEqual([]);
    expect(await lifeCycle()).toEqual([
      `${iso(RUN_A)} INITIALIZING fieldcast.forecast.initializing`,
      `${iso(RUN_A)} INCOMPLETE fieldcast.forecast.incomplete`,
    ]);

    // Restarted: two more steps staged.
    for (const s of [2, 3]) writeGfsStep(archive, RUN_A, s);
    expect(await sync(RUN_A, '0-4')).toMatchObject({ state: 'pending', staged: 4 });
    // Two registrars at once (the model area's task and `fieldcast serve sync`): each step once.
    const real = t.fleet.deps('model').outbox as Outbox;
    await Promise.all([new SyncedRegistry(t.fleet.db.knex, real, CATALOG_PRODUCTS).register(syncDir(), Date.now()), register()]);
    await register();

    writeGfsStep(archive, RUN_A, 4);
    expect(await sync(RUN_A, '0-4')).toMatchObject({ state: 'published' });
    // A registrar dies after the run's completion and its frames' events are written, before it
    // commits: none of them stays.
    const dying: OutboxWriter = {
      async add(trx, topic, input) {
        await real.add(trx, topic, input);
        if (topic === 'fieldcast.model.frames') throw new Error('killed between the outbox rows and the commit');
      },
    };
    await expect(new SyncedRegistry(t.fleet.db.knex, dying, CATALOG_PRODUCTS).register(syncDir(), Date.now())).rejects.toThrow(/killed/);
    expect(await outbox('fieldcast.model.frames')).toEqual([]);
    // Two registrars at once again: the completion and its frames once.
    await Promise.all([new SyncedRegistry(t.fleet.db.knex, real, CATALOG_PRODUCTS).register(syncDir(), Date.now()), register()]);
    await register();
    // A newer run pushes it out (FIELDCAST_SYNC_KEEP_RUNS=1): it expires.
    for (const s of [0, 1]) writeGfsStep(archive, RUN_B, s);
    expect(await sync(RUN_B, '0-1')).toMatchObject({ state: 'published' });
    await register();

    const frames = await outbox('fieldcast.model.frames');
    const made = [...announcedOf(RUN_A, [0, 1, 2, 3, 4]), ...announcedOf(RUN_B, [0, 1])];
    expect(frames.map((e) => e.subject)).toEqual(made.map((f) => f.id));
    expect(new Set(frames.map((e) => e.id)).size).toBe(made.length);
    // Origin the sync job, tagged with the frame and the product; the frame id is the platform's forecast frame id.
    expect(frames[0]!.data.event).toEqual({
      origin: { namespace: 'model/jobs', id: syncJobId(SOURCE) },
      namespace: 'model/frames/created',
      message: 'Job {} stored frame {} of product {}',
    });
    expect(frames[0]!.data.related).toEqual([
      { namespace: 'platform/frames', id: made[0]!.id },
      { namespace: 'platform/products', id: made[0]!.productId },
    ]);
    // The frames the events name are the platform's: the served run's frames, of the products it lists.
    const platform = (path: string) => request(t.fleet.app('platform')).get(path).set('Authorization', t.alice.auth);
    // (the dewpoint product is restricted like its catalog original, decision 0315: not Alice's)
    const open = announcedOf(RUN_B, [0, 1]);
    expect(open).toHaveLength(4);
    for (const f of open) {
      const res = await platform(`/frames/${f.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: f.id, validTime: isoInstant(f.validMs) });
      expect(res.body).toMatchObject(frames.find((e) => e.subject === f.id)!.data.resource);
      expect((await platform(`/products/${f.productId}`)).body).toMatchObject({ id: f.productId, name: f.product });
    }
    expect(await lifeCycle()).toEqual([
      `${iso(RUN_A)} INITIALIZING fieldcast.forecast.initializing`,
      `${iso(RUN_A)} INCOMPLETE fieldcast.forecast.incomplete`,
      `${iso(RUN_A)} COMPLETE fieldcast.forecast.completed`,
      `${iso(RUN_A)} EXPIRED fieldcast.forecast.expired`,
      `${iso(RUN_B)} INITIALIZING fieldcast.forecast.initializing`,
      `${iso(RUN_B)} INCOMPLETE fieldcast.forecast.incomplete`,
      `${iso(RUN_B)} COMPLETE fieldcast.forecast.completed`,
    ]);
    const statuses = await t.fleet.db.knex.withSchema('model').table('synced_run_statuses').count({ n: '*' });
    expect(Number(statuses[0]!.n)).toBe(7);

    // They reach the feeds: the job's frame events and the run's life-cycle events, once each.
    const read = (path: string) => request(t.fleet.app('events')).get(path).set('Authorization', t.alice.auth).set('Accept', JSON_V1);
    const feed = (id: string) => read(`/resources/${id}/events?limit=100`);
    /** Feed entries leave the namespace out; the event itself has it. */
    const namespaceOf = async (id: string) => (await read(`/events/${id}`)).body.namespace as string;
    const jobEvents = await eventually(async () => {
      const res = await feed(syncJobId(SOURCE));
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(made.length);
      return res.body as Array<{ id: string; message: string; tagged: Array<{ id: string }> }>;
    });
    for (const e of jobEvents) {
      expect(e.message).toBe('Job {} stored frame {} of product {}');
      const frame = made.find((f) => f.id === e.tagged[1]!.id);
      expect(e.tagged.map((r) => r.id)).toEqual([syncJobId(SOURCE), frame!.id, frame!.productId]);
    }
    expect(new Set(jobEvents.map((e) => e.tagged[1]!.id))).toEqual(new Set(frames.map((e) => e.subject)));
    expect(await namespaceOf(jobEvents[0]!.id)).toBe('model/frames/created');
    const runA = forecastId({ name: SOURCE }, RUN_A);
    const runEvents = await eventually(async () => {
      const res = await feed(runA);
      expect(res.body).toHaveLength(4);
      return res.body as Array<{ id: string; tagged: Array<{ id: string }> }>;
    });
    expect((await Promise.all(runEvents.map((e) => namespaceOf(e.id)))).sort()).toEqual([
      'model/forecasts/completed',
      'model/forecasts/expired',
      'model/forecasts/incomplete',
      'model/forecasts/initializing',
    ]);
    for (const e of runEvents) expect(e.tagged.map((r) => r.id)).toEqual([runA, modelId(SOURCE)]);
  }, 120_000);
});

describe("the model area's series cache", () => {
  it("keys a synthetic run's series by the weather served, so a sync that changes it is not answered from before", async () => {
    // The synthetic rapid-refresh run started with RUN_A, read over its first hours at a point of
    // the ECMWF test grid, which only this test syncs.
    const rapid = forecastId({ name: 'synthetic-rapid' }, RUN_A);
    const series = async () => {
      const res = await request(t.fleet.app('model'))
        .get(`/forecasts/${rapid}/variables/temperature/timeseries/${LAT}/${ECMWF_LON}?start=${iso(RUN_A)}&end=${iso(RUN_A + HOUR)}`)
        .set('Authorization', t.alice.auth)
        .set('Accept', JSON_V1);
      expect(res.status).toBe(200);
      return (res.body.series as Array<{ value: number }>).map((p) => p.value);
    };
    const reloading = weather as ReloadingSource;
    // What the fleet opened at start, when nothing was synced: the synthetic world.
    const opened = reloading.version;
    const before = await series();
    for (const s of [0, 3]) writeEcmwfStep(archive, RUN_A, s);
    expect(await syncRun({ ...syncOptions(RUN_A, '0-3'), source: 'ecmwf-ifs-0p25' })).toMatchObject({ state: 'published' });
    expect(await reloading.reload()).toBe(true);
    expect(reloading.version).not.toBe(opened);
    const after = await series();
    expect(after).not.toEqual(before);
    expect(await series()).toEqual(after);
  });
});
