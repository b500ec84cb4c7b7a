/**
 * Resident memory of each area as a pod runs it: `fieldcast serve <area>` in a process of its own
 * on PostgreSQL (the synthetic world, FIELDCAST_COMPUTE_THREADS as the manifests set it), idle
 * after start-up and at its peak (VmHWM) under the area's heavy requests sent by 4 clients for
 * BENCH_SECONDS. The baseline is the same process's RSS when it first answers /readyz; the figures
 * and the CPU it used meanwhile are what the generated manifests' memory requests and limits come from
 * (docs/decisions/0281-pod-resources-from-measurements.md, scripts/deploy/resources.ts).
 *
 *   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/fieldcast_bench_memory, created
 *   if missing, never the integration suite's), KAFKA_BROKERS (default none listening: services
 *   serve without the broker), BENCH_SECONDS (10); arguments: the areas to measure (default all).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fieldcastId } from '../packages/ids/src/index.js';
import { openDatabase } from '../packages/db/src/index.js';
import { IdentityStore, migrateIdentity } from '../packages/runtime/src/index.js';
import { basicAuthHeader } from '../packages/runtime/src/testing.js';
import { ArchiveUserStore } from '../services/archive/src/store.js';
import { COMPUTE_THREADS } from '../scripts/deploy/resources.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/fieldcast_bench_memory';
const CLIENTS = 4;
const LAT = 42.0308;
const LON = -93.6319;
const lastDays = (days: number) => {
  const end = Date.now() - 3_600_000;
  return `start=${new Date(end - days * 86_400_000).toISOString().slice(0, 13)}:00:00Z&end=${new Date(end).toISOString().slice(0, 13)}:00:00Z`;
};

interface Ctx {
  base: string;
  auth: string;
  post(path: string, body: unknown): Promise<{ id: string }>;
}

/** Each area's heavy requests (those of its bench in bench/), made ready by `setup`. */
const LOADS: Record<string, (ctx: Ctx) => Promise<string[]>> = {
  agriculture: async (ctx) => {
    const d = 0.05; // about 5.5 x 4 km
    const field = await ctx.post('/fields', {
      description: 'memory',
      type: 'GeometryCollection',
      geometries: [
        {
          type: 'Polygon',
          coordinates: [
            [
              [LON, LAT],
              [LON + d, LAT],
              [LON + d, LAT + d],
              [LON, LAT + d],
              [LON, LAT],
            ],
          ],
        },
      ],
    });
    const season = 'start=2024-04-01&end=2024-10-17&baseTemperature=10';
    return [
      `/growing-degree-days/${LAT}/${LON}?start=2024-01-01&end=2024-12-31`,
      `/growing-degree-days/${field.id}?${season}`,
      `/growing-degree-days/${field.id}/contours?${season}`,
    ];
  },
  insight: async () => [`/hourly-evapotranspiration-short-crop/${LAT}/${LON}?${lastDays(364)}`, `/hourly-relative-humidity/${LAT}/${LON}`],
  model: async () => [
    `/models/synthetic-global/latest-forecast/timeseries/${LAT}/${LON}?limit=385`,
    '/models/synthetic-global/forecasts?limit=100',
  ],
  platform: async () => [
    '/products?contentType=precipitation&source=synthetic',
    '/products/air-temperature/frames?start=2024-03-01T00:00:00Z&end=2024-03-08T00:00:00Z&limit=100',
    `/frames/${fieldcastId('frame', 'air-temperature', '2024-03-04T12:00:00Z')}/datapoint/${LAT}/${LON}`,
  ],
  tiles: async () => {
    const frame = fieldcastId('frame', 'air-temperature', '2024-03-04T12:00:00Z');
    return [6, 7, 8].flatMap((z) =>
      [0, 1, 2].map((k) => `/v2/frames/${frame}/tile/${z}/${(14 << (z - 6)) + k}/${(23 << (z - 6)) + k}.png`),
    );
  },
  observations: async () => [`/observation-sets?${lastDays(7)}`],
  transfer: async (ctx) => {
    const res = await fetch(`${ctx.base}/products/air-temperature-daily-max-geotiff/datasets?date=2024-06-01`, {
      headers: { Authorization: ctx.auth },
    });
    const [dataset] = (await res.json()) as { downloadUrl: string }[];
    return ['/products/air-temperature-daily-max-geotiff/datasets?date=2024-06-01', dataset!.downloadUrl.replace(/^https?:\/\/[^/]+/, '')];
  },
  archive: async () => {
    const db = await openDatabase({ url: DATABASE_URL });
    const user = await new ArchiveUserStore(db.knex).register({ name: `memory-${Date.now()}`, ranges: ['127.0.0.1/32', '::1/128'] });
    await db.close();
    const auth = `u=${user.name}&t=${user.token}`;
    return [
      `/v2/hailsize/summary/+35.4676-097.5164?radius=10&end=2025-08-01T00:00:00Z&${auth}`,
      `/v2/lightning/history/+36.0000-097.0000+35.0000-098.0000/2025-07-01?${auth}`,
    ];
  },
  events: async () => ['/events?limit=100', '/events?limit=10'],
  // Rules over HTTP; an evaluation pass adds little (its heap is bounded by a batch: bench/alerts.bench.ts).
  alerts: async (ctx) => {
    const rules = [];
    for (let i = 0; i < 50; i++) {
      const target = { type: 'field', id: `0b7f2c3e-5a8d-4c21-9f1e-2d6a7b8c${String(i).padStart(4, '0')}` };
      rules.push(await ctx.post('/rules', { description: 'memory', target, condition: { kind: 'frost', threshold: 0, hours: 48 } }));
    }
    return ['/rules', ...rules.slice(0, 10).map((r) => `/rules/${r.id}/state`)];
  },
  console: async () => ['/', '/healthz'],
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** CPU seconds a process has used (user + system). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** VmRSS and VmHWM of a process, MiB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)![1]);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

