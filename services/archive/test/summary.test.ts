import type { AnySevereEvent } from '@fieldcast/weather';
import { summarize } from '../src/domain/summary.js';

const at = (iso: string) => Date.parse(iso);

function tornado(id: string, touchdown: string, liftOff: string, lengthKm = 10): Extract<AnySevereEvent, { kind: 'tornado' }> {
  return {
    kind: 'tornado',
    id,
    timeMs: at(touchdown),
    endTimeMs: at(liftOff),
    lon: -97.5,
    lat: 35.2,
    magnitude: 1,
    unit: 'EF',
    track: [
      [-97.5, 35.2],
      [-97.4, 35.25],
    ],
    lengthKm,
    widthM: 100,
  };
}

/** Summaries of a range (docs/decisions/0365-archive-summary-days.md). */
describe('summary days lie within the query and count each event once', () => {
  // two event days: 2025-06-10 and 2025-06-11 (06:00Z to 06:00Z)
  const range = { startMs: at('2025-06-10T06:00:00Z'), endMs: at('2025-06-12T05:59:59.999Z') };

  it('a tornado already down at begin counts under the day holding begin, not the day before it', () => {
    const days = summarize('tornado', [tornado('a', '2025-06-10T05:50:00Z', '2025-06-10T06:20:00Z')], range);
    expect(days.map((d) => [d.date, d.count])).toEqual([['2025-06-10', 1]]);
    // its own times, as a history lists them
    expect(days[0]).toMatchObject({ firstTime: '2025-06-10T05:50:00.000Z', lastTime: '2025-06-10T06:20:00.000Z' });
  });

  it('a tornado down across two event days of the query counts once, under its touchdown day', () => {
    const days = summarize(
      'tornado',
      [tornado('b', '2025-06-10T18:00:00Z', '2025-06-10T18:30:00Z'), tornado('c', '2025-06-11T05:55:00Z', '2025-06-11T06:30:00Z')],
      range,
    );
    expect(days.map((d) => [d.date, d.count, d.totalLengthKm])).toEqual([['2025-06-10', 2, 20]]);
  });

  it('a day’s begin and end are inclusive like the query’s, and no wider than the query', () => {
    const days = summarize(
      'tornado',
      [tornado('d', '2025-06-10T13:00:00Z', '2025-06-10T13:10:00Z'), tornado('e', '2025-06-11T20:00:00Z', '2025-06-11T20:10:00Z')],
      { startMs: at('2025-06-10T12:00:00Z'), endMs: at('2025-06-12T00:00:00Z') },
    );
    expect(days.map(({ date, begin, end }) => ({ date, begin, end }))).toEqual([
      { date: '2025-06-11', begin: '2025-06-11T06:00:00.000Z', end: '2025-06-12T00:00:00.000Z' },
      { date: '2025-06-10', begin: '2025-06-10T12:00:00.000Z', end: '2025-06-11T05:59:59.999Z' },
    ]);
    // a whole day: from 06:00Z to the last millisecond before the next 06:00Z
    const [whole] = summarize('tornado', [tornado('b', '2025-06-10T18:00:00Z', '2025-06-10T18:30:00Z')], range);
    expect(whole).toMatchObject({ begin: '2025-06-10T06:00:00.000Z', end: '2025-06-11T05:59:59.999Z' });
  });
});
