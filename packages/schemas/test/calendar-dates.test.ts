/**
 * The schemas' dates and times on the proleptic Gregorian calendar (@fieldcast/calendar): a date
 * that does not exist is none, and a four-digit year is the year it says (RFC 3339 section 5.6,
 * date-fullyear), 0000 to 0099 included.
 */
import { calendarDateMicros, dateMs, zonedTimestampMicros } from '../src/index.js';

describe('dateMs (degree-day dates, YYYY-MM-DD)', () => {
  it.each([
    ['2025-04-15', Date.parse('2025-04-15T00:00:00Z')],
    ['2000-02-29', Date.parse('2000-02-29T00:00:00Z')],
    ['0000-02-29', Date.parse('0000-02-29T00:00:00Z')],
    ['0099-01-01', Date.parse('0099-01-01T00:00:00Z')],
    ['1970-01-01', 0],
  ])('reads %s', (text, ms) => {
    expect(dateMs(text)).toBe(ms);
  });

  it.each(['2025-02-30', '1900-02-29', '2025-04-31', '2025-13-01', '2025-00-10', '2025-04-00', '2025-4-15', '2025-04-15T00:00:00Z', ''])(
    'finds no date in %j',
    (text) => {
      expect(dateMs(text)).toBeNaN();
    },
  );
});

describe('zonedTimestampMicros and calendarDateMicros (observation times)', () => {
  it('reads a four-digit year as itself and an offset as the difference from UTC', () => {
    expect(zonedTimestampMicros('0099-01-01T00:00:00Z')).toBe(BigInt(Date.parse('0099-01-01T00:00:00Z')) * 1000n);
    expect(zonedTimestampMicros('0000-01-01T01:00:00+01:00')).toBe(BigInt(Date.parse('0000-01-01T00:00:00Z')) * 1000n);
    expect(zonedTimestampMicros('2000-02-29T23:30:00.1234567-01:00')).toBe(BigInt(Date.parse('2000-03-01T00:30:00Z')) * 1000n + 123_456n);
    expect(calendarDateMicros('0000-02-29')).toBe(BigInt(Date.parse('0000-02-29T00:00:00Z')) * 1000n);
  });

  it.each(['1900-02-29T00:00:00Z', '2026-04-31T00:00:00Z', '2026-05-01T24:00:00Z', '2026-05-01T12:60:00Z', '2016-12-31T23:59:60Z'])(
    'finds no instant in %s',
    (text) => {
      expect(zonedTimestampMicros(text)).toBeNull();
    },
  );
});
