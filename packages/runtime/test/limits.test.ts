import { DEFAULT_LIMITS } from '@fieldcast/kit';
import { ConfigError, FleetEnv, parseEnv } from '../src/env.js';
import { limitsFromEnv } from '../src/limits.js';

describe('limits from the environment (docs/operations.md "Limits")', () => {
  it('without variables, the kit defaults: the limits are on', () => {
    const { clock: _clock, ...defaults } = DEFAULT_LIMITS;
    expect(limitsFromEnv(parseEnv(FleetEnv, {}))).toEqual(defaults);
  });

  it('each variable sets its limit; 0 turns a rate or the heavy cap off, and leaves no heavy request waiting', () => {
    const env = parseEnv(FleetEnv, {
      RATE_LIMIT_PER_SECOND: '0',
      RATE_LIMIT_BURST: '50',
      HEAVY_REQUESTS_PER_ACCOUNT: '2',
      HEAVY_QUEUED_PER_ACCOUNT: '0',
      HEAVY_QUEUE_WAIT_SECONDS: '5',
      AUTH_FAILURES_PER_MINUTE: '6',
      AUTH_FAILURE_BURST: '5',
      MAX_RESOURCES_PER_KIND: '20',
    });
    expect(limitsFromEnv(env)).toEqual({
      requests: { perSecond: 0, burst: 50 },
      heavyPerAccount: 2,
      heavyQueuedPerAccount: 0,
      heavyWaitMs: 5_000,
      failedAuth: { perSecond: 0.1, burst: 5 },
      ownedPerKind: 20,
    });
  });

  it('a bad value stops start-up naming the variable', () => {
    expect(() => parseEnv(FleetEnv, { RATE_LIMIT_BURST: '0' })).toThrow(ConfigError);
    expect(() => parseEnv(FleetEnv, { HEAVY_REQUESTS_PER_ACCOUNT: 'many' })).toThrow(/HEAVY_REQUESTS_PER_ACCOUNT/);
    expect(() => parseEnv(FleetEnv, { MAX_RESOURCES_PER_KIND: '-1' })).toThrow(/MAX_RESOURCES_PER_KIND/);
    expect(() => parseEnv(FleetEnv, { HEAVY_QUEUED_PER_ACCOUNT: '-1' })).toThrow(/HEAVY_QUEUED_PER_ACCOUNT/);
    // A wait of no time would be a queue that refuses everyone in it: HEAVY_QUEUED_PER_ACCOUNT=0 says that.
    expect(() => parseEnv(FleetEnv, { HEAVY_QUEUE_WAIT_SECONDS: '0' })).toThrow(/HEAVY_QUEUE_WAIT_SECONDS/);
  });
});
