import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  /** the request target, path and query */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** what the receiver answered */
  status: number | 'hung';
}

/** How the receiver answers the nth POST (1-based): a status, one with headers, or none; the handshake by `handshake`. */
export type Answer = (n: number, body: string) => number | { status: number; headers: Record<string, string> } | 'hang';

/**
 * A subscriber's endpoint on the loopback: answers the CloudEvents handshake (or refuses it) and
 * each POST as the test says, and records every request.
 */
export class WebhookReceiver {
  readonly requests: Received[] = [];
  handshake: 'allow' | 'no-header' | 'wildcard' = 'allow';
  /** the handshake answer's WebHook-Allowed-Rate (HTTP 1.1 Web Hooks for Event Delivery 4.2.2); null: none */
  allowedRate: string | null = null;
  answer: Answer = () => 200;
  private server: Server | null = null;
  private posts = 0;
  private readonly hung = new Set<() => void>();

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hook`;
  }

  get deliveries(): Received[] {
    return this.requests.filter((r) => r.method === 'POST');
  }

  /** Bodies of the POSTs answered 2xx, parsed. */
  get delivered(): { id: string; type: string; subject: string; data: { id: string; namespace: string; origin: { id: string } } }[] {
    return this.deliveries.filter((r) => typeof r.status === 'number' && r.status < 300).map((r) => JSON.parse(r.body));
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const record: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, status: 200 };
        this.requests.push(record);
        if (req.method === 'OPTIONS') {
          const origin = req.headers['webhook-request-origin'];
          if (this.handshake === 'allow' && typeof origin === 'string') res.setHeader('WebHook-Allowed-Origin', origin);
          if (this.handshake === 'wildcard') res.setHeader('WebHook-Allowed-Origin', '*');
          if (this.allowedRate !== null) res.setHeader('WebHook-Allowed-Rate', this.allowedRate);
          res.end();
          return;
        }
        const answer = this.answer(++this.posts, body);
        if (answer === 'hang') {
          record.status = 'hung';
          this.hung.add(() => res.destroy());
          return;
        }
        const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
        record.status = status;
        res.writeHead(status, headers);
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    for (const release of this.hung) release();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
