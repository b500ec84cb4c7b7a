/**
 * Many places in one request (targets in bench/README.md; docs/decisions/0242-batch-requests.md). Run:
 *   npx -y pnpm@10 exec tsx bench/batch.bench.ts
 * Starts the agriculture app in this process (PGlite, in-process bus, the SyntheticSource, its
 * compute thread) on an ephemeral port and warms it as a served process does once it listens. A client in a process of its own (so its work does not
 * share the service's event loop), started once before the app, measures, in each round:
 * - 1,000 single GET /growing-degree-days/{lat}/{lon} over a 200-day season, ten keep-alive
 *   connections, against one POST /growing-degree-days/batch of 1,000 other points with the same
 *   query: points per second of each, first on new points (the weather computed for them) and then
 *   the same points again (their results kept, services/agriculture/src/point-results.ts, for
 *   both). Target: batch >= 20 x single, same run.
 * - chill at one point over one season of hours (2023-09-01 to 2024-05-31, 6,552 hours), by
 *   autocannon, against /healthz just before it. Target: >= 0.3.
 * The points are spread at random over a 5 x 5 degree region of the US Midwest, so no two share a
 * grid point of the 0.01 degree synthetic grid. BENCH_ROUNDS (3) rounds; the median of their ratios.
 *
 * The client is not started per round: starting a process forks this one, which marks every page
 * of the app's memory copy-on-write, and the compute thread's next batch then faulted on each page
 * of its kept scratch arrays (about 8,000 faults, three times its CPU time), a cost no served
 * process pays.
 */
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { FleetEnv, limitsFromEnv, parseEnv } from '../packages/runtime/src/index.js';
import { startTestFleet } from '../packages/runtime/src/testing.js';
import { SyntheticSource } from '../packages/weather/src/index.js';
import { agricultureService } from '../services/agriculture/src/definition.js';
import { requestsPerSecond } from './autocannon.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const POINTS = 1000;
const SEASON = 'start=2024-04-01&end=2024-10-17'; // 200 days
const CONNECTIONS = 10;

/** The client: per round, single requests over keep-alive connections, then one batch; answers points/s of each over its IPC channel. */
const CLIENT = `
let base, headers;
async function timed(fn) { const t = performance.now(); await fn(); return (performance.now() - t) / 1000; }
async function single(points) {
  let next = 0;
  const worker = async () => {
    while (next < points.length) {
      const [lon, lat] = points[next++];
      const res = await fetch(base + '/growing-degree-days/' + lat + '/' + lon + '?${SEASON}', { headers });
      if (res.status !== 200) throw new Error('single: ' + res.status + ' ' + (await res.text()));
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: ${CONNECTIONS} }, worker));
}
async function many(points) {
  const res = await fetch(base + '/growing-degree-days/batch?${SEASON}', {
    method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ locations: points }),
  });
  if (res.status !== 200) throw new Error('batch: ' + res.status + ' ' + (await res.text()));
  const body = await res.json();
  if (body.results.length !== points.length) throw new Error('batch: ' + body.results.length + ' results');
}
async function round([singles, batch]) {
  const out = {};
  out.singleNew = singles.length / (await timed(() => single(singles)));
  out.batchNew = batch.length / (await timed(() => many(batch)));
  out.singleWarm = singles.length / (await timed(() => single(singles)));
  out.batchWarm = batch.length / (await timed(() => many(batch)));
  return out;
}
process.on('message', (m) => {
  if (m.base) {
    base = m.base;
    headers = { Authorization: m.auth, Accept: 'application/json' };
    return;
  }
  round(m.round).then((out) => process.send({ out }), (e) => process.send({ error: String(e) }));
});
`;

type Round = { singleNew: number; batchNew: number; singleWarm: number; batchWarm: number };

