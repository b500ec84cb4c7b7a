import { type Account, createLogger, type HttpDeps, type Identity } from '../src/index.js';

/** What a test service app is given: the identity it checks, a silent logger and the defaults, with `more` over them. */
export function testDeps(identity: Identity, more: Partial<HttpDeps> = {}): HttpDeps {
  return {
    identity,
    logger: createLogger({ level: 'silent' }),
    vendor: 'fieldcast',
    bodyLimit: '1mb',
    now: () => new Date(),
    ready: async () => ({}),
    ...more,
  };
}

/** One account with one key, `k`: the identity of the tests that probe the service app's HTTP handling. */
const PROBE: Account = { id: '3b0f8c1e-2d4a-4c6b-8e9f-0a1b2c3d4e5f', name: 'Probe', handle: 'probe' };
export const probeIdentity: Identity = {
  cachedAccount: () => undefined,
  authenticate: async (id, key) => (id === PROBE.id && key === 'k' ? PROBE : null),
  findAccount: async (ref) => (ref === PROBE.id ? PROBE : null),
};
/** Its Authorization field. */
export const probeAuth = `Basic ${Buffer.from(`${PROBE.id}:k`).toString('base64')}`;