async function ensureDatabase(): Promise<void> {
  const url = new URL(DATABASE_URL);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const admin = await openDatabase({ url: url.toString() });
  const { rowCount } = await admin.knex.raw('select 1 from pg_database where datname = ?', [name]);
  if (!rowCount) await admin.knex.raw(`create database "${name}"`);
  await admin.close();
}

async function measure(
  area: string,
  auth: string,
): Promise<{ idle: number; peak: number; cores: number; answered: number; refused: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/fleet/src/cli.ts', 'serve', area], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      DATABASE_URL,
      KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      // the load is one account's: no 429s in place of work
      RATE_LIMIT_PER_SECOND: '0',
      FIELDCAST_COMPUTE_THREADS: String(COMPUTE_THREADS[area] ?? 0),
      FIELDCAST_DATA_DIR: join(process.cwd(), 'test-output', `memory-${area}`),
      FIELDCAST_SIGNING_KEY: 'a bench key of at least thirty-two characters',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      if ((await fetch(`${base}/readyz`).catch(() => undefined))?.ok) break;
      if (i > 600) throw new Error(`${area} did not get ready`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const idle = memoryOf(child.pid!).rss;
    const ctx: Ctx = {
      base,
      auth,
      async post(path, body) {
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!res.ok) throw new Error(`${area} ${path}: ${res.status} ${await res.text()}`);
        return (await res.json()) as { id: string };
      },
    };
    const paths = await LOADS[area]!(ctx);
    const cpuBefore = cpuSecondsOf(child.pid!);
    const started = Date.now();
    const deadline = started + SECONDS * 1000;
    let answered = 0;
    let refused = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let i = client; Date.now() < deadline; i++) {
          const res = await fetch(`${base}${paths[i % paths.length]}`, { headers: { Authorization: auth } });
          await res.arrayBuffer();
          if (res.ok) answered += 1;
          else if (res.status === 503)
            await new Promise((r) => setTimeout(r, 500)); // a file being made (transfer)
          else if ((refused += 1) === 1) console.error(`${area} ${paths[i % paths.length]}: ${res.status}`);
        }
      }),
    );
    const cores = (cpuSecondsOf(child.pid!) - cpuBefore) / ((Date.now() - started) / 1000);
    return { idle, peak: memoryOf(child.pid!).peak, cores, answered, refused };
  } finally {
    child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  await ensureDatabase();
  const db = await openDatabase({ url: DATABASE_URL });
  await migrateIdentity(db);
  const { account, applicationKey } = await new IdentityStore(db.knex).createAccount({ name: 'memory', handle: `memory-${Date.now()}` });
  await db.close();
  const auth = basicAuthHeader(account.id, applicationKey);
  const areas = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(LOADS);
  console.log(
    `| area | compute threads | RSS idle (MiB) | peak RSS under load (MiB) | peak / idle | CPU under load (cores) | requests answered in ${SECONDS} s | refused |`,
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const area of areas) {
    const m = await measure(area, auth);
    console.log(
      `| ${area} | ${COMPUTE_THREADS[area] ?? 0} | ${m.idle.toFixed(0)} | ${m.peak.toFixed(0)} | ${(m.peak / m.idle).toFixed(2)} | ${m.cores.toFixed(2)} | ${m.answered} | ${m.refused} |`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