/** The client process, started with an IPC channel; each round is a message and its answer. */
function startClient(): {
  setup(base: string, auth: string): void;
  round(singles: [number, number][], batch: [number, number][]): Promise<Round>;
  stop(): void;
} {
  const child = spawn(process.execPath, ['-e', CLIENT], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return {
    setup: (base, auth) => child.send({ base, auth }),
    round: (singles, batch) =>
      new Promise((resolve, reject) => {
        const exited = (code: number | null) => reject(new Error(`the client exited (${code})`));
        child.once('exit', exited);
        child.once('message', (m: { out?: Round; error?: string }) => {
          child.off('exit', exited);
          if (m.out) resolve(m.out);
          else reject(new Error(m.error));
        });
        child.send({ round: [singles, batch] });
      }),
    stop: () => child.kill(),
  };
}

/** A deterministic scatter of points (a linear congruential generator), [longitude, latitude]. */
function scatter(seed: number, n: number): [number, number][] {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return Array.from({ length: n }, () => [Number((-98 + 5 * next()).toFixed(4)), Number((39 + 5 * next()).toFixed(4))]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const client = startClient();
  const env = parseEnv(FleetEnv, { RATE_LIMIT_PER_SECOND: '0', ...process.env });
  // As a served process: background tasks on, its compute threads (FIELDCAST_COMPUTE_THREADS, default
  // every core but one), and the warm-up it runs once it listens (its compute threads started and
  // its synthetic reads compiled, docs/decisions/0290, 0305).
  const fleet = await startTestFleet([agricultureService], {
    weather: new SyntheticSource(),
    limits: limitsFromEnv(env),
    background: true,
    computeThreads: env.FIELDCAST_COMPUTE_THREADS,
  });
  void fleet.warm();
  const server = fleet.app('agriculture').listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const account = await fleet.account('bench');
  try {
    // waits for the warm-up (the thread takes a task once it is done), which is not measured
    const warm = await fetch(`${base}/growing-degree-days/batch?${SEASON}`, {
      method: 'POST',
      headers: { Authorization: account.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ locations: scatter(1, 10) }),
    });
    if (warm.status !== 200) throw new Error(`warm-up: ${warm.status} ${await warm.text()}`);
    client.setup(base, account.auth);
    const rounds: Round[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const round = await client.round(scatter(100 + 2 * r, POINTS), scatter(101 + 2 * r, POINTS));
      rounds.push(round);
      console.log(
        `round ${r + 1}: new points single ${round.singleNew.toFixed(0)} /s, batch ${round.batchNew.toFixed(0)} /s (x ${(round.batchNew / round.singleNew).toFixed(1)}); ` +
          `warm single ${round.singleWarm.toFixed(0)} /s, batch ${round.batchWarm.toFixed(0)} /s (x ${(round.batchWarm / round.singleWarm).toFixed(1)})`,
      );
    }
    const chillPath = `/chill/42.0308/-93.6319?model=dynamic&start=2023-09-01&end=2024-05-31`;
    const first = await fetch(`${base}${chillPath}`, { headers: { Authorization: account.auth } });
    if (first.status !== 200) throw new Error(`chill: ${first.status} ${await first.text()}`);
    const health = await requestsPerSecond(`${base}/healthz`, { seconds: SECONDS });
    const chill = await requestsPerSecond(`${base}${chillPath}`, { seconds: SECONDS, headers: { Authorization: account.auth } });

    const newRatio = median(rounds.map((r) => r.batchNew / r.singleNew));
    const warmRatio = median(rounds.map((r) => r.batchWarm / r.singleWarm));
    const verdict = (ratio: number, target: number) => `${target} ${ratio >= target ? 'PASS' : '**FAIL**'}`;
    console.log('\n| case | figure | target |');
    console.log('|---|---|---|');
    console.log(
      `| 1,000 points, 200-day degree days, new points: batch / single (points/s, median of ${ROUNDS}) | ${newRatio.toFixed(1)} (${median(rounds.map((r) => r.batchNew)).toFixed(0)} vs ${median(rounds.map((r) => r.singleNew)).toFixed(0)} points/s) | ${verdict(newRatio, 20)} |`,
    );
    console.log(
      `| the same points again (results kept) | ${warmRatio.toFixed(1)} (${median(rounds.map((r) => r.batchWarm)).toFixed(0)} vs ${median(rounds.map((r) => r.singleWarm)).toFixed(0)} points/s) | ${verdict(warmRatio, 20)} |`,
    );
    console.log(
      `| chill, one point, one season of hours / /healthz | ${(chill / health).toFixed(3)} (${chill.toFixed(0)} vs ${health.toFixed(0)} req/s) | ${verdict(chill / health, 0.3)} |`,
    );
  } finally {
    client.stop();
    await new Promise((resolve) => server.close(resolve));
    await fleet.close();
  }
}

await main();
