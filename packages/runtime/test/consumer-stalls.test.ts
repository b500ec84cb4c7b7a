import { InProcessTransport, resourceEvent } from '@fieldcast/bus';
import type { Logger } from '@fieldcast/kit';
import { watchConsumerStalls } from '../src/consumer-stalls.js';
import { eventually } from '../src/testing.js';

/** A consumer group whose messages wait while it consumes none is logged once, and once when it moves again (decision 0280). */
it('logs a stall once with its group, not a broker outage, and its end', async () => {
  const transport = new InProcessTransport();
  const lines: { level: string; fields: Record<string, unknown> }[] = [];
  const logger = {
    warn: (fields: Record<string, unknown>) => lines.push({ level: 'warn', fields }),
    info: (fields: Record<string, unknown>) => lines.push({ level: 'info', fields }),
  } as unknown as Logger;
  let failing = true;
  const subscription = await transport.subscribe('stuck', /^fieldcast\.t\./, async () => {
    if (failing) throw new Error('the handler cannot store it');
  });
  const topics = [{ group: 'stuck', topics: /^fieldcast\.t\./, outcomes: new Map() }];
  const watch = watchConsumerStalls(transport, () => topics, logger, 50);
  try {
    const subject = '2d8c3f5a-4b6e-4c7d-8e9f-1a2b3c4d5e6f';
    const event = resourceEvent({ area: 't', resource: 'thing', action: 'created', subject, data: { account: null, resource: {} } });
    await transport.publish([{ topic: 'fieldcast.t.things', key: subject, event }]);
    await eventually(async () => expect(lines).toEqual([{ level: 'warn', fields: { group: 'stuck', waiting: 1 } }]), 5_000, 20);
    // still stuck, and the broker away for a while: nothing more is logged
    transport.down = true;
    await new Promise((r) => setTimeout(r, 200));
    transport.down = false;
    await new Promise((r) => setTimeout(r, 200));
    expect(lines).toHaveLength(1);
    failing = false;
    await eventually(
      async () =>
        expect(lines.map((l) => [l.level, l.fields.group])).toEqual([
          ['warn', 'stuck'],
          ['info', 'stuck'],
        ]),
      5_000,
      20,
    );
  } finally {
    await watch.stop();
    await subscription.stop();
    await transport.close();
  }
});

it('a group that keeps up, or has nothing waiting, is never logged', async () => {
  const transport = new InProcessTransport();
  const lines: unknown[] = [];
  const logger = { warn: (f: unknown) => lines.push(f), info: (f: unknown) => lines.push(f) } as unknown as Logger;
  const subscription = await transport.subscribe('keeps-up', /^fieldcast\.t\./, async () => undefined);
  const watch = watchConsumerStalls(transport, () => [{ group: 'keeps-up', topics: /^fieldcast\.t\./, outcomes: new Map() }], logger, 30);
  try {
    for (let i = 0; i < 10; i++) {
      const subject = `3e9d4a6b-5c7f-4d8e-9fa0-2b3c4d5e6f${String(i).padStart(2, '0')}`;
      const event = resourceEvent({ area: 't', resource: 'thing', action: 'created', subject, data: { account: null, resource: {} } });
      await transport.publish([{ topic: 'fieldcast.t.things', key: subject, event }]);
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 150));
    expect(lines).toEqual([]);
  } finally {
    await watch.stop();
    await subscription.stop();
    await transport.close();
  }
});
