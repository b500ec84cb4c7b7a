import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@fieldcast/db';
import { AREA_PORTS } from '@fieldcast/ids/areas';
import { createLogger } from '@fieldcast/kit';
import { ConfigError, FleetEnv, parseEnv } from '@fieldcast/runtime';
import { openTestDatabase } from '@fieldcast/runtime/testing';
import { type ArchiveServer, serveArchive } from '../../sync/test/archive-server.js';
import { writeGfsStep } from '../../sync/test/runs.js';
import { type RunningSync, serveSync } from '../src/serve-sync.js';

/*
 * `fieldcast serve sync` (docs/decisions/0252-sync-as-a-process.md): a pass stages the steps of
 * the newest run published so far and waits for the rest, counted in /metrics, and registers the
 * steps it staged in the database; probes answer.
 * That two replicas on one PostgreSQL never pass a source at once is tests/integration/sync-lock.int.test.ts.
 */
const HOUR = 3_600_000;
const RUN = Math.floor(Date.now() / (6 * HOUR)) * 6 * HOUR - 6 * HOUR;
let archive: string;
let dataDir: string;
let server: ArchiveServer;
let db: Database;
let sync: RunningSync;

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'fieldcast-serve-sync-archive-'));
  dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-serve-sync-'));
  for (let s = 0; s <= 2; s++) writeGfsStep(archive, RUN, s);
  server = await serveArchive(archive);
  db = await openTestDatabase();
  const env = parseEnv(FleetEnv, {
    FIELDCAST_DATA_DIR: dataDir,
    FIELDCAST_SYNC_SOURCES: 'gfs-0p25',
    FIELDCAST_SOURCE_GFS_0P25_URL: server.baseUrl,
    HOST: '127.0.0.1',
  });
  sync = await serveSync(env, createLogger({ level: 'silent' }), { port: 0, database: db });
});
afterAll(async () => {
  await sync.stop();
  await db.close();
  await server.close();
  rmSync(archive, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('fieldcast serve sync', () => {
  it('stages the newest run as far as it is published, and says so in /metrics', async () => {
    const [pass] = await sync.pass();
    expect(pass).toMatchObject({ source: 'gfs-0p25', result: { state: 'pending', runMs: RUN, staged: 3, of: 209 } });
    const metrics = await (await fetch(`${sync.url}/metrics`)).text();
    expect(metrics).toContain('fieldcast_sync_passes_total{source="gfs-0p25",outcome="pending"} 1');
  });

  it("registers what it staged in the model area's registry, with the events in that area's outbox (docs/decisions/0310-synced-registry-in-the-database.md)", async () => {
    const steps = (await db.knex.withSchema('model').table('synced_steps').orderBy('step').select('step')) as Array<{ step: number }>;
    expect(steps.map((r) => r.step)).toEqual([0, 1, 2]);
    const topics = (await db.knex.withSchema('model').table('outbox').orderBy('seq').select('topic')) as Array<{ topic: string }>;
    // INITIALIZING and INCOMPLETE; its frames are announced once the run is published
    expect(topics.map((r) => r.topic)).toEqual(Array<string>(2).fill('fieldcast.model.forecasts'));
    // Another pass finds nothing new: nothing is registered twice.
    await sync.pass();
    expect(await db.knex.withSchema('model').table('outbox').count({ n: '*' })).toEqual([{ n: 2 }]);
  });

  it('answers its probes', async () => {
    expect((await fetch(`${sync.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${sync.url}/readyz`)).status).toBe(200);
  });

  it('stops within a few seconds during a pass whose upstream does not answer (SIGTERM, then the pod is killed)', async () => {
    server.inject('.idx', { hang: true }, 1_000);
    const seen = server.log.length;
    const env = parseEnv(FleetEnv, {
      FIELDCAST_DATA_DIR: dataDir,
      FIELDCAST_SYNC_SOURCES: 'gfs-0p25',
      FIELDCAST_SOURCE_GFS_0P25_URL: server.baseUrl,
      HOST: '127.0.0.1',
    });
    const hanging = await serveSync(env, createLogger({ level: 'silent' }), { port: 0, database: db });
    hanging.start();
    while (server.log.length === seen) await new Promise((resolve) => setTimeout(resolve, 10));
    const stopped = Date.now();
    await hanging.stop();
    expect(Date.now() - stopped).toBeLessThan(3_000);
  }, 20_000);

  // docs/decisions/0449-metrics-on-a-port-of-their-own.md: a NetworkPolicy filters ports, not paths.
  it('answers /metrics on FIELDCAST_METRICS_PORT alone when it is set, and 404 on its probes port', async () => {
    const env = parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: dataDir, FIELDCAST_SYNC_SOURCES: 'gfs-0p25', HOST: '127.0.0.1' });
    const apart = await serveSync(env, createLogger({ level: 'silent' }), { port: 0, metricsPort: 0, database: db });
    try {
      expect((await fetch(`${apart.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${apart.url}/healthz`)).status).toBe(200);
      const scraped = await fetch(`${apart.metricsUrl!}/metrics`);
      expect([scraped.status, scraped.headers.get('content-type')]).toEqual([200, 'text/plain; version=0.0.4']);
      expect((await fetch(`${apart.metricsUrl!}/healthz`)).status).toBe(404);
    } finally {
      await apart.stop();
    }
    expect(sync.metricsUrl).toBeUndefined();
  });

  it('rejects with the listen error when its port or its metrics port is taken, leaving nothing listening', async () => {
    const env = parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: dataDir, FIELDCAST_SYNC_SOURCES: 'gfs-0p25', HOST: '127.0.0.1' });
    const taken = Number(new URL(sync.url).port);
    const logger = createLogger({ level: 'silent' });
    const inUse = { syscall: 'listen', code: 'EADDRINUSE', port: taken };
    await expect(serveSync(env, logger, { port: taken, database: db })).rejects.toMatchObject(inUse);
    await expect(serveSync(env, logger, { port: 0, metricsPort: taken, database: db })).rejects.toMatchObject(inUse);
  });

  it('refuses to start without the sources to sync', async () => {
    const env = parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: dataDir });
    await expect(serveSync(env, createLogger({ level: 'silent' }), { port: 0, database: db })).rejects.toThrow(
      /needs FIELDCAST_SYNC_SOURCES/,
    );
  });

  it('listens, without PORT, on the port after the last area’s at its PORT_BASE, so it shares none with a fleet there', async () => {
    const base = 19_300 + Math.floor(Math.random() * 500);
    const env = parseEnv(FleetEnv, {
      FIELDCAST_DATA_DIR: dataDir,
      FIELDCAST_SYNC_SOURCES: 'gfs-0p25',
      FIELDCAST_SOURCE_GFS_0P25_URL: server.baseUrl,
      HOST: '127.0.0.1',
      PORT_BASE: String(base),
    });
    const own = await serveSync(env, createLogger({ level: 'silent' }), { database: db });
    try {
      expect(new URL(own.url).port).toBe(String(base + Math.max(...Object.values(AREA_PORTS)) + 1));
    } finally {
      await own.stop();
    }
  });

  it('refuses an upstream URL that is not http(s) at start-up, naming the variable, rather than fail every pass', async () => {
    const env = parseEnv(FleetEnv, {
      FIELDCAST_DATA_DIR: dataDir,
      FIELDCAST_SYNC_SOURCES: 'gfs-0p25',
      FIELDCAST_SOURCE_GFS_0P25_URL: 'noaa-gfs-bdp-pds.s3.amazonaws.com',
      HOST: '127.0.0.1',
    });
    const started = await serveSync(env, createLogger({ level: 'silent' }), { port: 0, database: db }).catch((err: unknown) => err);
    if (!(started instanceof Error)) await (started as RunningSync).stop();
    expect(started).toBeInstanceOf(ConfigError);
    expect((started as Error).message).toBe('FIELDCAST_SOURCE_GFS_0P25_URL is not a URL: noaa-gfs-bdp-pds.s3.amazonaws.com');
  });
});
