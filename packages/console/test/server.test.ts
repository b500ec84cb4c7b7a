import { connect } from 'node:net';
import { startConsole, type RunningConsole } from '../src/index.js';

/** Writes one raw HTTP/1.1 request and reads the whole answer (the server closes the connection). */
function rawRequest(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('the console server and hostile request targets', () => {
  let running: RunningConsole;
  beforeAll(async () => {
    running = await startConsole({ port: 0, host: '127.0.0.1', config: { areas: {}, demo: null, archive: null } });
  }, 60_000);
  afterAll(() => running.stop());

  // RFC 9112 section 3.2.2: a request target may be in absolute form; one that is no URL is the
  // client's fault, answered 400, and the process (which holds every area in embedded mode) serves on.
  it('answers an absolute-form target that is no URL with 400, then serves the next request', async () => {
    const answer = await rawRequest(running.url, 'GET http://[ HTTP/1.1\r\nHost: console\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/X-Content-Type-Options: nosniff/i);
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
  });

  it('says nosniff on every answer, refusals too', async () => {
    for (const [path, method] of [
      ['/nothing-here', 'GET'],
      ['/', 'POST'],
      ['/healthz', 'GET'],
    ] as const) {
      const res = await fetch(`${running.url}${path}`, { method });
      expect([path, res.headers.get('x-content-type-options')]).toEqual([path, 'nosniff']);
    }
  });

  it('serves a well-formed absolute-form target by its path', async () => {
    const answer = await rawRequest(running.url, 'GET http://console/healthz HTTP/1.1\r\nHost: console\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});
