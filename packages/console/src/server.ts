import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { buildAssets, type Asset } from './bundle.js';
import type { ConsoleConfig } from './config.js';
import { authorityKey, consoleAuthorities } from './hosts.js';
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
 * sends it) and, in absolute form, its authority, which names the server in place of Host (RFC
 * 9112 section 3.2.2); null when the target is no URL: Node's parser passes `GET http://[ HTTP/1.1`
 * through, and a throw here would end the process, which holds every area in embedded mode.
 */
function parseTarget(target: string): { path: string; authority: string | null } | null {
  try {
    const url = new URL(target, 'http://console');
    return { path: url.pathname, authority: URL.canParse(target) ? url.host : null };
  } catch {
    return null;
  }
}

interface ConsoleOptions {
  port: number;
  host: string;
  config: ConsoleConfig;
}

export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const assets = await loadAssets();
  assets.set('/config.json', { body: Buffer.from(JSON.stringify(options.config)), type: 'application/json' });
  const holdsCredentials = options.config.demo !== null || options.config.archive !== null;
  // Known once listening: port 0 asks the system for one.
  let authorities: ReadonlySet<string> = new Set();
  const server = createServer((req, res) => {
    // Every answer is what its Content-Type says, refusals too (WHATWG Fetch, X-Content-Type-Options).
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const target = parseTarget(req.url ?? '/');
    if (target === null) {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('bad request target\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('method not allowed\n');
      return;
    }
    const { path } = target;
    // It depends on nothing, so ready as soon as it serves: one answer for both probes (docs/interface.md §1).
    // Whatever the Host: a kubelet probes with the pod's address, and the answer holds nothing.
    if (path === '/healthz' || path === '/readyz') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    // DNS rebinding: a page whose name now resolves to this address is read with that name as
    // Host. A config holding credentials (the embedded fleet's demo account) is served only at the
    // loopback names; 421: the request names a server this one is not (RFC 9110 section 15.5.20).
    const authority = authorityKey(target.authority ?? req.headers.host);
    if (holdsCredentials && (authority === null || !authorities.has(authority))) {
      res
        .writeHead(421, { 'Content-Type': 'text/plain' })
        .end('misdirected request: this console is not served at the host the request names\n');
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
  authorities = consoleAuthorities(address.port);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`,
    server,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
