import { InProcessTransport, resourceEvent, type IncomingMessage } from '../src/index.js';

/*
 * The in-process bus holds what a consumer group can still read, as Kafka keeps committed offsets
 * and retains a log (docs/decisions/0500-embedded-bus-keeps-what-is-unread.md): what every group
 * has consumed is dropped, and offsets stay those of the whole log.
 */
const TOPIC = 't.things';
const PATTERN = /^t\./;

const publish = (bus: InProcessTransport, count: number, topic = TOPIC) =>
  bus.publish(
    Array.from({ length: count }, (_, i) => ({
      topic,
      key: `k${i}`,
      event: resourceEvent({ area: 't', resource: 'thing', action: 'created', subject: `s${i}`, data: { account: null, resource: {} } }),
    })),
  );

/** Subscribes a group that records the offsets it was handed and fails while `failing` says so. */
async function reader(bus: InProcessTransport, group: string, failing: () => boolean = () => false) {
  const offsets: string[] = [];
  let attempts = 0;
  const subscription = await bus.subscribe(group, PATTERN, async (m: IncomingMessage) => {
    attempts += 1;
    if (failing()) throw new Error('cannot take it now');
    offsets.push(m.offset);
  });
  return { offsets, attempts: () => attempts, stop: () => subscription.stop() };
}

async function until(check: () => boolean, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => String(from + i));

let bus: InProcessTransport;
beforeEach(() => {
  bus = new InProcessTransport();
});
afterEach(() => bus.close());

it('drops what every group has consumed, and its offsets stay those of the whole log', async () => {
  bus.startTrimming();
  const a = await reader(bus, 'a');
  await publish(bus, 3);
  await bus.settle();
  expect(bus.held(TOPIC)).toBe(0);
  // past the slice of the consumed part of the log: offsets go on from where they were
  await publish(bus, 2500);
  await bus.settle();
  await publish(bus, 2);
  await bus.settle();
  expect(bus.held(TOPIC)).toBe(0);
  expect(a.offsets).toEqual(range(0, 2505));
  expect(await bus.lag('a', PATTERN)).toEqual([{ topic: TOPIC, partition: 0, consumed: 2505, messages: 0 }]);
});

it('keeps a message one of two groups has not consumed, with its offset, until that group takes it', async () => {
  bus.startTrimming();
  let failing = true;
  const a = await reader(bus, 'a');
  const b = await reader(bus, 'b', () => failing);
  await publish(bus, 2);
  await until(() => a.offsets.length === 2 && b.attempts() > 0);
  expect(bus.held(TOPIC)).toBe(2);
  expect(await bus.lag('b', PATTERN)).toEqual([{ topic: TOPIC, partition: 0, consumed: 0, messages: 2 }]);
  failing = false;
  await bus.settle();
  expect(b.offsets).toEqual(['0', '1']);
  expect(bus.held(TOPIC)).toBe(0);
});

it('keeps the message a handler fails on and delivers it again', async () => {
  bus.startTrimming();
  let failing = true;
  const a = await reader(bus, 'a', () => failing);
  await publish(bus, 1);
  await until(() => a.attempts() >= 2);
  expect(bus.held(TOPIC)).toBe(1);
  failing = false;
  await bus.settle();
  expect(a.offsets).toEqual(['0']);
  expect(bus.held(TOPIC)).toBe(0);
});

it('keeps a group’s committed offsets when it stops: subscribed again, it resumes there', async () => {
  bus.startTrimming();
  const first = await reader(bus, 'a');
  await publish(bus, 2);
  await bus.settle();
  await first.stop();
  // the group is gone for now, not forgotten: what it has yet to read is kept for it
  await publish(bus, 3);
  expect(bus.held(TOPIC)).toBe(3);
  expect(await bus.lag('a', PATTERN)).toEqual([{ topic: TOPIC, partition: 0, consumed: 2, messages: 3 }]);
  const again = await reader(bus, 'a');
  await bus.settle();
  expect(again.offsets).toEqual(['2', '3', '4']);
  expect(bus.held(TOPIC)).toBe(0);
});

it('starts a group that never subscribed at the oldest message held', async () => {
  bus.startTrimming();
  const a = await reader(bus, 'a');
  await publish(bus, 3);
  await bus.settle();
  await a.stop();
  await publish(bus, 2);
  expect(await bus.lag('c', PATTERN)).toEqual([{ topic: TOPIC, partition: 0, consumed: 3, messages: 2 }]);
  const c = await reader(bus, 'c');
  await bus.settle();
  expect(c.offsets).toEqual(['3', '4']);
});

it('drops nothing before trimming starts, so a group that subscribes later reads from the first message', async () => {
  const a = await reader(bus, 'a');
  await publish(bus, 3);
  await publish(bus, 2, 'u.unread');
  await bus.settle();
  expect(a.offsets).toEqual(['0', '1', '2']);
  expect(bus.held(TOPIC)).toBe(3);
  const b = await reader(bus, 'b');
  await bus.settle();
  expect(b.offsets).toEqual(['0', '1', '2']);
  // once every group is known, what they have all consumed goes, and so does a topic none of them reads
  bus.startTrimming();
  expect(bus.held(TOPIC)).toBe(0);
  expect(bus.held('u.unread')).toBe(0);
  await publish(bus, 1, 'u.unread');
  expect(bus.held('u.unread')).toBe(0);
});

/*
 * What the bus holds ends with the process, so an outbox marks a row sent only once the bus says
 * every consumer group of the process reading its topic has consumed its message
 * (docs/decisions/0503-an-embedded-outbox-row-is-sent-once-consumed.md).
 */
describe('telling the publisher what every group has consumed', () => {
  /** Publishes `count` messages to the topic and records the indexes the bus says were consumed. */
  const publishTold = async (count: number, topic = TOPIC) => {
    const consumed: number[] = [];
    await bus.publish(
      Array.from({ length: count }, (_, i) => ({
        topic,
        key: `k${i}`,
        event: resourceEvent({ area: 't', resource: 'thing', action: 'created', subject: `s${i}`, data: { account: null, resource: {} } }),
      })),
      (index) => consumed.push(index),
    );
    return consumed;
  };

  it('tells it once every group reading the topic has committed the message, not while one still fails on it', async () => {
    bus.startTrimming();
    let failing = true;
    const a = await reader(bus, 'a');
    const b = await reader(bus, 'b', () => failing);
    const consumed = await publishTold(2);
    await until(() => a.offsets.length === 2 && b.attempts() >= 2);
    expect(consumed).toEqual([]);
    failing = false;
    await bus.settle();
    expect(consumed).toEqual([0, 1]);
  });

  it('tells it at once of a topic no group reads, but only once every group of the process has joined', async () => {
    bus.awaitGroups();
    const unread = await publishTold(1, 'u.unread');
    const a = await reader(bus, 'a');
    const read = await publishTold(1);
    await bus.settle();
    expect(a.offsets).toEqual(['0']);
    // a group still to join may read either topic: neither message is safe to forget yet
    expect([unread, read]).toEqual([[], []]);
    bus.startTrimming();
    expect([unread, read]).toEqual([[0], [0]]);
    expect(await publishTold(1, 'u.unread')).toEqual([0]);
  });

  it('does not tell it of a message a group that has stopped has yet to read', async () => {
    bus.startTrimming();
    const a = await reader(bus, 'a');
    await a.stop();
    const consumed = await publishTold(1);
    await bus.settle();
    expect(consumed).toEqual([]);
    const again = await reader(bus, 'a');
    await bus.settle();
    expect(again.offsets).toEqual(['0']);
    expect(consumed).toEqual([0]);
  });
});
