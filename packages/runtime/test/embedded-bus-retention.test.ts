import { InProcessTransport, resourceEvent, type IncomingMessage } from '@fieldcast/bus';
import { Api, createLogger } from '@fieldcast/kit';
import { defineService } from '../src/needs.js';
import { startServices } from '../src/services.js';
import { eventually, openTestDatabase } from '../src/testing.js';

/*
 * The embedded fleet's bus drops what every consumer group has consumed, but only once every group
 * of the process has subscribed (docs/decisions/0500-embedded-bus-keeps-what-is-unread.md): at start
 * an outbox publishes what was written while the fleet was stopped before a later area's groups join.
 */
const TOPIC = 'fieldcast.writer.things';
const received = new Map<string, string[]>();
const reader = (area: string, port: number) =>
  defineService({
    area,
    port,
    title: area,
    description: 'consumes the writer’s events',
    needs: {},
    consumers: () => [
      {
        group: area,
        topics: /^fieldcast\.writer\./,
        handle: async (message: IncomingMessage) => {
          received.set(area, [...(received.get(area) ?? []), (JSON.parse(message.value) as { subject: string }).subject]);
        },
      },
    ],
    api: () => new Api(),
  });

it('a group that joins after another has consumed a message published at start still gets it; then it is dropped', async () => {
  const bus = new InProcessTransport();
  const subject = '5b1f6c2e-8d3a-4e7f-9a0b-1c2d3e4f5a6b';
  const event = resourceEvent({ area: 'writer', resource: 'thing', action: 'created', subject, data: { account: null, resource: {} } });
  await bus.publish([{ topic: TOPIC, key: subject, event }]);
  const db = await openTestDatabase();
  const fleet = await startServices(
    [
      { definition: reader('first', 1), port: 0 },
      { definition: reader('second', 2), port: 0 },
    ],
    {
      db,
      transport: bus,
      logger: createLogger({ level: 'silent' }),
      vendor: 'fieldcast',
      bodyLimit: '1mb',
      host: '127.0.0.1',
      shutdownTimeoutMs: 10_000,
    },
  );
  try {
    await eventually(() => expect(Object.fromEntries(received)).toEqual({ first: [subject], second: [subject] }));
    expect(bus.held(TOPIC)).toBe(0);
  } finally {
    await fleet.stop();
  }
});
