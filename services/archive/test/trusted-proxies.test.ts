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
});
