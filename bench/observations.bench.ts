/**
 * Observation sets (targets in bench/README.md). Run:
 *   npx -y pnpm@10 exec tsx bench/observations.bench.ts
 * Starts the observations app in this process (PGlite and the in-process bus, or PostgreSQL at
 * BENCH_DATABASE_URL) on an ephemeral port, and measures, in one run:
 * - publishing a 1 MB set of 10,000 observations, against the floor: parsing and validating the
 *   same text in this process (JSON.parse and the request schema), both as MB/s; target: publish
 *   time at most 3 times the floor's;
 * - listing with a one-week period over 100,000 stored sets (an hourly station's sets of 12
 *   five-minute observations, eleven years of them), as a share of /healthz; target >= 0.50;
 * - reading back a 1 MB set, as a share of /healthz; target >= 0.10;
 * - listing weeks whose page the embedded process has not kept (each request a different week),
 *   one at a time, in ms against /healthz one at a time (reported).
 * Throughput is autocannon's, in a separate process, so client work does not share the server's
 * event loop; each ratio is to a /healthz measurement taken just before it.
 * BENCH_SECONDS (default 5), BENCH_SETS (default 100,000), BENCH_PUBLISHES (default 30).
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import type { Database } from '../packages/db/src/index.js';
import { FleetEnv, limitsFromEnv, parseEnv } from '../packages/runtime/src/index.js';
import { startTestFleet } from '../packages/runtime/src/testing.js';
import { ObservationSetInput } from '../packages/schemas/src/index.js';
import { observationsService } from '../services/observations/src/definition.js';
import { requestsPerSecond } from './autocannon.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const SETS = Number(process.env.BENCH_SETS ?? 100_000);
const PUBLISHES = Number(process.env.BENCH_PUBLISHES ?? 30);
const CONNECTIONS = 10;
const MB = 1_048_576;

const rate = (url: string, auth?: string, gzip = false) =>
  requestsPerSecond(url, {
    seconds: DURATION_S,
    connections: CONNECTIONS,
    headers: { Authorization: auth, 'Accept-Encoding': gzip ? 'gzip' : undefined },
  });

/** A set of 100 stations x 100 five-minute observations of one value: about 1 MB of JSON. */
function megabyteSet(): string {
  const start = Date.UTC(2026, 4, 1);
  const sites = Array.from({ length: 100 }, (_, i) => ({
    id: `station-${String(i).padStart(3, '0')}`,
    latitude: 41 + i / 97,
    longitude: -93 - i / 89,
    elevation: 250 + i,
    observations: Array.from({ length: 100 }, (_, k) => ({
      time: new Date(start + k * 300_000).toISOString().replace('.000Z', 'Z'),
      variables: [{ name: 'temperature', unit: 'celsius', value: Math.round((12 + 8 * Math.sin(k / 20 + i)) * 100) / 100 }],
    })),
  }));
  return JSON.stringify({ sites, tags: { network: 'bench', kind: 'mesonet' } });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * 100,000 sets of one account, written by SQL: set i holds 12 five-minute observations in hour i
 * after 2015-01-01 (one station's hourly publications, eleven years of them), with its summary
 * and its day row, as the service writes them.
 */
async function seed(knex: Database['knex'], accountId: string): Promise<void> {
  const t0 = Date.UTC(2015, 0, 1) * 1000;
  await knex.raw(
    `insert into observations.observation_sets (id, account_id, created_at, earliest_us, latest_us, summary, document_gz)
     select id, ?::uuid, now(), e, e + 55 * 60000000::bigint,
       json_build_object('id', id, 'creationTime', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'earliestObservationTime', to_char(to_timestamp(e / 1e6) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'latestObservationTime', to_char(to_timestamp((e + 55 * 60000000::bigint) / 1e6) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'tags', json_build_object('station', 'ames'))::text,
       ?::bytea
     from (select gen_random_uuid() as id, ?::bigint + i::bigint * 3600000000::bigint as e from generate_series(0, ? - 1) i) s`,
    [accountId, gzipSync('{"sites":[]}'), t0, SETS],
  );
  await knex.raw(
    `insert into observations.observation_days (account_id, day, set_seq, first_us, last_us, times_us)
     select account_id, floor(earliest_us / 86400000000.0)::int, seq, earliest_us, latest_us,
       array(select earliest_us + k * 300000000::bigint from generate_series(0, 11) k)
     from observations.observation_sets where account_id = ?::uuid`,
    [accountId],
  );
  await knex.raw('analyze observations.observation_sets');
  await knex.raw('analyze observations.observation_days');
}

async function main(): Promise<void> {
  if (process.env.BENCH_DATABASE_URL) process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const limits = limitsFromEnv(parseEnv(FleetEnv, { RATE_LIMIT_PER_SECOND: '0', ...process.env }));
  const fleet = await startTestFleet([observationsService], { limits });
  const server = fleet.app('observations').listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const account = await fleet.account('bench');
  try {
    const text = megabyteSet();
    const bytes = Buffer.byteLength(text);
    const observations = 100 * 100;

    // The floor: parse and validate the same body in this process.
    const floor: number[] = [];
    for (let i = 0; i < PUBLISHES; i++) {
      const t = performance.now();
      const parsed = ObservationSetInput.safeParse(JSON.parse(text));
      floor.push(performance.now() - t);
      if (!parsed.success) throw new Error('the bench set is not valid');
    }
    const publish = async () => {
      const res = await fetch(`${base}/observation-sets`, {
        method: 'POST',
        headers: { Authorization: account.auth, 'Content-Type': 'application/json' },
        body: text,
      });
      if (res.status !== 201) throw new Error(`publish: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    };
    await publish(); // warm
    const published: number[] = [];
    let id = '';
    for (let i = 0; i < PUBLISHES; i++) {
      const t = performance.now();
      id = await publish();
      published.push(performance.now() - t);
    }
    const floorMs = median(floor);
    const publishMs = median(published);
    const mbps = (ms: number) => bytes / MB / (ms / 1000);
    console.log(`set: ${bytes.toLocaleString('en')} bytes, ${observations.toLocaleString('en')} observations`);
    console.log(`floor (parse + validate): ${floorMs.toFixed(1)} ms, ${mbps(floorMs).toFixed(1)} MB/s`);
    console.log(`publish (HTTP, stored):   ${publishMs.toFixed(1)} ms, ${mbps(publishMs).toFixed(1)} MB/s`);
    console.log(`publish / floor: ${(publishMs / floorMs).toFixed(2)} (target <= 3) ${publishMs / floorMs <= 3 ? 'PASS' : 'FAIL'}`);

    // Read back as HTTP clients do by default (fetch, browsers, curl --compressed: gzip
    // accepted, the stored bytes sent as they are), and as a client that accepts no encoding.
    const one = `${base}/observation-sets/${id}`;
    const health = await rate(`${base}/healthz`);
    const zipped = await rate(one, account.auth, true);
    const health1 = await rate(`${base}/healthz`);
    const plain = await rate(one, account.auth);
    const verdict = (r: number) => `${r.toFixed(3)} (target >= 0.10) ${r >= 0.1 ? 'PASS' : 'FAIL'}`;
    console.log(
      `read back 1 MB, gzip accepted: ${zipped.toFixed(0)}/s, /healthz ${health.toFixed(0)}/s, ratio ${verdict(zipped / health)}`,
    );
    console.log(
      `read back 1 MB, identity:      ${plain.toFixed(0)}/s, /healthz ${health1.toFixed(0)}/s, ratio ${verdict(plain / health1)}`,
    );

    const reader = await fleet.account('bench-reader');
    const t = performance.now();
    await seed(fleet.db.knex, reader.id);
    console.log(`seeded ${SETS.toLocaleString('en')} sets in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    // A week in the middle of the eleven years: 168 sets, the latest 100 of them answered.
    const week = `${base}/observation-sets?start=2020-06-01&end=2020-06-07`;
    const check = await fetch(week, { headers: { Authorization: reader.auth } });
    const page = (await check.json()) as unknown[];
    if (check.status !== 200 || page.length !== 100) throw new Error(`list: ${check.status}, ${page.length} sets`);
    const health2 = await rate(`${base}/healthz`);
    const listed = await rate(week, reader.auth);
    console.log(
      `list a week of ${SETS.toLocaleString('en')} sets: ${listed.toFixed(0)}/s, /healthz ${health2.toFixed(0)}/s, ratio ${(listed / health2).toFixed(3)} (target >= 0.50) ${listed / health2 >= 0.5 ? 'PASS' : 'FAIL'}`,
    );
    // Pages the embedded process has not kept yet (docs/decisions/0154-observation-list-cache.md):
    // a different week each request, one at a time, against /healthz one at a time.
    const oneAtATime = async (paths: string[], auth?: string) => {
      const t1 = performance.now();
      for (const path of paths) {
        const res = await fetch(`${base}${path}`, auth ? { headers: { Authorization: auth } } : {});
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        await res.arrayBuffer();
      }
      return (performance.now() - t1) / paths.length;
    };
    const weeks = Array.from({ length: 50 }, (_, i) => {
      const from = new Date(Date.UTC(2016, 0, 4) + i * 7 * 86_400_000).toISOString().slice(0, 10);
      const to = new Date(Date.UTC(2016, 0, 10) + i * 7 * 86_400_000).toISOString().slice(0, 10);
      return `/observation-sets?start=${from}&end=${to}`;
    });
    const healthMs = await oneAtATime(Array.from({ length: 50 }, () => '/healthz'));
    const missMs = await oneAtATime(weeks, reader.auth);
    console.log(`list a week not yet kept, one at a time: ${missMs.toFixed(2)} ms (/healthz ${healthMs.toFixed(2)} ms one at a time)`);
  } finally {
    server.close();
    await fleet.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
