import { once } from 'node:events';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { z } from 'zod';
import { createServiceApp, type ServiceDefinition } from '../src/index.js';
import { thingsApi } from './things.js';
import { probeAuth as auth, probeIdentity as identity, testDeps } from './deps.js';

const FILE = Buffer.alloc(5000, 'a');

const things: ServiceDefinition = {
  area: 'things',
  title: 'Things',
  description: 'a service for testing the header fields of HEAD',
  needs: {},
  api: () =>
    thingsApi().op({
      method: 'get',
      path: '/files/{name}',
      summary: 'a file, its bytes as they are stored',
      params: z.object({ name: z.string() }),
      produces: ['text/plain'],
      response: { status: 200, description: 'a file', mediaType: 'text/plain' },
      handle: ({ req, res }) => {
        res.setHeader('Cache-Control', 'private, no-transform');
        res.setHeader('Content-Type', 'text/plain');
        res.setHeader('Content-Length', String(FILE.length));
        if (req.method === 'HEAD') res.end();
        else res.end(FILE);
      },
    }),
};

const app = createServiceApp(things, testDeps(identity));

/** The header fields that describe the representation and its variants, as a GET or HEAD answers them. */
async function fieldsOf(method: 'get' | 'head', path: string, acceptEncoding: string) {
  const res = await request(app)[method](path).set('Authorization', auth).set('Accept-Encoding', acceptEncoding);
  const { status, headers } = res;
  return {
    status,
    'content-type': headers['content-type'],
    'content-encoding': headers['content-encoding'],
    vary: headers.vary,
    // RFC 9110 section 9.3.2: a HEAD may leave out Content-Length, never send another one than GET's.
    'content-length': headers['content-length'],
  };
}

describe('HEAD answers the header fields GET answers for the same request (RFC 9110 section 9.3.2)', () => {
  it.each([
    ['a JSON list to a client taking gzip', '/things', 'gzip'],
    ['a JSON list to a client taking br or gzip', '/things', 'br, gzip'],
    ['a JSON list to a client taking no coding', '/things', 'identity'],
    ['a JSON list below the compression threshold', '/few-things', 'gzip'],
    ['a PNG tile, never compressed', '/tiles/3.png', 'gzip'],
    ['a file marked no-transform', '/files/a.txt', 'gzip'],
  ])('%s', async (_what, path, acceptEncoding) => {
    const get = await fieldsOf('get', path, acceptEncoding);
    const head = await fieldsOf('head', path, acceptEncoding);
    expect(get.status).toBe(200);
    if (head['content-length'] === undefined) delete (get as Partial<typeof get>)['content-length'];
    expect(head).toEqual(get);
  });

  it('a compressed JSON list: HEAD names gzip and Vary: Accept-Encoding, and no identity Content-Length', async () => {
    const head = await fieldsOf('head', '/things', 'gzip');
    expect(head['content-encoding']).toBe('gzip');
    expect(head.vary?.split(/,\s*/)).toEqual(expect.arrayContaining(['Accept', 'Accept-Encoding']));
    expect(head['content-length']).toBeUndefined();
  });

  it('a file keeps its Content-Length for HEAD, its size', async () => {
    const head = await fieldsOf('head', '/files/a.txt', 'gzip');
    expect([head['content-encoding'], head['content-length']]).toEqual([undefined, String(FILE.length)]);
  });

  it('a compressed HEAD writes no bytes after its header fields: the next answer on the connection is whole', async () => {
    const server = app.listen(0);
    try {
      await once(server, 'listening');
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      const asks = (method: string) => `${method} /things HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nAccept-Encoding: gzip\r\n\r\n`;
      socket.write(asks('HEAD') + asks('GET').replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'));
      const chunks: Buffer[] = [];
      for await (const chunk of socket) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('latin1');
      const second = text.indexOf('\r\n\r\n') + 4;
      expect(text.slice(0, 15)).toBe('HTTP/1.1 200 OK');
      expect(text.slice(second, second + 15)).toBe('HTTP/1.1 200 OK');
    } finally {
      server.close();
    }
  });
});
