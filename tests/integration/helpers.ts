import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { KafkaTransport } from '@fieldcast/bus';
import { openDatabase } from '@fieldcast/db';
import { createLogger } from '@fieldcast/kit';
import { IdentityStore, migrateIdentity, startServices, type RunningFleet, type Service } from '@fieldcast/runtime';
import { basicAuthHeader } from '@fieldcast/runtime/testing';
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

/** Starts or stops the broker that .ci/run started (scripts/kafka.sh, same environment). */
export function broker(action: 'start' | 'stop'): void {
  execFileSync('bash', [join(process.cwd(), 'scripts/kafka.sh'), action], { stdio: 'inherit' });
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
