/**
 * Growing degree days (targets in bench/README.md). Run:
 *   npx -y pnpm@10 exec tsx bench/gdd.bench.ts
 * Starts the agriculture app in this process (PGlite, in-process bus, the SyntheticSource) on an
 * ephemeral port, creates square fields of several sizes at 42 N, and measures each request with
 * autocannon (a separate process, so client work does not share the server's event loop) as a
 * ratio to /healthz throughput measured just before it in the same run.
 * Targets (share of /healthz): location over a full year >= 0.50; a 100 ha field over a 200-day
 * season >= 0.25; its contours >= 0.10; a 5,000 km² field is reported. Three field sizes at one
 * season, and one field at three season lengths, show the cost per cell-day.
 * BENCH_SECONDS sets the duration of each measurement (default 5).
 * Warm cache: the field requests after the first find the field record in the embedded mode's
 * per-process record cache (services/agriculture/src/field-record-cache.ts; PGlite only, this
 * process being its one writer). Weather values are computed on every request; nothing else is
 * cached between requests.
 */
import type { AddressInfo } from 'node:net';
import { FleetEnv, limitsFromEnv, parseEnv } from '../packages/runtime/src/index.js';
import { startTestFleet } from '../packages/runtime/src/testing.js';
import { SyntheticSource } from '../packages/weather/src/index.js';
import { agricultureService } from '../services/agriculture/src/definition.js';
import { requestsPerSecond } from './autocannon.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const LAT = 42.0308,
  LON = -93.6319;
const KM_PER_DEG_LAT = 111.2;
const KM_PER_DEG_LON = KM_PER_DEG_LAT * Math.cos((LAT * Math.PI) / 180);
const CELL = 0.01; // the synthetic grid

const rate = (url: string, auth?: string, seconds = DURATION_S, connections = CONNECTIONS) =>
  requestsPerSecond(url, { seconds, connections, timeoutSeconds: 60, headers: { Authorization: auth } });

/** A square field of `km2` centred at the bench point, with its grid-cell count (cells touching it). */
function squareField(km2: number) {
  const side = Math.sqrt(km2);
  const dLat = side / KM_PER_DEG_LAT / 2,
    dLon = side / KM_PER_DEG_LON / 2;
  const [w, s, e, n] = [LON - dLon, LAT - dLat, LON + dLon, LAT + dLat];
  const count = (lo: number, hi: number) => Math.floor((hi + CELL / 2) / CELL + 1e-9) - Math.ceil((lo - CELL / 2) / CELL - 1e-9) + 1;
  return {
    body: {
      description: `${km2} km²`,
      type: 'GeometryCollection',
      geometries: [
        {
          type: 'Polygon',
          coordinates: [
            [
              [w, s],
              [e, s],
              [e, n],
              [w, n],
              [w, s],
            ],
          ],
        },
      ],
    },
    cells: count(w, e) * count(s, n),
  };
}

