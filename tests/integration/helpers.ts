import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KafkaTransport } from '@fieldcast/bus';
import { openDatabase } from '@fieldcast/db';
import { createLogger } from '@fieldcast/kit';
import { IdentityStore, migrateIdentity, startServices, type RunningFleet, type Service } from '@fieldcast/runtime';
import { basicAuthHeader, eventually, reservePort } from '@fieldcast/runtime/testing';
import { createCatalog, SyntheticSource } from '@fieldcast/weather';

export function requireEnv(): { url: string; brokers: string[] } {
  const url = process.env.DATABASE_URL;
  const brokers = process.env.KAFKA_BROKERS;
  if (!url || !brokers) throw new Error('integration tests need DATABASE_URL and KAFKA_BROKERS');
  return { url, brokers: brokers.split(',') };
}

/** One service as its own distributed deployment: own pool, own Kafka client, port chosen by the OS. */
export async function deploy(definition: Service): Promise<RunningFleet & { url: string }> {
  const { url, brokers } = requireEnv();
  const fleet = await startServices([{ definition, port: 0 }], {
    db: await openDatabase({ url }),
    transport: new KafkaTransport({ brokers, clientId: `it-${definition.area}`, topicRefreshMs: 1000 }),
    logger: createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    weather: new SyntheticSource(),
    catalog: createCatalog(),
    vendor: 'fieldcast',
    bodyLimit: '1mb',
    host: '127.0.0.1',
    shutdownTimeoutMs: 2000,
  });
  return Object.assign(fleet, { url: fleet.services[0]!.url });
}

export async function newAccount(name: string): Promise<{ id: string; auth: string }> {
  const db = await openDatabase({ url: requireEnv().url });
  try {
    await migrateIdentity(db);
    const handle = `${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const { account, applicationKey } = await new IdentityStore(db.knex).createAccount({ name, handle });
    return { id: account.id, auth: basicAuthHeader(account.id, applicationKey) };
  } finally {
    await db.close();
  }
}

/**
 * Starts or stops the broker that .ci/run started (scripts/kafka.sh, same environment), without
 * blocking this process: requests and timers of the test go on meanwhile.
 */
export async function broker(action: 'start' | 'stop'): Promise<void> {
  const { stdout } = await promisify(execFile)('bash', [join(process.cwd(), 'scripts/kafka.sh'), action]);
  process.stdout.write(stdout);
}

/** `fieldcast serve <area>` as an operator runs it: a process configured only by its environment. */
export interface ServedArea {
  child: ChildProcess;
  url: string;
  /** resolves with the exit code (null when killed by a signal) */
  exited: Promise<number | null>;
}

/** Starts `fieldcast serve <area>` from the sources on the integration suite's database and broker; `ready` waits for /readyz 200. */
export async function serveArea(area: string, options: { ready?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<ServedArea> {
  const { url: databaseUrl, brokers } = requireEnv();
  const port = reservePort();
  // node itself with tsx's loader, not the tsx command: that is a parent process, and a kill -9
  // of it would leave the server running.
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/fleet/src/cli.ts', 'serve', area], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: brokers.join(','),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const served = { child, url: `http://127.0.0.1:${port}`, exited };
  if (options.ready ?? true) {
    await eventually(async () => expect((await fetch(`${served.url}/readyz`)).status).toBe(200), 60_000, 250);
  }
  return served;
}

export const fieldBody = (description: string) => ({
  description,
  type: 'GeometryCollection',
  geometries: [
    {
      type: 'Polygon',
      coordinates: [
        [
          [8, 47],
          [8.01, 47],
          [8.01, 47.01],
          [8, 47.01],
          [8, 47],
        ],
      ],
    },
  ],
});
