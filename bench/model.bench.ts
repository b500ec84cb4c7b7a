/**
 * The model area (targets in bench/README.md). Run:
 *   npx -y pnpm@10 exec tsx bench/model.bench.ts
 * Starts the model service in this process (PGlite, in-process bus, the SyntheticSource, no
 * background event writer) on an ephemeral port and measures each request with autocannon (a
 * separate process) as a ratio to /healthz throughput measured just before it in the same run.
 * Targets (share of /healthz): one variable's time series over a full run (385 hourly values of
 * synthetic-global) at a point >= 0.40; the latest forecast's every variable at a point (6 x 385
 * values) >= 0.25; GET /models/{id}/forecasts?limit=100 >= 0.50. Each request computes its
 * values afresh: the weather values and the forecast error are not cached between requests.
 * BENCH_SECONDS sets the duration of each measurement (default 5).
 */
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { FleetEnv, limitsFromEnv, parseEnv } from '../packages/runtime/src/index.js';
import { startTestFleet } from '../packages/runtime/src/testing.js';
import { SyntheticSource } from '../packages/weather/src/index.js';
import { modelService } from '../services/model/src/definition.js';
import { requestsPerSecond } from './autocannon.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
/** rounds per case; the figure is the median of the rounds' ratios, so a burst of load from other jobs moves one round, not the figure */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const LAT = 42.0308,
  LON = -93.6319;

const rate = (url: string, auth?: string) =>
  requestsPerSecond(url, { seconds: DURATION_S, connections: CONNECTIONS, timeoutSeconds: 60, headers: { Authorization: auth } });

async function main(): Promise<void> {
  const limits = limitsFromEnv(parseEnv(FleetEnv, { RATE_LIMIT_PER_SECOND: '0', ...process.env }));
  const fleet = await startTestFleet([modelService], { weather: new SyntheticSource(), limits });
  const server = fleet.app('model').listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const account = await fleet.account('bench');
  const getJson = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: { Authorization: account.auth } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
  try {
    const latest = (await getJson('/models/synthetic-global/latest-forecast')) as { id: string };
    const series = `/forecasts/${latest.id}/variables/temperature/timeseries/${LAT}/${LON}`;
    const values = ((await getJson(series)) as { series: unknown[] }).series.length;
    const cases = [
      { label: `one variable, full run (${values} values) at a point`, path: series, target: 0.4 },
      {
        label: 'latest forecast, every variable at a point',
        path: `/models/synthetic-global/latest-forecast/timeseries/${LAT}/${LON}`,
        target: 0.25,
      },
      { label: 'GET /models/{id}/forecasts?limit=100', path: '/models/synthetic-global/forecasts?limit=100', target: 0.5 },
    ];
    const rows: string[] = [];
    for (const c of cases) {
      await getJson(c.path);
      const rounds: { ratio: number; rps: number; health: number }[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        // Rounds alternate which is measured first, so a trend in the load favours neither.
        let health: number;
        let rps: number;
        if (i % 2 === 0) {
          health = await rate(`${base}/healthz`);
          rps = await rate(`${base}${c.path}`, account.auth);
        } else {
          rps = await rate(`${base}${c.path}`, account.auth);
          health = await rate(`${base}/healthz`);
        }
        rounds.push({ ratio: rps / health, rps, health });
      }
      rounds.sort((a, b) => a.ratio - b.ratio);
      const mid = rounds[rounds.length >> 1]!;
      // With every connection busy, each request takes about CONNECTIONS / rps.
      const ms = (1000 * CONNECTIONS) / mid.rps;
      const all = rounds.map((r) => r.ratio.toFixed(2)).join(', ');
      const figure = `${mid.ratio.toFixed(3)} of /healthz (median of ${all}; ${mid.rps.toFixed(0)} vs ${mid.health.toFixed(0)} req/s, ${ms.toFixed(2)} ms)`;
      rows.push(`| ${c.label} | ${figure} | >= ${c.target} | ${mid.ratio >= c.target ? 'PASS' : 'FAIL'} |`);
    }
    // Cache misses (docs/decisions/0143-model-series-cache.md): a new point each request, one at a
    // time, against /healthz one at a time; reported, no target.
    const sequential = async (paths: string[]) => {
      const t0 = performance.now();
      for (const p of paths) await getJson(p);
      return (performance.now() - t0) / paths.length;
    };
    const N = 100;
    const healthMs = await sequential(Array.from({ length: N }, () => '/healthz'));
    const points = Array.from({ length: N }, (_, i) => `${(LAT + 0.013 * (i + 1)).toFixed(4)}/${(LON - 0.017 * (i + 1)).toFixed(4)}`);
    const missMs = await sequential(points.map((p) => `/forecasts/${latest.id}/variables/temperature/timeseries/${p}`));
    const missAllMs = await sequential(points.map((p) => `/models/synthetic-global/latest-forecast/timeseries/${p}?limit=385`));
    rows.push(
      `| one variable, full run, a new point each request (one at a time) | ${missMs.toFixed(2)} ms vs /healthz ${healthMs.toFixed(2)} ms | reported | |`,
    );
    rows.push(`| every variable, full run, a new point each request (one at a time) | ${missAllMs.toFixed(2)} ms | reported | |`);
    const load = loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    console.log(`model bench, ${DURATION_S} s per window, ${CONNECTIONS} connections, load average ${load}`);
    console.log('| case | figure | target | result |\n|---|---|---|---|');
    for (const r of rows) console.log(r);
  } finally {
    server.close();
    await fleet.close();
  }
}

await main();
