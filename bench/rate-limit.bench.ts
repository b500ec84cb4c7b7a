/**
 * The token bucket of requests per account under load (docs/decisions/0060-limits-per-account.md).
 * Run:
 *   BENCH_SECONDS=3 npx -y pnpm@10 exec tsx bench/rate-limit.bench.ts
 * Starts the agriculture app in this process (PGlite, in-process bus) with a bucket of 50 requests
 * a second and a burst of 100, then lets autocannon (a separate process, 10 connections) send
 * `GET /fields` as fast as it can for BENCH_SECONDS (default 5). Prints how many were answered 200
 * and how many 429, and the share of /healthz throughput the limited endpoint keeps answering
 * (the 429s are cheap: the limiter answers before any work). Expected: 200s close to
 * burst + rate x seconds, every other answer 429 with Retry-After, no errors.
 */
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestFleet } from '../packages/runtime/src/testing.js';
import { agricultureService } from '../services/agriculture/src/definition.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const PER_SECOND = 50;
const BURST = 100;

const run = promisify(execFile);
interface Autocannon {
  requests: { total: number };
  statusCodeStats?: Record<string, { count: number }>;
  errors: number;
  duration: number;
}
async function autocannon(url: string, headers: string[] = []): Promise<Autocannon> {
  const args = ['-c', '10', '-t', '30', '-d', String(DURATION_S), '-j', ...headers.flatMap((h) => ['-H', h]), url];
  const { stdout } = await run(join(process.cwd(), 'node_modules/.bin/autocannon'), args, { maxBuffer: 1 << 26 });
  return JSON.parse(stdout) as Autocannon;
}

async function main(): Promise<void> {
  const fleet = await startTestFleet([agricultureService], { limits: { requests: { perSecond: PER_SECOND, burst: BURST } } });
  const server = fleet.app('agriculture').listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const account = await fleet.account('bench');
  try {
    const probe = await fetch(`${base}/fields`, { headers: { Authorization: account.auth } });
    console.log(`RateLimit-Policy: ${probe.headers.get('ratelimit-policy')}; RateLimit: ${probe.headers.get('ratelimit')}`);
    const health = await autocannon(`${base}/healthz`);
    const limited = await autocannon(`${base}/fields`, [`Authorization=${account.auth}`]);
    const count = (status: string) => limited.statusCodeStats?.[status]?.count ?? 0;
    const ok = count('200'),
      refused = count('429');
    const seconds = limited.duration || DURATION_S;
    const expected = BURST + PER_SECOND * seconds;
    console.log(
      `GET /fields for ${seconds} s at a bucket of ${PER_SECOND}/s, burst ${BURST}: ${ok} answered 200 (bucket allows about ${expected.toFixed(0)}), ${refused} answered 429, ${limited.errors} errors`,
    );
    const ratio = limited.requests.total / seconds / (health.requests.total / (health.duration || DURATION_S));
    console.log(`limited endpoint answered ${(limited.requests.total / seconds).toFixed(0)} req/s, ${ratio.toFixed(2)} of /healthz`);
    const pass = refused > 0 && limited.errors === 0 && ok <= expected * 1.1 && ok + refused === limited.requests.total;
    console.log(pass ? 'PASS: over the bucket every answer is 429' : '**FAIL**');
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await fleet.close();
  }
}

await main();
