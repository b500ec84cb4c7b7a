import { severeEvents } from '@fieldcast/weather';
import { answer } from '../src/domain/answer.js';
import { eventDayOf } from '../src/domain/dates.js';
import { SevereEventBlocks } from '../src/domain/event-blocks.js';
import { formatPoint } from '../src/domain/iso6709.js';
import { parseArchiveQuery } from '../src/domain/query.js';

const NOW = Date.UTC(2025, 6, 1);
/** About 2 km either way: a property's or a small parcel's box, narrower than a track's segments. */
const HALF_DEG = 0.02;

/**
 * A long spring 2025 tornado over the plains, found by reading the synthetic world, and a small box
 * around the middle of a segment of its track that holds none of its vertices.
 */
function crossedBox() {
  const spring = { startMs: Date.UTC(2025, 3, 1, 6), endMs: Date.UTC(2025, 6, 1, 6) - 1 };
  for (const tornado of severeEvents('tornado', [-102, 32, -94, 42], spring)) {
    for (let i = 1; i < tornado.track.length; i++) {
      const [a, b] = [tornado.track[i - 1]!, tornado.track[i]!];
      const [lon, lat] = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const box = { south: lat - HALF_DEG, north: lat + HALF_DEG, west: lon - HALF_DEG, east: lon + HALF_DEG };
      const holds = ([x, y]: readonly [number, number]) => x >= box.west && x <= box.east && y >= box.south && y <= box.north;
      if (!tornado.track.some(holds)) return { tornado, lat, lon, box };
    }
  }
  throw new Error('the synthetic world has no spring 2025 tornado over the plains with a segment longer than the box');
}

describe('a tornado is in a region where its track crosses it (docs/decisions/0477-a-tornado-track-crosses-a-region.md)', () => {
  const { tornado, lat, lon, box } = crossedBox();
  const day = eventDayOf(tornado.timeMs).date;
  const region = `${formatPoint({ lat: box.north, lon: box.east })}${formatPoint({ lat: box.south, lon: box.west })}`;
  const ask = (request: string, location: string) =>
    answer(parseArchiveQuery({ type: 'tornado', request, location, date: day, query: {}, now: NOW }), NOW, new SevereEventBlocks());

  it('a region its track passes through between two vertices lists it, as a point inside the region does', async () => {
    // the control: a 1-mile radius at the box's centre, which lies on the track, finds it at distance 0
    const atCentre = await ask('history', formatPoint({ lat, lon }));
    expect(atCentre.kind === 'features' && atCentre.records.map((r) => [r.id, r.distance])).toContainEqual([tornado.id, 0]);

    const history = await ask('history', region);
    expect(history.kind === 'features' && history.records.map((r) => r.id)).toEqual([tornado.id]);
    const summary = await ask('summary', region);
    expect(summary.kind === 'summary' && summary.days.map((d) => [d.date, d.count])).toEqual([[day, 1]]);
  });
});
