import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen } from '@fieldcast/runtime';
import type { WireRequest } from './request-arbitraries.js';

export interface WireResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * Serves an app as the runtime does, on a free loopback port: requests go over a real socket,
 * byte for byte as written, and what Node's parser refuses meets the runtime's answer to it.
 */
export async function listenOnLoopback(app: Parameters<typeof listen>[0]): Promise<{ port: number; close(): Promise<void> }> {
  const server = await listen(app, 0, '127.0.0.1');
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function send(port: number, req: WireRequest): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    // A fresh connection per request: a fault that closes one cannot fail the next request.
    const headers: Record<string, string | number> = { ...req.headers, connection: 'close' };
    if (req.body) headers['content-length'] = req.body.length;
    const outgoing = httpRequest({ host: '127.0.0.1', port, method: req.method, path: req.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

/** The request as a reader can replay it: request line, headers, body (as a JSON string, or base64 when not UTF-8). */
export function reproducer(req: WireRequest, res: WireResponse | undefined, why: string): string {
  const lines = [`${why}`, `  ${req.method} ${req.path}`];
  for (const [k, v] of Object.entries(req.headers)) lines.push(`  ${k}: ${k === 'authorization' ? redact(v) : JSON.stringify(v)}`);
  if (req.body) {
    const text = req.body.toString('utf8');
    const utf8 = Buffer.from(text).equals(req.body);
    const shown = utf8 ? JSON.stringify(text.length > 600 ? `${text.slice(0, 600)}…` : text) : `base64:${req.body.toString('base64')}`;
    lines.push(`  body (${req.body.length} bytes): ${shown}`);
  }
  if (res) lines.push(`  -> ${res.status} ${res.headers['content-type'] ?? ''} ${res.text.slice(0, 600)}`);
  return lines.join('\n');
}

function redact(authorization: string): string {
  const [scheme, token] = authorization.split(' ');
  if (scheme !== 'Basic' || !token) return JSON.stringify(authorization);
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  const [id] = decoded.split(':');
  return `Basic base64("${id}:<key>")`;
}
