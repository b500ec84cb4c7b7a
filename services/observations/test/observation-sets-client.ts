import { createServer, request as httpRequest, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { TestAccount } from '@fieldcast/runtime/testing';

/** What supertest is given: the service's app. */
type Express = Parameters<typeof request>[0];

export const JSON_V1 = 'application/vnd.fieldcast+json; version=1';

/** A site with observations at the given times, one temperature each. */
export function site(id: string, times: string[], extra: Record<string, unknown> = {}) {
  return {
    id,
    latitude: 41.58,
    longitude: -93.62,
    elevation: 291,
    observations: times.map((time, i) => ({ time, variables: [{ name: 'temperature', unit: 'celsius', value: 10 + i }] })),
    ...extra,
  };
}

export function publish(app: Express, account: TestAccount, body: unknown) {
  return request(app)
    .post('/observation-sets')
    .set('Authorization', account.auth)
    .set('Accept', JSON_V1)
    .send(body as object);
}

/** Publishes a body given as JSON text, byte for byte. */
export function publishText(app: Express, account: TestAccount, text: string) {
  return request(app).post('/observation-sets').set('Authorization', account.auth).set('Content-Type', 'application/json').send(text);
}

/**
 * Publishes these bytes as they are, with these headers (supertest would serialise a Buffer sent
 * as JSON): for bodies that are not UTF-8 text or that carry a Content-Encoding.
 */
export function publishBytes(app: Express, account: TestAccount, bytes: Buffer, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: { id?: string; message?: string } }>((resolve, reject) => {
    const server = createServer(app as RequestListener).listen(0, '127.0.0.1', () => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: (server.address() as AddressInfo).port,
          method: 'POST',
          path: '/observation-sets',
          headers: { Authorization: account.auth, 'Content-Type': 'application/json', 'Content-Length': String(bytes.length), ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            server.close(() => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) })),
          );
        },
      );
      req.on('error', reject);
      req.end(bytes);
    });
  });
}

export function list(app: Express, account: TestAccount, query: Record<string, string> = {}) {
  return request(app).get('/observation-sets').query(query).set('Authorization', account.auth);
}

export function readBack(app: Express, account: TestAccount, id: string) {
  return request(app).get(`/observation-sets/${id}`).set('Authorization', account.auth);
}