const season = (days: number) => {
  const start = Date.UTC(2024, 3, 1);
  const end = new Date(start + (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return `start=2024-04-01&end=${end}`;
};

async function main(): Promise<void> {
  // Throughput is measured here, not the limiter: one account's request rate is unlimited unless
  // RATE_LIMIT_PER_SECOND says otherwise (docs/operations.md "Limits"); ten connections stay under the heavy cap.
  const limits = limitsFromEnv(parseEnv(FleetEnv, { RATE_LIMIT_PER_SECOND: '0', ...process.env }));
  const fleet = await startTestFleet([agricultureService], { weather: new SyntheticSource(), limits });
  const server = fleet.app('agriculture').listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const account = await fleet.account('bench');
  const create = async (km2: number) => {
    const { body, cells } = squareField(km2);
    const res = await fetch(`${base}/fields`, {
      method: 'POST',
      headers: { Authorization: account.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`field of ${km2} km²: ${res.status} ${await res.text()}`);
    return { id: ((await res.json()) as { id: string }).id, cells, km2 };
  };
  try {
    const ha100 = await create(1);
    const km25 = await create(25);
    const km100 = await create(100);
    const km5000 = await create(5000);

    // The machine is shared: each request is paired with a /healthz measurement taken just before
    // it, and its ratio is to that one, so load that comes and goes colours both alike.
    const rows: { label: string; rps: number; health: number; target?: number; cellDays?: number }[] = [];
    const measure = async (label: string, path: string, options: { target?: number; cellDays?: number; connections?: number } = {}) => {
      // A warm service is measured: one request first, so the compute threads' start (run from
      // the sources, each thread transpiles the weather modules) is not counted in the window.
      const warm = await fetch(`${base}${path}`, { headers: { Authorization: account.auth } });
      if (warm.status !== 200) throw new Error(`${label}: ${warm.status} ${await warm.text()}`);
      await warm.arrayBuffer();
      const health = await rate(`${base}/healthz`);
      const rps = await rate(
        `${base}${path}`,
        account.auth,
        options.connections === 1 ? Math.max(2 * DURATION_S, 10) : DURATION_S,
        options.connections,
      );
      rows.push({
        label,
        rps,
        health,
        ...(options.target === undefined ? {} : { target: options.target }),
        ...(options.cellDays === undefined ? {} : { cellDays: options.cellDays }),
      });
      console.log(`${label}: ${rps.toFixed(1)} req/s (/healthz ${health.toFixed(0)} req/s)`);
    };
    await measure('location, a full year (2024)', `/growing-degree-days/${LAT}/${LON}?start=2024-01-01&end=2024-12-31`, { target: 0.5 });
    await measure('100 ha field, 200-day season', `/growing-degree-days/${ha100.id}?${season(200)}`, {
      target: 0.25,
      cellDays: ha100.cells * 200,
    });
    await measure('100 ha field contours, 200-day season', `/growing-degree-days/${ha100.id}/contours?${season(200)}`, { target: 0.1 });
    for (const f of [km25, km100])
      await measure(`${f.km2} km² field, 200-day season`, `/growing-degree-days/${f.id}?${season(200)}`, { cellDays: f.cells * 200 });
    for (const days of [50, 100])
      await measure(`100 km² field, ${days}-day season`, `/growing-degree-days/${km100.id}?${season(days)}`, {
        cellDays: km100.cells * days,
      });
    await measure('100 km² field contours, 200-day season', `/growing-degree-days/${km100.id}/contours?${season(200)}`);
    // One connection: a request takes about a second, so ten would queue past autocannon's timeout.
    await measure('5,000 km² field, 200-day season', `/growing-degree-days/${km5000.id}?${season(200)}`, {
      cellDays: km5000.cells * 200,
      connections: 1,
    });
    await measure('5,000 km² field contours, 200-day season', `/growing-degree-days/${km5000.id}/contours?${season(200)}`, {
      connections: 1,
    });

    // Cost model over the field results up to 100 km²: ms per request = a + b x cell-days (least squares).
    const fit = rows.filter((r) => r.cellDays !== undefined && r.cellDays < 500_000);
    const xs = fit.map((r) => r.cellDays!),
      ys = fit.map((r) => 1000 / r.rps);
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length,
      my = ys.reduce((a, b) => a + b, 0) / ys.length;
    const slope = xs.reduce((s, x, k) => s + (x - mx) * (ys[k]! - my), 0) / xs.reduce((s, x) => s + (x - mx) ** 2, 0);
    const intercept = my - slope * mx;

    console.log(`cost model (field results to 100 km²): ${intercept.toFixed(2)} ms + ${(slope * 1000).toFixed(3)} µs per cell-day\n`);
    console.log('| request | cell-days | ms per request | model ms | /healthz req/s | ratio to /healthz | target |');
    console.log('|---|---|---|---|---|---|---|');
    for (const r of rows) {
      const ratio = r.rps / r.health;
      const verdict = r.target === undefined ? 'reported' : `${r.target} ${ratio >= r.target ? 'PASS' : '**FAIL**'}`;
      const model = r.cellDays ? (intercept + slope * r.cellDays).toFixed(2) : '';
      console.log(
        `| ${r.label} | ${r.cellDays?.toLocaleString('en') ?? ''} | ${(1000 / r.rps).toFixed(2)} | ${model} | ${r.health.toFixed(0)} | ${ratio.toFixed(3)} | ${verdict} |`,
      );
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await fleet.close();
  }
}

await main();
