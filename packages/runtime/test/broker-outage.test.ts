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

describe('a service started while the broker is down', () => {
  it('serves at once, and makes its topics and joins its consumer group when the broker comes', async () => {
    const db = await openTestDatabase();
    const transport = new InProcessTransport();
    transport.down = true;
    await migrateIdentity(db);
    const logger = createLogger({ level: 'silent' });
    const service = await prepareService(
      relay,
      { db, transport, logger, vendor: 'fieldcast', bodyLimit: '1mb', background: false },
      new IdentityStore(db.knex, verifySecret),
    );
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
    }
  }, 30_000);
});
