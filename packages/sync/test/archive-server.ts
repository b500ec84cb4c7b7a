/**
 * A local stand-in for an upstream archive: node:http serving a directory, with single byte
 * ranges (RFC 9110 §14.1.2: `bytes=a-b` and `bytes=a-`, 206 with Content-Range, 416 past the end),
 * a log of every request, and faults to inject (a status, no answer, a body cut short).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import type { SyncOptions } from '../src/index.js';

export type Fault = { status: number } | { hang: true } | { cut: true } | { redirect: string };

export interface LoggedRequest {
  path: string;
  range: string | null;
  /** Body bytes sent. */
  bytes: number;
}

export interface ArchiveServer {
  baseUrl: string;
  log: LoggedRequest[];
  /** The next `times` requests whose path ends with `suffix` get `fault`. */
  inject(suffix: string, fault: Fault, times?: number): void;
  close(): Promise<void>;
}

/** Serves `root` on 127.0.0.1 at `port` (default: any free port). */
export async function serveArchive(root: string, port = 0): Promise<ArchiveServer> {
  const log: LoggedRequest[] = [];
  const faults: Array<{ suffix: string; fault: Fault; left: number }> = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const range = req.headers.range ?? null;
    const entry: LoggedRequest = { path, range, bytes: 0 };
    log.push(entry);
    const f = faults.find((x) => x.left > 0 && path.endsWith(x.suffix));
    if (f) {
      f.left--;
      if ('hang' in f.fault) return;
      if ('status' in f.fault) return void res.writeHead(f.fault.status).end();
      if ('redirect' in f.fault) return void res.writeHead(302, { location: f.fault.redirect }).end();
    }
    const file = normalize(join(root, path));
    let size: number;
    try {
      if (!file.startsWith(root)) throw new Error('outside');
      size = statSync(file).size;
    } catch {
      return void res.writeHead(404).end();
    }
    const body = readFileSync(file);
    let [start, end, status] = [0, size - 1, 200];
    if (range) {
      const m = /^bytes=(\d+)-(\d*)$/.exec(range);
      if (!m) return void res.writeHead(400).end();
      start = Number(m[1]);
      end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
      if (start >= size) return void res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      status = 206;
    }
    const part = body.subarray(start, end + 1);
    const headers: Record<string, string | number> = { 'content-length': part.length, 'accept-ranges': 'bytes' };
    if (status === 206) headers['content-range'] = `bytes ${start}-${end}/${size}`;
    res.writeHead(status, headers);
    if (f && 'cut' in f.fault) {
      // Headers promise the whole part; half of it comes and the connection drops.
      const half = part.subarray(0, part.length >> 1);
      entry.bytes = half.length;
      res.write(half, () => res.destroy());
      return;
    }
    entry.bytes = part.length;
    res.end(part);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    inject: (suffix, fault, times = 1) => void faults.push({ suffix, fault, left: times }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A test file's archive (written by `write`, then served) and an empty data directory, both removed after its tests. */
export function useArchive(name: string, write: (root: string) => void): { archive: string; data: string; server: ArchiveServer } {
  const state = {} as { archive: string; data: string; server: ArchiveServer };
  beforeAll(async () => {
    state.archive = mkdtempSync(join(tmpdir(), `sync-${name}-archive-`));
    state.data = mkdtempSync(join(tmpdir(), `sync-${name}-`));
    write(state.archive);
    state.server = await serveArchive(state.archive);
  });
  afterAll(async () => {
    await state.server?.close();
    for (const dir of [state.archive, state.data]) if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return state;
}

/**
 * A poller's pass (`partial`) of GFS over a test's archive into its data directory: each request
 * and step tried once, quickly; `options` gives the run, steps, clock and the rest.
 */
export function pollOptions(t: { data: string; server: ArchiveServer }, options: Partial<SyncOptions>): SyncOptions {
  return {
    source: 'gfs-0p25',
    baseUrl: t.server.baseUrl,
    syncDir: join(t.data, 'sync'),
    partial: true,
    http: { retries: 0, backoffMs: 5, timeoutMs: 2000 },
    stepRetries: 0,
    ...options,
  };
}
