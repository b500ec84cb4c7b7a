import { severeEvents } from '@fieldcast/weather';
import { answer } from '../src/domain/answer.js';
import { SevereEventBlocks } from '../src/domain/event-blocks.js';
import { parseArchiveQuery, type RawArchiveRequest } from '../src/domain/query.js';
import { selectEvents } from '../src/domain/selection.js';

const NOW = Date.UTC(2026, 0, 1);
const query = (raw: Omit<RawArchiveRequest, 'now' | 'query'> & { query?: Record<string, string> }) =>
  parseArchiveQuery({ query: {}, ...raw, now: NOW });

describe('determinism (docs/decisions/0171-archive-event-blocks.md)', () => {
  const q = query({
    type: 'lightning',
    request: 'history',
    location: '+42.2000-093.2000',
    date: '2025-06-26',
    query: { radius: '20', types: 'cloud,ground', limit: '1000' },
  });

  it('the same request gives the same answer whatever was read before', async () => {
    const fresh = await answer(q, NOW, new SevereEventBlocks());
    const warmed = new SevereEventBlocks();
    // other extents and kinds first: a cache that kept partial blocks would change the answer
    await answer(
      query({
        type: 'lightning',
        request: 'summary',
        location: '+43.0-093.0+41.0-096.0',
        query: { begin: '2025-06-01T00:00:00Z', end: '2025-07-01T00:00:00Z' },
      }),
      NOW,
      warmed,
    );
    await answer(query({ type: 'hailsize', request: 'summary', location: '+42.2000-093.2000' }), NOW, warmed);
    expect(await answer(q, NOW, warmed)).toEqual(fresh);
    expect(fresh.kind === 'features' && fresh.records.length).toBeGreaterThan(10);
  });

  it('a cache too small to hold a request still gives the same answer', async () => {
    const tiny = new SevereEventBlocks({ maxEvents: 1, maxBlocks: 1 });
    expect(await answer(q, NOW, tiny)).toEqual(await answer(q, NOW, new SevereEventBlocks()));
    expect(tiny.size.blocks).toBeLessThanOrEqual(1);
  });

  it('blocks hold exactly the synthetic world’s events of the place and time', async () => {
    const region = query({
      type: 'hailsize',
      request: 'history',
      location: '+44.0000-093.0000+40.0000-098.0000',
      query: { begin: '2025-04-01T00:00:00Z', end: '2025-08-01T00:00:00Z' },
    });
    const ids = (await selectEvents(region, NOW, new SevereEventBlocks())).map((s) => s.event.id);
    const direct = severeEvents('hail', [-98, 40, -93, 44], { startMs: Date.UTC(2025, 3, 1), endMs: Date.UTC(2025, 7, 1) }).map(
      (e) => e.id,
    );
    expect(ids.length).toBeGreaterThan(10);
    expect(ids).toEqual(direct);
  });
});

/**
 * The density the archive serves (docs/decisions/0173-archive-severe-weather-density.md): hail and
 * tornadoes in the warm season over the central plains, lightning with every storm, no storm
 * reports over the open ocean. Each place is one event block wide, so a year is a few reads.
 */
