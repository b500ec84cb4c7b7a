/**
 * Hourly relative humidity and short-crop ET of the insight area (targets in bench/README.md). Run:
 *   npx -y pnpm@10 exec tsx bench/insight.bench.ts
 * Starts the insight app in this process (PGlite, in-process bus, the SyntheticSource) on an
 * ephemeral port and measures each request with autocannon (a separate process) as a ratio to
 * /healthz throughput measured just before it in the same run.
 * Targets (share of /healthz): RH and ET, the default 24 hours at a point, >= 0.50; ET over a full
 * year at a point (8,760 values) >= 0.05, and its response time at most 3 times that of serving
 * 8,760 precomputed series entries as JSON from this same process (a plain node:http server that
 * serialises the same body on every request); ET over a 5,000 km² asset for one month is reported.
 * Repeated point requests are answered from the kept texts of point series, and recomputed ones
 * read the synthetic world's hourly values from its bounded caches of computed days
 * (docs/decisions/0112-insight-point-series-speed.md); the same requests at a new point each
 * time, computed in full, are timed one after another and reported.
 * BENCH_SECONDS sets the duration of each measurement (default 5).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FleetEnv, limitsFromEnv, parseEnv } from '../packages/runtime/src/index.js';
import { startTestFleet } from '../packages/runtime/src/testing.js';
import { SyntheticSource } from '../packages/weather/src/index.js';
import { insightService } from '../services/insight/src/definition.js';
import { requestsPerSecond } from './autocannon.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const LAT = 42.0308,
  LON = -93.6319;
const KM_PER_DEG_LAT = 111.2;
const KM_PER_DEG_LON = KM_PER_DEG_LAT * Math.cos((LAT * Math.PI) / 180);

const rate = (url: string, auth?: string, seconds = DURATION_S, connections = CONNECTIONS) =>
  requestsPerSecond(url, { seconds, connections, timeoutSeconds: 120, headers: { Authorization: auth } });

/** An asset of `km2` square kilometres, square, centred at the bench point. */
function squareAsset(km2: number) {
  const side = Math.sqrt(km2);
  const dLat = side / KM_PER_DEG_LAT / 2,
    dLon = side / KM_PER_DEG_LON / 2;
  const [w, s, e, n] = [LON - dLon, LAT - dLat, LON + dLon, LAT + dLat];
  const ring = [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ];
  return {
    type: 'FeatureCollection',
    features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: { km2: String(km2) } }],
  };
}

const HOUR_MS = 3_600_000;
/** The last 8,760 hours that have ended: the accepted range ends at the previous hour (docs/decisions/0111-hourly-series.md). */
function lastYear(): string {
  const previous = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - HOUR_MS;
  const iso = (ms: number) => new Date(ms).toISOString();
  return `start=${iso(previous - 8759 * HOUR_MS)}&end=${iso(previous)}`;
}

/** 30 days ending two days ago. */
function lastMonth(): string {
  const end = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 48 * HOUR_MS;
  const iso = (ms: number) => new Date(ms).toISOString();
  return `start=${iso(end - (30 * 24 - 1) * HOUR_MS)}&end=${iso(end)}`;
}

