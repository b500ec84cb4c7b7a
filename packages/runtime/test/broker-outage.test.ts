import request from 'supertest';
import { InProcessTransport, resourceEvent, type IncomingMessage } from '@fieldcast/bus';
import { Api, createLogger } from '@fieldcast/kit';
import { z } from 'zod';
import { defineService } from '../src/needs.js';
import { IdentityStore, migrateIdentity, verifySecret } from '../src/identity.js';
import { prepareService } from '../src/services.js';
import { eventually, openTestDatabase } from '../src/testing.js';

/**
 * A service starts, serves and takes changes while the broker is unreachable (a pod rescheduled
 * during an outage must not crash-loop); its topics are made and its consumers join once the
 * broker answers (docs/architecture.md §5).
 */
const received: IncomingMessage[] = [];
const TOPIC = 'fieldcast.relay.things';

const relay = defineService({
  area: 'relay',
  port: 1,
  title: 'Relay',
  description: 'publishes and consumes',
  needs: { database: { migrations: [] }, outbox: { topics: [TOPIC] } },
  api: () =>
    new Api().op({
      method: 'get',
      path: '/ping',
      summary: 'answers',
      auth: false,
      response: { status: 200, description: 'pong', schema: z.literal('pong') },
      handle: () => 'pong' as const,
    }),
  consumers: () => [{ group: 'relay', topics: /^fieldcast\.relay\./, handle: async (m) => void received.push(m) }],
});

/** The relay service prepared on the test database with an in-process broker that is down. */
async function startWithBrokerDown() {
  const db = await openTestDatabase();
  const transport = new InProcessTransport();
  transport.down = true;
  await migrateIdentity(db);
  const logger = createLogger({ level: 'silent' });
  const shared = { db, transport, logger, vendor: 'fieldcast', bodyLimit: '1mb', background: false };
  const service = await prepareService(relay, shared, new IdentityStore(db.knex, verifySecret));
  return { db, transport, service };
}

describe('a service started while the broker is down', () => {
  it('serves at once, and makes its topics and joins its consumer group when the broker comes', async () => {
    const { db, transport, service } = await startWithBrokerDown();
    try {
      expect((await request(service.app).get('/ping')).text).toBe('"pong"');
      expect((await request(service.app).get('/readyz')).body).toEqual({
        status: 'ready',
        checks: { database: true },
        reports: { transport: false },
      });
      transport.down = false;
      const subject = '0b6a1d3e-2f4c-4a5b-8c7d-9e0f1a2b3c4d';
      const event = resourceEvent({ area: 'relay', resource: 'thing', action: 'created', subject, data: { account: null, resource: {} } });
      // the retries back off from one second: the consumer has joined within a few
      await eventually(
        async () => {
          await transport.publish([{ topic: TOPIC, key: subject, event }]);
          expect(received.map((m) => m.topic)).toContain(TOPIC);
        },
        10_000,
        500,
      );
    } finally {
      await service.stop();
      await transport.close();
      await db.close();
    }
  }, 30_000);

  it('reports the pipeline in /metrics: the outbox backlog while the broker is away, the broker, failures, consumer lag', async () => {
    const { db, transport, service } = await startWithBrokerDown();
    const figure = async (name: string) => {
      const text = (await request(service.app).get('/metrics')).text;
      return text
        .split('\n')
        .filter((l) => l.startsWith(name))
        .map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]);
    };
    try {
      const subject = '1c7b2e4f-3a5d-4b6c-9d8e-0f1a2b3c4d5e';
      await db.knex.transaction((trx) =>
        service.deps.outbox!.add(trx, TOPIC, {
          area: 'relay',
          resource: 'thing',
          action: 'created',
          subject,
          data: { account: null, resource: {} },
        }),
      );
      expect(await figure('fieldcast_outbox_unsent_rows')).toEqual([['fieldcast_outbox_unsent_rows{service="relay"}', 1]]);
      expect(await figure('fieldcast_broker_connected')).toEqual([['fieldcast_broker_connected{service="relay"}', 0]]);
      const [[, waited]] = (await figure('fieldcast_outbox_oldest_unsent_seconds')) as [[string, number]];
      expect(waited).toBeGreaterThanOrEqual(0);
      await eventually(
        async () => expect((await figure('fieldcast_outbox_publish_failures_total'))[0]![1]).toBeGreaterThan(0),
        10_000,
        100,
      );

      transport.down = false;
      await eventually(
        async () => {
          expect(await figure('fieldcast_outbox_unsent_rows')).toEqual([['fieldcast_outbox_unsent_rows{service="relay"}', 0]]);
          expect(await figure('fieldcast_broker_connected')).toEqual([['fieldcast_broker_connected{service="relay"}', 1]]);
          expect(await figure('fieldcast_consumer_lag_messages')).toEqual([
            [`fieldcast_consumer_lag_messages{group="relay",topic="${TOPIC}",partition="0",service="relay"}`, 0],
          ]);
        },
        15_000,
        250,
      );
    } finally {
      await service.stop();
      await transport.close();
      await db.close();
    }
  }, 30_000);
});