describe('plausible density', () => {
  const blocks = new SevereEventBlocks();
  /** Oklahoma, Texas Panhandle and Kansas's south: 30.1..37.9 N, 103.9..96.1 W */
  const PLAINS = '+37.9000-096.1000+30.1000-103.9000';
  /** events per month of 2025, from a summary of the year */
  const monthly = async (type: 'hailsize' | 'tornado' | 'lightning' | 'stormreports', place: string) => {
    const counts = Array<number>(12).fill(0);
    // by quarter: a tornado's year over this place is more blocks than one request reads
    for (let q = 0; q < 4; q++) {
      const a = await answer(
        query({
          type,
          request: 'summary',
          location: place,
          query: {
            begin: new Date(Date.UTC(2025, 3 * q, 1, 6)).toISOString(),
            end: new Date(Date.UTC(2025, 3 * q + 3, 1, 6) - 1000).toISOString(),
            ...(type === 'lightning' ? { types: 'cloud,ground' } : {}),
          },
        }),
        NOW,
        blocks,
      );
      if (a.kind === 'summary') for (const d of a.days) counts[Number(d.date.slice(5, 7)) - 1]! += d.count;
    }
    return counts;
  };
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

  it('hail and tornadoes over the central plains come in the warm season (April to September), none in winter', async () => {
    for (const type of ['hailsize', 'tornado'] as const) {
      const counts = await monthly(type, PLAINS);
      const warm = sum(counts.slice(3, 9));
      const cold = sum([...counts.slice(0, 3), ...counts.slice(9)]);
      expect(warm).toBeGreaterThan(10 * Math.max(1, cold));
      expect(counts[0]! + counts[1]! + counts[11]!).toBe(0);
    }
  }, 300_000);

  // The plains' storms draw their moisture from the Gulf of Mexico, under the steep lapse rates of
  // the Rockies' lee; northern California and Oregon lie under the Pacific's marine inversion
  // (docs/decisions/0085-severe-weather-ingredients.md).
  it('summer hail and tornadoes are commoner over the plains than over northern California and Oregon', async () => {
    const PACIFIC_NORTHWEST = '+45.9000-120.1000+38.1000-127.9000';
    for (const type of ['hailsize', 'tornado'] as const) {
      const summer = async (place: string) => sum((await monthly(type, place)).slice(4, 8));
      expect(await summer(PLAINS)).toBeGreaterThan(2 * (await summer(PACIFIC_NORTHWEST)));
    }
  }, 300_000);

  it('hail and tornadoes over the plains peak in late spring and early summer (May to July), not late summer', async () => {
    for (const type of ['hailsize', 'tornado'] as const) {
      const counts = await monthly(type, PLAINS);
      expect(sum(counts.slice(4, 7))).toBeGreaterThan(2 * sum(counts.slice(7, 10)));
    }
  }, 300_000);

  it('summer hail is commoner over the plains than over the Sahara', async () => {
    const summer = async (place: string) => sum((await monthly('hailsize', place)).slice(4, 8));
    const plains = await summer(PLAINS);
    expect(plains).toBeGreaterThan(5 * (await summer('+29.9000+015.9000+22.1000+008.1000')));
  }, 300_000);

  it('no storm reports over the open ocean; lightning on every hail day', async () => {
    expect(sum(await monthly('stormreports', '+37.9000-040.1000+30.1000-047.9000'))).toBe(0);
    const days = async (type: 'hailsize' | 'lightning') => {
      const a = await answer(
        query({
          type,
          request: 'summary',
          location: PLAINS,
          query: { begin: '2025-05-01T06:00:00Z', end: '2025-06-01T06:00:00Z', ...(type === 'lightning' ? { types: 'cloud,ground' } : {}) },
        }),
        NOW,
        blocks,
      );
      return new Set(a.kind === 'summary' ? a.days.map((d) => d.date) : []);
    };
    const hail = await days('hailsize');
    const lightning = await days('lightning');
    expect(hail.size).toBeGreaterThan(3);
    for (const d of hail) expect(lightning.has(d)).toBe(true);
  }, 300_000);

  it('a gust record counts minutes above its threshold only when its peak reaches it', async () => {
    const a = await answer(
      query({
        type: 'gustdur',
        request: 'history',
        location: '+37.0000-095.0000+33.0000-100.0000',
        query: { begin: '2025-04-01T00:00:00Z', end: '2025-07-01T00:00:00Z', limit: '1000' },
      }),
      NOW,
      blocks,
    );
    const records = a.kind === 'features' ? (a.records as { peakGustMs: number; durationMinutes: number; thresholdMs: number }[]) : [];
    const below = records.filter((r) => r.peakGustMs < r.thresholdMs);
    expect(below.length).toBeGreaterThan(5);
    for (const r of below) expect(r.durationMinutes).toBe(0);
    const above = records.filter((r) => r.peakGustMs >= r.thresholdMs);
    expect(above.length).toBeGreaterThan(20);
    for (const r of above) expect(r.durationMinutes).toBeGreaterThanOrEqual(2);
  }, 300_000);
});
