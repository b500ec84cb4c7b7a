import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type Database, openDatabase, outboxWriter } from '@fieldcast/db';
import { eventsService } from '@fieldcast/events';
import { eventually, type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { syncedStepFrames, syncRun } from '@fieldcast/sync';
import { createCatalog, forecastId, type GridSource, loadWeatherSource } from '@fieldcast/weather';
import { type ArchiveServer, serveArchive } from '../../../packages/sync/test/archive-server.js';
import { writeGfsStep } from '../../../packages/sync/test/runs.js';
import { modelService } from '../src/definition.js';
import { SYNCED_REGISTRY_TASK, SyncedRegistry, syncJobId } from '../src/synced-registry.js';

/*
 * Replicas registering synced runs at once (docs/decisions/0310-synced-registry-in-the-database.md):
 * the model area's task and two other registrars (`fieldcast serve sync` replicas; on PostgreSQL,
 * each on connections of its own) register the same files at the same moments, round after round,
 * while a run is staged, published and expired; each frame a step made is one event and each status one
 * life-cycle event in the outbox, and once each in the feeds. The integration suite runs this file
 * on PostgreSQL and Kafka. A sync killed mid-run is packages/fleet/test/synced-registry.test.ts.
 */
const HOUR = 3_600_000;
const RUN_A = Math.floor(Date.now() / (6 * HOUR)) * 6 * HOUR - 6 * HOUR;
const RUN_B = RUN_A + 6 * HOUR;
const SOURCE = 'gfs-0p25';
const JSON_V1 = 'application/vnd.fieldcast+json; version=1';
const iso = (ms: number) => new Date(ms).toISOString();
const PRODUCTS = createCatalog().products();
/** Only these have their frames announced in public events (docs/decisions/0121-product-access.md). */
const PUBLIC_PRODUCTS = PRODUCTS.filter((p) => p.access !== 'restricted');
/** Frames announced of RUN_A's steps 0-3 and RUN_B's step 0: temperature at a step 0, with the two mean rates at later steps (dewpoint is restricted). */
const FRAMES_MADE = 1 + 3 * 3 + 1;

let archive: string;
let data: string;
let server: ArchiveServer;
let weather: GridSource;
/** Registrars' databases: PostgreSQL connections of their own, or PGlite's one writer, the fleet's. */
const replicas: Database[] = [];
const own: Database[] = [];
const options: TestFleetOptions = {};
const syncDir = () => join(data, 'sync');

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'synced-registry-int-archive-'));
  data = mkdtempSync(join(tmpdir(), 'synced-registry-int-data-'));
  server = await serveArchive(archive);
  weather = await loadWeatherSource({ syncDir: syncDir(), reloadMs: 3_600_000 });
  options.weather = weather;
  const url = process.env.DATABASE_URL;
  if (url) for (let k = 0; k < 2; k++) own.push(await openDatabase({ url }));
});
afterAll(async () => {
  for (const db of own) await db.close();
  await (weather as { close?: () => Promise<void> } | undefined)?.close?.();
  await server?.close();
  rmSync(archive, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

const t = useTestFleet([modelService, eventsService], options);
beforeAll(() => {
  replicas.push(...(own.length ? own : [t.fleet.db, t.fleet.db]));
});

const sync = (runMs: number, steps: string) =>
  syncRun({
    source: SOURCE,
    baseUrl: server.baseUrl,
    syncDir: syncDir(),
    runMs,
    steps,
    partial: true,
    keepRuns: 1,
    http: { retries: 0, backoffMs: 5, timeoutMs: 2000 },
    stepRetries: 0,
  });

/** Three registrars at once, three times: the model area's task and two replicas of their own. */
async function registerEverywhere(): Promise<void> {
  for (let round = 0; round < 3; round++)
    await Promise.all([
      t.fleet.runBackground('model', SYNCED_REGISTRY_TASK),
      ...replicas.map((db) => new SyncedRegistry(db.knex, outboxWriter(db, 'model'), PRODUCTS).register(syncDir(), Date.now())),
    ]);
}

async function outbox(
  topic: string,
): Promise<Array<{ id: string; subject: string; type: string; data: { resource: { initTime?: string; status?: string } } }>> {
  const rows = (await t.fleet.db.knex.withSchema('model').table('outbox').where({ topic }).orderBy('seq').select('event')) as Array<{
    event: unknown;
  }>;
  return rows.map((r) => (typeof r.event === 'string' ? JSON.parse(r.event) : r.event));
}

describe('the registry of synced runs on PostgreSQL and Kafka', () => {
  it('registers each step and each transition once under concurrent registrars, and the feeds show each once', async () => {
    for (const s of [0, 1]) writeGfsStep(archive, RUN_A, s);
    expect(await sync(RUN_A, '0-3')).toMatchObject({ state: 'pending', staged: 2 });
    await registerEverywhere();
    for (const s of [2, 3]) writeGfsStep(archive, RUN_A, s);
    expect(await sync(RUN_A, '0-3')).toMatchObject({ state: 'published' });
    await registerEverywhere();
    writeGfsStep(archive, RUN_B, 0);
    expect(await sync(RUN_B, '0-0')).toMatchObject({ state: 'published' });
    await registerEverywhere();

    const frames = await outbox('fieldcast.model.frames');
    const made = [0, 1, 2, 3]
      .flatMap((s) => syncedStepFrames(SOURCE, PUBLIC_PRODUCTS, RUN_A, s))
      .concat(syncedStepFrames(SOURCE, PUBLIC_PRODUCTS, RUN_B, 0));
    expect(frames.map((e) => e.subject)).toEqual(made.map((f) => f.id));
    const life = (await outbox('fieldcast.model.forecasts')).map((e) => `${e.data.resource.initTime} ${e.data.resource.status}`);
    expect(life).toEqual([
      `${iso(RUN_A)} INITIALIZING`,
      `${iso(RUN_A)} INCOMPLETE`,
      `${iso(RUN_A)} COMPLETE`,
      `${iso(RUN_A)} EXPIRED`,
      `${iso(RUN_B)} INITIALIZING`,
      `${iso(RUN_B)} COMPLETE`,
    ]);

    const feed = (id: string) =>
      request(t.fleet.app('events')).get(`/resources/${id}/events?limit=100`).set('Authorization', t.alice.auth).set('Accept', JSON_V1);
    await eventually(async () => expect((await feed(syncJobId(SOURCE))).body).toHaveLength(FRAMES_MADE), 60_000);
    await eventually(async () => expect((await feed(forecastId({ name: SOURCE }, RUN_A))).body).toHaveLength(4), 60_000);
    // Nothing more arrives later: each event is in the feed once.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await feed(syncJobId(SOURCE))).body).toHaveLength(FRAMES_MADE);
    expect((await feed(forecastId({ name: SOURCE }, RUN_B))).body).toHaveLength(2);
  });
});
