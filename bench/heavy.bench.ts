/**
 * Heavy requests off the event loop (docs/decisions/0051-heavy-work-in-worker-threads.md). Run:
 *   BENCH_SECONDS=3 npx -y pnpm@10 exec tsx bench/heavy.bench.ts
 * Starts the agriculture app in this process (PGlite, in-process bus, the SyntheticSource) on an
 * ephemeral port, as bench/gdd.bench.ts does, and creates the largest square field at 42 N whose
 * contours over every accepted day (2015-01-01 to today + 7) stay within the work limit
 * (docs/decisions/0050-degree-day-work-limit.md). Measures /healthz throughput with autocannon (a
 * separate process) while idle, then while a second autocannon keeps four of those contour
 * requests in flight for the whole window, and prints the ratio. Target >= 0.50.
 * BENCH_SECONDS sets each /healthz window (default 5); the service has the runtime's default
 * threads (every core but one, at least one).
 */
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestFleet } from '../packages/runtime/src/testing.js';
import { SyntheticSource } from '../packages/weather/src/index.js';
import { agricultureService } from '../services/agriculture/src/definition.js';
import { degreeDayWork, MAX_DEGREE_DAY_CELL_DAYS } from '../services/agriculture/src/domain/work-limits.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const HEAVY = 4;
const LAT = 42.0308,
  LON = -93.6319;
const DAY_MS = 86_400_000;

const run = promisify(execFile);
interface Autocannon {
  requests: { total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}
async function autocannon(url: string, args: string[]): Promise<Autocannon> {
  const { stdout } = await run(join(process.cwd(), 'node_modules/.bin/autocannon'), [...args, '-j', url], { maxBuffer: 1 << 26 });
  return JSON.parse(stdout) as Autocannon;
}
async function healthRate(url: string): Promise<number> {
  const r = await autocannon(url, ['-c', '10', '-t', '30', '-d', String(DURATION_S)]);
  if (r.non2xx || r.errors) throw new Error(`/healthz: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r.requests.total / (r.duration || DURATION_S);
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const square = (half: number) => [
  [
    [LON - half, LAT - half],
    [LON + half, LAT - half],
    [LON + half, LAT + half],
    [LON - half, LAT + half],
    [LON - half, LAT - half],
  ],
];

async function main(): Promise<void> {
  const weather = new SyntheticSource();
  const fleet = await startTestFleet([agricultureService], { weather });
  const server = fleet.app('agriculture').listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const account = await fleet.account('bench');
  try {
    // The largest square (in steps of 0.005 degrees) whose contours over every accepted day fit the limit.
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const query = {
      base: 10,
      scale: 'celsius' as const,
      start: '2015-01-01',
      end: isoDay(today + 7 * DAY_MS),
      method: 'average' as const,
      given: {},
    };
    let half = 0.4;
    const work = (h: number) =>
      degreeDayWork.contours(
        weather,
        { id: '', accountId: '', description: '', polygons: [square(h)], centroid: { latitude: LAT, longitude: LON }, areaM2: 0 },
        query,
      );
    while (work(half) > MAX_DEGREE_DAY_CELL_DAYS) half -= 0.0025;
    const res = await fetch(`${base}/fields`, {
      method: 'POST',
      headers: { Authorization: account.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        description: 'heavy',
        type: 'GeometryCollection',
        geometries: [{ type: 'Polygon', coordinates: square(half) }],
      }),
    });
    if (res.status !== 201) throw new Error(`field: ${res.status} ${await res.text()}`);
    const id = ((await res.json()) as { id: string }).id;
    const contours = `${base}/growing-degree-days/${id}/contours?start=${query.start}&end=${query.end}`;
    console.log(
      `field ${(2 * half).toFixed(3)}° square at ${LAT} N; contours ${query.start}..${query.end}: ${work(half).toLocaleString('en')} cell-days (limit ${MAX_DEGREE_DAY_CELL_DAYS.toLocaleString('en')})`,
    );

    // Warm: the compute threads start on the first heavy request (and, from the sources, transpile their modules).
    let t0 = performance.now();
    const warm = await fetch(contours, { headers: { Authorization: account.auth } });
    if (warm.status !== 200) throw new Error(`contours: ${warm.status} ${await warm.text()}`);
    const bytes = (await warm.arrayBuffer()).byteLength;
    console.log(`one contour request, cold: ${((performance.now() - t0) / 1000).toFixed(1)} s, ${(bytes / 1e6).toFixed(2)} MB`);
    t0 = performance.now();
    await (await fetch(contours, { headers: { Authorization: account.auth } })).arrayBuffer();
    const oneS = (performance.now() - t0) / 1000;
    console.log(`one contour request, warm: ${oneS.toFixed(1)} s`);

    // A first window warms /healthz (JIT, sockets), so the idle figure is not the cold one.
    await healthRate(`${base}/healthz`);
    const idle = await healthRate(`${base}/healthz`);
    // Four contour requests in flight from before the window opens until after it closes.
    const loadSeconds = Math.ceil(DURATION_S + 2 + 2 * oneS);
    const load = autocannon(contours, ['-c', String(HEAVY), '-t', '120', '-d', String(loadSeconds), '-H', `Authorization=${account.auth}`]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const busy = await healthRate(`${base}/healthz`);
    const heavy = await load;
    if (heavy.non2xx || heavy.errors)
      throw new Error(`contours under load: ${heavy.non2xx} non-2xx, ${heavy.errors} errors, ${heavy.timeouts} timeouts`);
    const ratio = busy / idle;
    console.log(`contour requests completed under load: ${heavy.requests.total} in ${heavy.duration} s (${HEAVY} in flight)`);
    console.log(`/healthz idle: ${idle.toFixed(0)} req/s; during ${HEAVY} contour requests: ${busy.toFixed(0)} req/s`);
    console.log(`ratio ${ratio.toFixed(2)} (target >= 0.50): ${ratio >= 0.5 ? 'PASS' : '**FAIL**'}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await fleet.close();
  }
}

await main();
