/**
 * The archive area (targets in bench/README.md). Run:
 *   npx -y pnpm@10 exec tsx bench/archive.bench.ts
 * Starts the archive app in this process (PGlite) on an ephemeral port, registers a user for the
 * loopback, and measures each request with autocannon (a separate process) as a ratio to /healthz
 * throughput measured just before it in the same run. Targets (share of /healthz): hailsize
 * summary at a point over 90 days within 10 miles >= 0.30; lightning history in a 1 degree region
 * over one event day >= 0.20; the same as KML >= 0.15.
 * First: the first request after start (the service warmed as `fieldcast serve` warms it, nothing
 * else read), against the latency of /healthz in the same process: target <= 200 (a quarter of a
 * second here).
 * Warm: one request first, so its event blocks are drawn and cached
 * (docs/decisions/0171-archive-event-blocks.md); the first request's time is printed too, with the
 * slowest /healthz answered while it ran (the event loop's stall: blocks are drawn in threads).
 * BENCH_SECONDS sets the duration of each measurement (default 5).
 */
import type { AddressInfo } from 'node:net';
import { startTestFleet } from '../packages/runtime/src/testing.js';
import { archiveService } from '../services/archive/src/definition.js';
import { ArchiveUserStore } from '../services/archive/src/store.js';
import { severeEvents } from '../packages/weather/src/index.js';
import { requestsPerSecond } from './autocannon.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;

const rate = (url: string, accept?: string) =>
  requestsPerSecond(url, { seconds: DURATION_S, connections: CONNECTIONS, timeoutSeconds: 60, headers: { Accept: accept } });

async function main(): Promise<void> {
  // Started as `fieldcast serve archive` starts it: background on, warmed once it listens.
  const fleet = await startTestFleet([archiveService], { background: true });
  const server = fleet.app('archive').listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  void fleet.warm();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const user = await new ArchiveUserStore(fleet.db.knex).register({ name: 'bench', ranges: ['127.0.0.1/32', '::1/128'] });
  const auth = `u=${user.name}&t=${user.token}`;
  // The first request after start, before anything of the synthetic world is read in this process,
  // against the latency of /healthz (median of 50 single calls) in the same process: target <= 200.
  const healthMs: number[] = [];
  for (let i = 0; i < 50; i++) {
    const h0 = performance.now();
    await (await fetch(`${base}/healthz`)).text();
    healthMs.push(performance.now() - h0);
  }
  const healthLatency = healthMs.sort((a, b) => a - b)[25]!;
  const f0 = performance.now();
  // (a season the cases below do not read, so their first requests stay cold)
  const firstAfterStart = await fetch(`${base}/v2/hailsize/summary/+35.4676-097.5164?radius=10&end=2024-08-01T00:00:00Z&${auth}`);
  await firstAfterStart.text();
  const firstMs = performance.now() - f0;
  process.stdout.write(
    `first request after start (hailsize summary, point, 90 days): ${firstMs.toFixed(0)} ms (status ${firstAfterStart.status}); /healthz ${healthLatency.toFixed(2)} ms; ratio ${(firstMs / healthLatency).toFixed(0)} (target <= 200): ${firstMs / healthLatency <= 200 ? 'PASS' : 'FAIL'}\n`,
  );
  // Oklahoma City through the 2025 storm season; a 1 degree region over central Oklahoma on the
  // summer 2025 event day with the most ground strokes there (found by reading the synthetic world).
  let day = '2025-07-01';
  let most = -1;
  for (let d = 0; d < 62; d++) {
    const startMs = Date.UTC(2025, 5, 1, 6) + d * 86_400_000;
    const n = severeEvents('lightning', [-98, 35, -97, 36], { startMs, endMs: startMs + 86_400_000 - 1 }).filter(
      (e) => e.strokeType === 'ground',
    ).length;
    if (n > most) [most, day] = [n, new Date(startMs).toISOString().slice(0, 10)];
  }
  process.stdout.write(`lightning day ${day}: ${most} ground strokes in the region\n`);
  const cases = [
    {
      label: 'hailsize/summary, point, 90 days, radius 10 miles',
      path: `/v2/hailsize/summary/+35.4676-097.5164?radius=10&end=2025-08-01T00:00:00Z&${auth}`,
      target: 0.3,
    },
    {
      label: 'lightning/history, 1 degree region, one event day',
      path: `/v2/lightning/history/+36.0000-097.0000+35.0000-098.0000/${day}?${auth}`,
      target: 0.2,
    },
    { label: 'the same as KML', path: `/v2/lightning/history/+36.0000-097.0000+35.0000-098.0000/${day}.kml?${auth}`, target: 0.15 },
  ];
  try {
    const rows: string[] = [];
    for (const c of cases) {
      // While the first (cold) request draws its blocks, /healthz is asked one call at a time: its
      // slowest answer is how long the event loop was held (blocks are drawn in compute threads).
      let drawing = true;
      let healthWorstMs = 0;
      const probe = (async () => {
        while (drawing) {
          const h0 = performance.now();
          await (await fetch(`${base}/healthz`)).text();
          healthWorstMs = Math.max(healthWorstMs, performance.now() - h0);
        }
      })();
      const t0 = performance.now();
      const first = await fetch(`${base}${c.path}`);
      const body = await first.text();
      const coldMs = performance.now() - t0;
      drawing = false;
      await probe;
      if (first.status !== 200) throw new Error(`${c.label}: ${first.status} ${body}`);
      const health = await rate(`${base}/healthz`);
      const rps = await rate(`${base}${c.path}`);
      const ratio = rps / health;
      rows.push(
        `${c.label}: ${rps.toFixed(0)} req/s, /healthz ${health.toFixed(0)} req/s, ratio ${ratio.toFixed(3)} (target ${c.target}: ${ratio >= c.target ? 'PASS' : 'FAIL'}); first request ${coldMs.toFixed(0)} ms (slowest /healthz meanwhile ${healthWorstMs.toFixed(0)} ms), ${body.length} bytes`,
      );
    }
    for (const r of rows) process.stdout.write(`${r}\n`);
  } finally {
    server.close();
    await fleet.close();
  }
}

await main();
