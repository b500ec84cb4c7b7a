import type { Limits } from '@fieldcast/kit';
import type { FleetEnv } from './env.js';

/** The limits per account the environment sets (docs/operations.md "Limits"); the kit's defaults match the variables' defaults. */
export function limitsFromEnv(env: FleetEnv): Partial<Limits> {
  return {
    requests: { perSecond: env.RATE_LIMIT_PER_SECOND, burst: env.RATE_LIMIT_BURST },
    heavyPerAccount: env.HEAVY_REQUESTS_PER_ACCOUNT,
    heavyQueuedPerAccount: env.HEAVY_QUEUED_PER_ACCOUNT,
    heavyWaitMs: env.HEAVY_QUEUE_WAIT_SECONDS * 1000,
    failedAuth: { perSecond: env.AUTH_FAILURES_PER_MINUTE / 60, burst: env.AUTH_FAILURE_BURST },
    ownedPerKind: env.MAX_RESOURCES_PER_KIND,
  };
}
