import { RequestTooLargeError } from '@fieldcast/kit';
import { answer } from '../src/domain/answer.js';
import { BLOCK_DAYS, eventDayNumber, SevereEventBlocks, type Block, type BlockKey } from '../src/domain/event-blocks.js';
import { parseArchiveQuery, type RawArchiveRequest } from '../src/domain/query.js';
import { blocksRead, MAX_BLOCKS } from '../src/domain/selection.js';

const NOW = Date.UTC(2025, 6, 1);
const DAY_MS = 86_400_000;
/** 06:00Z of event day number `day`, where it starts. */
const dayStart = (day: number) => day * DAY_MS + 6 * 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

const query = (raw: Omit<RawArchiveRequest, 'now' | 'query'> & { query?: Record<string, string> }) =>
  parseArchiveQuery({ query: {}, ...raw, now: NOW });

/** Blocks drawn empty, each one's key kept: what a request reads, without drawing the world. */
function recording(): { blocks: SevereEventBlocks; drawn: Set<string> } {
  const drawn = new Set<string>();
  const draw = (key: BlockKey): Promise<Block> => {
    drawn.add(`${key.kind}:${key.bi}:${key.bj}:${key.bk}`);
    return Promise.resolve({ days: Array.from({ length: BLOCK_DAYS }, () => []), count: 0 });
  };
  return { blocks: new SevereEventBlocks(undefined, draw), drawn };
}

/**
 * What a request is refused for is what it would read (docs/decisions/0211-archive-polar-cap-blocks.md,
 * docs/decisions/0171-archive-event-blocks.md): the blocks of its place over the event days up
 * to now, and the day before its begin for tornadoes only.
 */
describe('the blocks a request is counted for are the blocks it reads', () => {
  it.each([
    ['a point over the default 90 days', { type: 'hailsize', request: 'summary', location: '+35.0000-097.0000' }],
    ['a tornado point, 20 miles', { type: 'tornado', request: 'history', location: '+35.0000-097.0000', query: { radius: '20' } }],
    [
      'a region over a month',
      { type: 'lightning', request: 'summary', location: '+40.0-095.0+32.0-103.0', query: { begin: '2025-06-01T00:00:00Z' } },
    ],
    [
      'a tornado region over a month',
      { type: 'tornado', request: 'history', location: '+40.0-095.0+32.0-103.0', query: { begin: '2025-06-01T00:00:00Z' } },
    ],
    ['a point at a pole', { type: 'lightning', request: 'summary', location: '-89.9999-179.9999', query: { radius: '20' } }],
    ['a point at the antimeridian', { type: 'tornado', request: 'summary', location: '+10.0000+179.9000', query: { radius: '20' } }],
    // its circle split at the antimeridian in two boxes, both in the one polar cap block of each period
    [
      'a point in a polar row at the antimeridian',
      { type: 'lightning', request: 'summary', location: '-84.0000+179.9000', query: { radius: '20' } },
    ],
    [
      'an end years ahead: read up to now',
      {
        type: 'hailsize',
        request: 'summary',
        location: '+35.0-097.0',
        query: { begin: '2025-06-01T00:00:00Z', end: '2030-01-01T00:00:00Z' },
      },
    ],
    [
      'only the future: nothing read',
      {
        type: 'hailsize',
        request: 'summary',
        location: '+35.0-097.0',
        query: { begin: '2026-11-01T00:00:00Z', end: '2030-01-01T00:00:00Z' },
      },
    ],
  ] as const)('%s', async (_name, raw) => {
    const q = query({ ...raw, query: { ...('query' in raw ? raw.query : {}) } });
    const { blocks, drawn } = recording();
    await answer(q, NOW, blocks);
    expect(blocksRead(q, NOW)).toBe(drawn.size);
    expect(drawn.size).toBeLessThanOrEqual(MAX_BLOCKS);
  });

  it('an end in the future is not counted past now: the 422 of an unclamped end is gone', async () => {
    const q = query({
      type: 'hailsize',
      request: 'summary',
      location: '+35.0-097.0',
      query: { begin: '2025-06-01T00:00:00Z', end: '2030-01-01T00:00:00Z' },
    });
    const { blocks } = recording();
    await expect(answer(q, NOW, blocks)).resolves.toMatchObject({ kind: 'summary' });
    // event days 2025-05-31 (which holds 2025-06-01T00:00Z) to 2025-06-30: three 16-day periods
    expect(blocksRead(q, NOW)).toBe(3);
  });

  it('exactly MAX_BLOCKS blocks is answered and one period more refused; tornadoes also read the day before begin', async () => {
    // one block per period at this point and radius: MAX_BLOCKS periods, the last one ending before now
    const first = (Math.floor(eventDayNumber(NOW) / BLOCK_DAYS) - MAX_BLOCKS - 2) * BLOCK_DAYS;
    const begin = iso(dayStart(first));
    const end = dayStart(first + MAX_BLOCKS * BLOCK_DAYS) - 1;
    const at = (type: 'hailsize' | 'tornado', endMs: number) =>
      query({ type, request: 'summary', location: '+35.0000-097.0000', query: { begin, end: iso(endMs) } });

    const exact = recording();
    await expect(answer(at('hailsize', end), NOW, exact.blocks)).resolves.toMatchObject({ kind: 'summary' });
    expect(exact.drawn.size).toBe(MAX_BLOCKS);

    for (const q of [at('hailsize', end + 1), at('tornado', end)]) {
      const over = recording();
      expect(blocksRead(q, NOW)).toBe(MAX_BLOCKS + 1);
      await expect(answer(q, NOW, over.blocks)).rejects.toThrow(RequestTooLargeError);
      await expect(answer(q, NOW, over.blocks)).rejects.toThrow(`would read ${MAX_BLOCKS + 1} blocks`);
      expect(over.drawn.size).toBe(0);
    }
  });
});
