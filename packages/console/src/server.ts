import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { buildAssets, type Asset } from './bundle.js';
import type { ConsoleConfig } from './config.js';
import { PREBUILT_DIR, readPrebuilt } from './prebuilt.js';

export interface RunningConsole {
  url: string;
  server: Server;
  stop(): Promise<void>;
}

/**
 * The console's HTTP server: the built page, its vendor styles and atlas, and /config.json.
 * Nothing else: the page calls the areas itself, cross-origin, with the signed-in account's
 * HTTP Basic credentials (docs/interface.md §1, Credentials).
 */
/**
 * The page's files: from the TypeScript sources (tsx, Jest) built now; in the bundle, the ones
 * `pnpm build` wrote beside cli.js, so a container needs no bundler (decision 0194).
 */
function loadAssets(): Promise<Map<string, Asset>> {
  if (import.meta.url.endsWith('.ts')) return buildAssets();
  return Promise.resolve(readPrebuilt(fileURLToPath(new URL(`./${PREBUILT_DIR}/`, import.meta.url))));
}

/**
 * The path of a request target (RFC 9112 section 3.2: origin form, or absolute form as a proxy
 * sends it), or null when the target is no URL: Node's parser passes `GET http://[ HTTP/1.1`
 * through, and a throw here would end the process, which holds every area in embedded mode.
 */
function pathOf(target: string): string | null {
  try {
    return new URL(target, 'http://console').pathname;
  } catch {
    return null;
  }
}

export async function startConsole(options: { port: number; host: string; config: ConsoleConfig }): Promise<RunningConsole> {
  const assets = await loadAssets();
  assets.set('/config.json', { body: Buffer.from(JSON.stringify(options.config)), type: 'application/json' });
  const server = createServer((req, res) => {
    // Every answer is what its Content-Type says, refusals too (WHATWG Fetch, X-Content-Type-Options).
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const path = pathOf(req.url ?? '/');
    if (path === null) {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('bad request target\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('method not allowed\n');
      return;
    }
    // It depends on nothing, so ready as soon as it serves: one answer for both probes (docs/interface.md §1).
    if (path === '/healthz' || path === '/readyz') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    const asset = assets.get(path);
    if (!asset) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, {
      'Content-Type': asset.type,
      'Content-Length': asset.body.length,
      // The page and its config change with each start; the demo key must not linger in caches.
      'Cache-Control': 'no-store',
      // Scripts and styles from this origin only; the areas and (optionally) OpenStreetMap for data.
      'Content-Security-Policy':
        "default-src 'self'; img-src 'self' blob: data: https://tile.openstreetmap.org; connect-src *; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
      'Referrer-Policy': 'no-referrer',
    });
    res.end(req.method === 'HEAD' ? undefined : asset.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`,
    server,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
