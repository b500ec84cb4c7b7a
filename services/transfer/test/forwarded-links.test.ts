import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { countingSource, PRODUCT, TestClock, testCatalog, testTransferService } from './helpers.js';

// The tests' requests come from the loopback; here it is a trusted reverse proxy
// (FIELDCAST_TRUSTED_PROXIES), as an ingress terminating TLS is. That a caller that is none is not
// believed: downloads.test.ts, whose fleet trusts no proxy.
const LOOPBACK = ['127.0.0.0/8', '::1/128'];
const clock = new TestClock(Date.UTC(2026, 5, 10, 12, 30));
const { source } = countingSource(clock);
const options = { weather: source, now: clock.now, catalog: testCatalog() };
const behindProxy = useTestFleet([testTransferService()], { ...options, trustedProxies: LOOPBACK });

const FORWARDED = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'transfer.fieldcast.example' };

async function downloadUrl(ctx: typeof behindProxy, headers: Record<string, string>): Promise<URL> {
  const res = await request(ctx.fleet.app('transfer'))
    .get(`/products/${PRODUCT.tmax}/datasets?date=2024-06-01`)
    .set({ Authorization: ctx.alice.auth, ...headers });
  expect(res.status).toBe(200);
  return new URL((res.body as { downloadUrl: string }[])[0]!.downloadUrl);
}

describe('download links behind a reverse proxy (docs/interface.md §9: absolute URLs)', () => {
  it("take the scheme and host a trusted proxy forwards, so a TLS ingress's clients get https links to its name", async () => {
    const url = await downloadUrl(behindProxy, FORWARDED);
    expect(url.origin).toBe('https://transfer.fieldcast.example');
    // The first of a proxy chain's values is the one the client used.
    const chained = await downloadUrl(behindProxy, { 'X-Forwarded-Proto': 'https, http', 'X-Forwarded-Host': 'a.example, b.internal' });
    expect(chained.origin).toBe('https://a.example');
    // The link works at the service, whichever name it was given under.
    const file = await request(behindProxy.fleet.app('transfer')).get(`${url.pathname}${url.search}`);
    expect(file.status).toBe(200);
  });
});

describe('a host that is no host and port (RFC 9112 §3.2: 400 to a Host of an invalid value)', () => {
  it.each([
    ['Host', 'a@b.example'],
    ['Host', 'bad host'],
    ['X-Forwarded-Host', 'x.example/other?q='],
    ['X-Forwarded-Host', 'x.example#frag'],
  ])('is 400 invalid_host naming %s %j, and signs no link to another address', async (header, value) => {
    const res = await request(behindProxy.fleet.app('transfer'))
      .get(`/products/${PRODUCT.tmax}/datasets?date=2024-06-01`)
      .set({ Authorization: behindProxy.alice.auth, [header]: value });
    expect([res.status, res.body.id, res.body.errors?.[0]?.path]).toEqual([400, 'invalid_host', header]);
    expect(JSON.stringify(res.body)).not.toContain('signature=');
  });

  it('takes a name, an IPv4 or a bracketed IPv6 address, each with a port', async () => {
    for (const host of ['transfer.example:8443', '192.0.2.7:9207', '[2001:db8::7]:9207', 'xn--bcher-kva.example']) {
      const url = await downloadUrl(behindProxy, { 'X-Forwarded-Host': host });
      expect(url.host).toBe(host);
    }
  });
});
