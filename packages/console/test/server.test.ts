import { connect } from 'node:net';
import { request } from 'node:http';
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

/** One GET or HEAD to the console at 127.0.0.1, whatever Host the test names (a rebinding page's browser sends its own name). */
function requestWithHost(
  url: string,
  path: string,
  host: string,
  method = 'GET',
): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers: { Host: host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

// DNS rebinding: a page at http://evil.example:<port> whose name then resolves to 127.0.0.1 reads
// the console from the viewer's browser, with Host evil.example:<port>. The console answers only
// the names it is reached at (RFC 9110 section 7.2 Host; 15.5.20 421 Misdirected Request).
describe('the console server and the Host header', () => {
  const config = {
    areas: { agriculture: 'http://127.0.0.1:9' },
    demo: { applicationId: 'demo-app', applicationKey: 'demo-secret-key' },
    archive: { user: 'demo-archive', token: 'demo-archive-token' },
  };
  let running: RunningConsole;
  let port: string;
  beforeAll(async () => {
    running = await startConsole({ port: 0, host: '127.0.0.1', config });
    port = new URL(running.url).port;
  }, 60_000);
  afterAll(() => running.stop());

  it('refuses /config.json and the page to a name it is not reached at, with 421 and no key', async () => {
    for (const path of ['/config.json', '/', '/console.js', '/nothing-here']) {
      for (const host of [`evil.example:${port}`, 'evil.example', `localhost.evil.example:${port}`, `127.0.0.1.nip.io:${port}`]) {
        const res = await requestWithHost(running.url, path, host);
        expect([path, host, res.status, res.type]).toEqual([path, host, 421, 'text/plain']);
        expect(res.body).not.toContain('demo-secret-key');
        expect(res.body).not.toContain('demo-archive-token');
      }
    }
    expect((await requestWithHost(running.url, '/config.json', 'evil.example', 'HEAD')).status).toBe(421);
  });

  it('answers the loopback names at its own port, and no other port', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LocalHost:${port}`]) {
      const res = await requestWithHost(running.url, '/config.json', host);
      expect([host, res.status]).toEqual([host, 200]);
      expect(JSON.parse(res.body)).toEqual(config);
    }
    for (const host of ['localhost', '127.0.0.1', `localhost:${Number(port) + 1}`, `[::2]:${port}`, `localhost.:${port}`]) {
      expect([host, (await requestWithHost(running.url, '/config.json', host)).status]).toEqual([host, 421]);
    }
  });

  // `fieldcast serve console` holds no credentials: behind an ingress it is reached at any name.
  it('answers any Host when its config holds no credentials', async () => {
    const open = await startConsole({ port: 0, host: '127.0.0.1', config: { ...config, demo: null, archive: null } });
    try {
      for (const host of ['console.example.com', 'console.internal:8088', '10.1.2.3:8080']) {
        const res = await requestWithHost(open.url, '/config.json', host);
        expect([host, res.status]).toEqual([host, 200]);
      }
    } finally {
      await open.stop();
    }
  });

  it('refuses a request with no Host, or a malformed one', async () => {
    const noHost = await rawRequest(running.url, 'GET /config.json HTTP/1.0\r\n\r\n');
    expect(noHost).toMatch(/^HTTP\/1\.1 421 /);
    expect(noHost).not.toContain('demo-secret-key');
    for (const host of [`localhost:${port}@evil.example`, `evil.example/localhost:${port}`, `localhost:${port}x`]) {
      expect([host, (await requestWithHost(running.url, '/config.json', host)).status]).toEqual([host, 421]);
    }
  });

  // RFC 9112 section 3.2.2: with an absolute-form target the target's authority, not Host, names the server.
  it('judges an absolute-form target by its authority', async () => {
    const foreign = await rawRequest(
      running.url,
      `GET http://evil.example/config.json HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\n\r\n`,
    );
    expect(foreign).toMatch(/^HTTP\/1\.1 421 /);
    const own = await rawRequest(
      running.url,
      `GET http://localhost:${port}/config.json HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
    );
    expect(own).toMatch(/^HTTP\/1\.1 200 /);
  });

  // A kubelet probes with the pod's IP as Host; the probes hold nothing a rebinding page could use.
  it('answers /healthz and /readyz whatever the Host', async () => {
    for (const path of ['/healthz', '/readyz']) {
      for (const host of ['10.1.2.3:8080', 'evil.example']) {
        expect([path, host, (await requestWithHost(running.url, path, host)).status]).toEqual([path, host, 200]);
      }
    }
  });
});
