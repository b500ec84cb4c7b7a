import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { AddressGuard } from './address-guard.js';

/** What came of one request: the receiver's status and headers, or why none came. */
export type SendResult =
  | { ok: true; statusCode: number; headers: http.IncomingHttpHeaders; durationMs: number }
  | { ok: false; error: string; durationMs: number };

export interface SendRequest {
  url: string;
  method: 'POST' | 'OPTIONS';
  headers: Record<string, string>;
  body?: string;
}

/** Most of a receiver's answer read (and dropped): an answer is a status, not a download. */
const ANSWER_BYTES_MAX = 64 * 1024;

/**
 * Sends webhook requests through keep-alive agents whose every new connection resolves through
 * the address guard; a literal IP in the URL (which Node connects to without a lookup) is checked
 * before the request. The whole exchange, answer included, must end within `timeoutMs`.
 */
export class WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(
    private readonly guard: AddressGuard,
    private readonly timeoutMs: number,
  ) {
    const options = { keepAlive: true, maxSockets: 64, lookup: guard.lookup };
    this.httpAgent = new http.Agent(options);
    this.httpsAgent = new https.Agent(options);
  }

  send(request: SendRequest): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(request.url);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host)) this.guard.check(host);
    } catch (err) {
      return Promise.resolve({ ok: false, error: (err as Error).message, durationMs: elapsed() });
    }
    const secure = url.protocol === 'https:';
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const req = (secure ? https : http).request(url, {
        method: request.method,
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: { ...request.headers, ...(request.body !== undefined ? { 'content-length': Buffer.byteLength(request.body) } : {}) },
      });
      const timer = setTimeout(() => {
        req.destroy();
        finish({ ok: false, error: `no answer within ${this.timeoutMs / 1000} s`, durationMs: elapsed() });
      }, this.timeoutMs);
      req.on('error', (err) => finish({ ok: false, error: err.message, durationMs: elapsed() }));
      req.on('response', (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > ANSWER_BYTES_MAX) res.destroy();
        });
        res.on('error', () => undefined);
        const done = () => finish({ ok: true, statusCode: res.statusCode ?? 0, headers: res.headers, durationMs: elapsed() });
        res.on('end', done);
        res.on('close', done);
      });
      req.end(request.body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
