import { useTestFleet } from '@fieldcast/runtime/testing';
import { archiveService } from '../src/definition.js';
import { get, LOOPBACK, NOW, register, STORM_DAY, STORM_POINT } from './archive-client.js';

// The tests' requests come from the loopback: here it is a trusted reverse proxy (FIELDCAST_TRUSTED_PROXIES).
const t = useTestFleet([archiveService], { now: () => NOW, trustedProxies: LOOPBACK });
const path = `/v2/hailsize/summary/${STORM_POINT}/${STORM_DAY}`;

describe('X-Forwarded-For from a trusted proxy (docs/interface.md §11)', () => {
  it('names the caller when the proxy is trusted', async () => {
    const remote = await register(t, 'remote', ['203.0.113.0/24']);
    expect((await get(t, path, remote).set('X-Forwarded-For', '203.0.113.9')).status).toBe(200);
    // the proxy's own address is not the caller's
    expect((await get(t, path, remote)).status).toBe(401);
    expect((await get(t, path, remote).set('X-Forwarded-For', '198.51.100.1')).status).toBe(401);
    // a client cannot slip an address in front of the one the proxy appended
    expect((await get(t, path, remote).set('X-Forwarded-For', '203.0.113.9, 198.51.100.1')).status).toBe(401);
    expect((await get(t, path, remote).set('X-Forwarded-For', 'garbage')).status).toBe(401);
  });

  it('takes an entry with a port, as Azure Application Gateway sends it; an empty header is as if none were sent', async () => {
    const remote = await register(t, 'ported', ['203.0.113.0/24', '2001:db8::/32']);
    expect((await get(t, path, remote).set('X-Forwarded-For', '203.0.113.9:5555')).status).toBe(200);
    expect((await get(t, path, remote).set('X-Forwarded-For', '[2001:db8::1]:443')).status).toBe(200);
    expect((await get(t, path, remote).set('X-Forwarded-For', '198.51.100.1:5555')).status).toBe(401);
    // the caller is then the proxy (the loopback), which this user is not registered for
    expect((await get(t, path, remote).set('X-Forwarded-For', '')).status).toBe(401);
    const proxied = await register(t, 'proxy-itself', ['127.0.0.1/32', '::1/128']);
    expect((await get(t, path, proxied).set('X-Forwarded-For', '')).status).toBe(200);
  });
});
