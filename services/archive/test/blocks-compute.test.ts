import { blockDrawer } from '../src/blocks-compute.js';
import { computeBlock, eventDayNumber, SevereEventBlocks, type BlockKey, type DrawBlock } from '../src/domain/event-blocks.js';

/** Two blocks of the plains in June 2025, a stormy place and time (docs/decisions/0173-archive-severe-weather-density.md). */
const BOX = { south: 33, north: 42, west: -99, east: -97 };
const FIRST_DAY = eventDayNumber(Date.UTC(2025, 5, 10, 12));
const LAST_DAY = FIRST_DAY + 3;

/** A drawer that counts what it is asked to draw. */
function counted(draw: DrawBlock): { draw: DrawBlock; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    draw: (key: BlockKey) => {
      asked.push(`${key.kind}:${key.bi}:${key.bj}:${key.bk}`);
      return draw(key);
    },
  };
}

describe('event blocks drawn in compute threads (docs/decisions/0051-heavy-work-in-worker-threads.md)', () => {
  const threaded = blockDrawer(1);
  afterAll(() => threaded.close());

  it('a thread draws the same events as the event loop', async () => {
    for (const kind of ['hail', 'tornado', 'lightning'] as const) {
      const inline = await new SevereEventBlocks().read(kind, BOX, FIRST_DAY, LAST_DAY);
      const inThread = await new SevereEventBlocks(undefined, threaded.draw).read(kind, BOX, FIRST_DAY, LAST_DAY);
      expect(inThread).toEqual(inline);
      if (kind !== 'tornado') expect(inline.length).toBeGreaterThan(0);
    }
    const key = { kind: 'gust' as const, bi: 15, bj: 10, bk: Math.floor(FIRST_DAY / 16) };
    expect(await threaded.draw(key)).toEqual(computeBlock(key));
  }, 120_000);

  it('requests for the same blocks at the same time share one drawing of each', async () => {
    const drawer = counted(threaded.draw);
    const blocks = new SevereEventBlocks(undefined, drawer.draw);
    const reads = await Promise.all([1, 2, 3].map(() => blocks.read('hail', BOX, FIRST_DAY, LAST_DAY)));
    // BOX spans two 8-degree latitude bands, one longitude band and one 16-day period
    expect(drawer.asked.sort()).toEqual([`hail:15:10:${Math.floor(FIRST_DAY / 16)}`, `hail:16:10:${Math.floor(FIRST_DAY / 16)}`]);
    expect(reads[1]).toEqual(reads[0]);
    expect(reads[2]).toEqual(reads[0]);
    // once kept, a block is not drawn again
    await blocks.read('hail', BOX, FIRST_DAY, LAST_DAY);
    expect(drawer.asked).toHaveLength(2);
  }, 120_000);

  it('a drawing that fails fails every request waiting for it, and the next request draws again', async () => {
    let fail = true;
    const drawer = counted(async (key) => {
      await new Promise((resolve) => setImmediate(resolve));
      if (fail) throw new Error('thread lost');
      return computeBlock(key);
    });
    const blocks = new SevereEventBlocks(undefined, drawer.draw);
    const box = { south: 34, north: 35, west: -98, east: -97 };
    const results = await Promise.allSettled([1, 2].map(() => blocks.read('hail', box, FIRST_DAY, FIRST_DAY)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(drawer.asked).toHaveLength(1);
    fail = false;
    await blocks.read('hail', box, FIRST_DAY, FIRST_DAY);
    expect(drawer.asked).toHaveLength(2);
  });

  it('with no threads, blocks are drawn on the event loop', async () => {
    const inline = blockDrawer(0);
    const key = { kind: 'hail' as const, bi: 15, bj: 10, bk: Math.floor(FIRST_DAY / 16) };
    expect(await inline.draw(key)).toEqual(computeBlock(key));
    await inline.close();
  });
});