async function main(): Promise<void> {
  const limits = limitsFromEnv(parseEnv(FleetEnv, { RATE_LIMIT_PER_SECOND: '0', ...process.env }));
  const fleet = await startTestFleet([insightService], { weather: new SyntheticSource(), limits });
  const server = fleet.app('insight').listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const account = await fleet.account('bench');
  const auth = { Authorization: account.auth };
  const created = await fetch(`${base}/assets`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(squareAsset(5000)),
  });
  if (created.status !== 201) throw new Error(`asset: ${created.status} ${await created.text()}`);
  const asset = ((await created.json()) as { id: string }).id;

  // The baseline of the year's response time: the same 8,760 entries, precomputed, serialised
  // on every request by this process.
  const yearPath = `/hourly-evapotranspiration-short-crop/${LAT}/${LON}?${lastYear()}`;
  const yearBody = (await (await fetch(`${base}${yearPath}`, { headers: auth })).json()) as { series: unknown[] };
  const plain = createServer((_req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(yearBody));
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => plain.once('listening', resolve));
  const plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`;

  const rows: { label: string; rps: number; health: number; target?: number }[] = [];
  const measure = async (label: string, path: string, options: { target?: number; connections?: number; sequential?: number } = {}) => {
    const warm = await fetch(`${base}${path}`, { headers: auth });
    if (warm.status !== 200) throw new Error(`${label}: ${warm.status} ${await warm.text()}`);
    await warm.arrayBuffer();
    // A second of load first, so the first authenticated path measured is not the one that pays
    // for compiling the request pipeline (authentication, limits, negotiation) under load.
    if (!options.sequential) await rate(`${base}${path}`, account.auth, 1);
    const health = await rate(`${base}/healthz`);
    if (options.sequential) {
      // Requests of seconds each: timed one after another, as many as asked.
      const t0 = performance.now();
      for (let i = 0; i < options.sequential; i++) await (await fetch(`${base}${path}`, { headers: auth })).arrayBuffer();
      const rps = (1000 * options.sequential) / (performance.now() - t0);
      rows.push({ label, rps, health });
      console.log(`${label}: ${(1000 / rps).toFixed(0)} ms per request (/healthz ${health.toFixed(0)} req/s)`);
      return;
    }
    const rps = await rate(
      `${base}${path}`,
      account.auth,
      options.connections === 1 ? Math.max(2 * DURATION_S, 10) : DURATION_S,
      options.connections,
    );
    rows.push({ label, rps, health, ...(options.target === undefined ? {} : { target: options.target }) });
    console.log(`${label}: ${rps.toFixed(1)} req/s (/healthz ${health.toFixed(0)} req/s)`);
  };
  try {
    await measure('RH, default 24 hours, at a point', `/hourly-relative-humidity/${LAT}/${LON}`, { target: 0.5 });
    await measure('ET, default 24 hours, at a point', `/hourly-evapotranspiration-short-crop/${LAT}/${LON}`, { target: 0.5 });
    await measure(`ET, one year at a point (${yearBody.series.length} values)`, yearPath, { target: 0.05 });
    const plainRps = await rate(plainUrl);
    const year = rows[rows.length - 1]!;
    const month = lastMonth();
    await measure('ET, 5,000 km² asset, one month', `/hourly-evapotranspiration-short-crop/${asset}?${month}`, { sequential: 2 });
    await measure('RH, 5,000 km² asset, one month', `/hourly-relative-humidity/${asset}?${month}`, { sequential: 2 });
    // A new point each request: 0.05 degrees apart, so no two share a grid cell.
    let missed = 0;
    const misses = async (label: string, path: (lat: number) => string, count: number) => {
      const health = await rate(`${base}/healthz`);
      const t0 = performance.now();
      for (let i = 0; i < count; i++) {
        const res = await fetch(`${base}${path(LAT - 1 - (missed + i) * 0.05)}`, { headers: auth });
        if (res.status !== 200) throw new Error(`${label}: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }
      missed += count;
      const rps = (1000 * count) / (performance.now() - t0);
      rows.push({ label, rps, health });
      console.log(`${label}: ${(1000 / rps).toFixed(1)} ms per request (/healthz ${health.toFixed(0)} req/s)`);
    };
    await misses('RH, default 24 hours, a new point each request', (lat) => `/hourly-relative-humidity/${lat}/${LON}`, 20);
    await misses('ET, default 24 hours, a new point each request', (lat) => `/hourly-evapotranspiration-short-crop/${lat}/${LON}`, 20);
    await misses('ET, one year, a new point each request', (lat) => `/hourly-evapotranspiration-short-crop/${lat}/${LON}?${lastYear()}`, 3);

    console.log('\n| request | ms per request | /healthz req/s | ratio to /healthz | target |');
    console.log('|---|---|---|---|---|');
    for (const r of rows) {
      const ratio = r.rps / r.health;
      const verdict = r.target === undefined ? 'reported' : `${r.target} ${ratio >= r.target ? 'PASS' : '**FAIL**'}`;
      console.log(`| ${r.label} | ${(1000 / r.rps).toFixed(2)} | ${r.health.toFixed(0)} | ${ratio.toFixed(3)} | ${verdict} |`);
    }
    const times = plainRps / year.rps;
    console.log(
      `| ET year / the same ${yearBody.series.length} entries precomputed as JSON (${plainRps.toFixed(0)} req/s) | response time x ${times.toFixed(2)} | | | ≤ 3 ${times <= 3 ? 'PASS' : '**FAIL**'} |`,
    );
  } finally {
    await new Promise((resolve) => plain.close(resolve));
    await new Promise((resolve) => server.close(resolve));
    await fleet.close();
  }
}

await main();
