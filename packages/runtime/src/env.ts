import { join } from 'node:path';
import { AddressRangeError, parseRange } from '@fieldcast/kit';
import { isSourceName, type SourceName, SOURCES } from '@fieldcast/sync';
import { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses environment variables once, at start-up; a bad or missing one stops start-up naming it. */
export function parseEnv<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
}

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** A location ZarrSource opens: a directory path or an http(s) URL (a file: URL is taken as its path). */
function isStoreLocation(s: string): boolean {
  if (/^(https?|file):/i.test(s)) return URL.canParse(s);
  // Any other scheme (s3://, gs://) is not one ZarrSource reads.
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(s);
}

/**
 * A Kafka bootstrap address as kafkajs takes it: a host name, an IPv4 address or a bracketed IPv6
 * address (RFC 3986 §3.2.2), a colon and a port 1 to 65535. Anything else would be retried as a
 * broker that is down, for as long as the process runs.
 */
function isBrokerAddress(s: string): boolean {
  const m = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?):(\d{1,5})$/.exec(s);
  return m !== null && Number(m[1]) >= 1 && Number(m[1]) <= 65_535;
}

/** A comma-separated list, each entry trimmed, blank ones dropped; unset or blank: undefined. */
const commaList = optionalString.transform((v) =>
  v
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/** Zarr stores to serve weather from (docs/architecture.md §2), comma-separated; opened at start, not here. */
const storeList = commaList.refine((list) => !list || list.every(isStoreLocation), {
  message: 'must be comma-separated Zarr store paths or http(s) URLs',
});

/** Addresses or CIDR ranges, comma-separated, each read as the kit reads every range; none when unset. */
const addressRanges = optionalString.transform((v, ctx) => {
  const entries = (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    try {
      parseRange(entry);
    } catch (err) {
      if (!(err instanceof AddressRangeError)) throw err;
      ctx.addIssue({ code: 'custom', message: err.message });
    }
  }
  return entries;
});

/** Every variable the fleet reads (docs/operations.md "Environment"). */
export const FleetEnv = z.object({
  PORT_BASE: z.coerce.number().int().min(1).max(65000).default(8080),
  PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /**
   * where `serve <area>` and `serve sync` answer /metrics, on a listener of its own, and no longer
   * on PORT (docs/decisions/0449-metrics-on-a-port-of-their-own.md); unset: on PORT with the API
   */
  FIELDCAST_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // Unset: the mode decides (hosts.ts): 127.0.0.1 for the embedded fleet, 0.0.0.0 for serve.
  HOST: optionalString,
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional()),
  KAFKA_BROKERS: commaList.refine((list) => !list || list.every(isBrokerAddress), {
    message: 'must be comma-separated broker addresses host:port, such as kafka:9092',
  }),
  KAFKA_CLIENT_ID: z.string().default('fieldcast'),
  FIELDCAST_VENDOR: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]*$/, 'must be a media type vendor token such as fieldcast')
    .default('fieldcast'),
  FIELDCAST_DATA_DIR: z.string().default('.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // the sizes body-parser's `limit` reads (the `bytes` package), checked here so a bad one stops start-up naming it
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(\.\d+)? *[kmg]b$|^\d+b?$/i, 'must be a size such as 1mb, 512kb or 1048576 (bytes)')
    .default('1mb'),
  // Limits per account (docs/operations.md "Limits", docs/decisions/0060-limits-per-account.md); 0 turns a rate or a cap off.
  RATE_LIMIT_PER_SECOND: z.coerce.number().min(0).default(100),
  RATE_LIMIT_BURST: z.coerce.number().int().min(1).default(1_000),
  HEAVY_REQUESTS_PER_ACCOUNT: z.coerce.number().int().min(0).default(16),
  // heavy requests that wait for a slot, and for how long (docs/decisions/0511-heavy-requests-wait-their-turn.md); 0 waiting: none wait
  HEAVY_QUEUED_PER_ACCOUNT: z.coerce.number().int().min(0).default(160),
  HEAVY_QUEUE_WAIT_SECONDS: z.coerce.number().positive().max(3_600).default(30),
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().min(0).default(60),
  AUTH_FAILURE_BURST: z.coerce.number().int().min(1).default(100),
  MAX_RESOURCES_PER_KIND: z.coerce.number().int().min(1).default(10_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  FIELDCAST_WEATHER_STORES: storeList,
  /** a YAML file that patches, adds or removes catalog entries (docs/operations.md "Environment"); unset: the code's catalog */
  FIELDCAST_CATALOG: optionalString,
  /** addresses or CIDR ranges of reverse proxies whose X-Forwarded-For is believed (docs/operations.md "Environment"), comma-separated */
  FIELDCAST_TRUSTED_PROXIES: addressRanges,
  /**
   * addresses or CIDR ranges in the private, loopback and link-local ranges that webhook
   * deliveries may reach (docs/decisions/0261-webhook-address-guard.md), comma-separated, read
   * as the kit reads every range; unset: none
   */
  FIELDCAST_WEBHOOK_ALLOW_PRIVATE: addressRanges,
  /** the key download links are signed with; unset: a random key kept in the data dir (runtime files.ts) */
  FIELDCAST_SIGNING_KEY: optionalString.refine((v) => v === undefined || v.length >= 32, { message: 'must be at least 32 characters' }),
  /** the most a service keeps in its file cache under the data dir, MiB */
  FIELDCAST_FILE_CACHE_MB: z.coerce.number().int().min(1).default(2048),
  /** worker threads for heavy computation per service (docs/operations.md "Limits"); 0 computes on the event loop */
  FIELDCAST_COMPUTE_THREADS: z.coerce.number().int().min(0).max(256).optional(),
  /** base URLs of the upstream archives `fieldcast sync` reads (docs/decisions/0230-sync-sources-and-variables.md); unset: the public archive */
  FIELDCAST_SOURCE_GFS_0P25_URL: optionalString,
  FIELDCAST_SOURCE_ECMWF_IFS_0P25_URL: optionalString,
  /** sources `fieldcast start` and `fieldcast serve sync` keep synced, comma-separated; unset: none, nothing is fetched */
  FIELDCAST_SYNC_SOURCES: commaList
    .transform((list) => list ?? [])
    .refine((list): list is SourceName[] => list.every(isSourceName), {
      message: `must be comma-separated source names: ${Object.keys(SOURCES).join(', ')}`,
    }),
  /** where synced stores and their registries live (docs/decisions/0251-synced-stores-registry.md); unset: <FIELDCAST_DATA_DIR>/sync */
  FIELDCAST_SYNC_DIR: optionalString,
  /** forecast runs kept per source, and days of analysis kept (docs/decisions/0250-synced-runs-staged-then-published.md) */
  FIELDCAST_SYNC_KEEP_RUNS: z.coerce.number().int().min(1).default(8),
  FIELDCAST_SYNC_KEEP_DAYS: z.coerce.number().int().min(1).default(400),
  /** how often the sync poller looks for new steps, and serving processes for a changed registry, ms */
  FIELDCAST_SYNC_POLL_MS: z.coerce.number().int().min(1000).default(300_000),
  FIELDCAST_SYNC_RELOAD_MS: z.coerce.number().int().min(100).default(15_000),
  /** wait before a failed step is tried again, ms */
  FIELDCAST_SYNC_RETRY_MS: z.coerce.number().int().min(0).default(30_000),
  /** off: only stored (synced, ingested) weather is served, the synthetic models are not listed (docs/decisions/0256-synthetic-off.md) */
  FIELDCAST_SYNTHETIC: z
    .enum(['on', 'off'], { error: 'must be on or off' })
    .default('on')
    .transform((v) => v === 'on'),
  /**
   * whether services' clock-driven work (frame announcements, forecast events) runs in this
   * process (docs/decisions/0180-background-tasks.md); off for a replica that only answers requests
   */
  FIELDCAST_BACKGROUND: z
    .enum(['on', 'off'], { error: 'must be on or off' })
    .default('on')
    .transform((v) => v === 'on'),
});
export type FleetEnv = z.infer<typeof FleetEnv>;

/** Where synced stores live: FIELDCAST_SYNC_DIR, else the data dir's `sync` (docs/decisions/0251-synced-stores-registry.md). */
export function syncDirFromEnv(env: Pick<FleetEnv, 'FIELDCAST_SYNC_DIR' | 'FIELDCAST_DATA_DIR'>): string {
  return env.FIELDCAST_SYNC_DIR ?? join(env.FIELDCAST_DATA_DIR, 'sync');
}

/** Where services keep their files (runtime files.ts), as the environment sets it. */
export function filesFromEnv(env: FleetEnv): { dataDir: string; cacheBytes: number; signingKey?: string } {
  return {
    dataDir: env.FIELDCAST_DATA_DIR,
    cacheBytes: env.FIELDCAST_FILE_CACHE_MB * 1024 * 1024,
    ...(env.FIELDCAST_SIGNING_KEY ? { signingKey: env.FIELDCAST_SIGNING_KEY } : {}),
  };
}
