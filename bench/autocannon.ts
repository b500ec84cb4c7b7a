// One URL's throughput, measured by autocannon in a process of its own so the load generator
// never shares the service's event loop (bench/README.md: every target is a ratio of two such
// figures taken in the same run).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Load {
  seconds: number;
  /** concurrent connections (10) */
  connections?: number;
  /** seconds before a request counts as an error (autocannon's 10 by default) */
  timeoutSeconds?: number;
  /** request headers; an undefined value is left out */
  headers?: Record<string, string | undefined>;
}

/**
 * Requests answered per second over the measured window: slow requests finish few times in it,
 * so they are counted over autocannon's own duration. A non-2xx answer or an error throws: a
 * figure of refused requests would measure the refusal.
 */
export async function requestsPerSecond(url: string, load: Load): Promise<number> {
  const headers = Object.entries(load.headers ?? {}).flatMap(([k, v]) => (v === undefined ? [] : ['-H', `${k}=${v}`]));
  const timeout = load.timeoutSeconds === undefined ? [] : ['-t', String(load.timeoutSeconds)];
  const args = ['-c', String(load.connections ?? 10), ...timeout, '-d', String(load.seconds), '-j', ...headers, url];
  const { stdout } = await run(join(process.cwd(), 'node_modules/.bin/autocannon'), args, { maxBuffer: 1 << 24 });
  const r = JSON.parse(stdout) as { requests: { total: number }; non2xx: number; errors: number; duration: number };
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r.requests.total / (r.duration || load.seconds);
}
