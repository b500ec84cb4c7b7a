import { DateError, parseEventDay, parseTime } from '../src/domain/dates.js';

// RFC 3339 section 5.7: time-second is 60 only at a leap second, the last second of a month in
// UTC (23:59:60Z, shifted by the zone offset elsewhere); at every other minute it is at most 59.

describe('second 60 in an archive time (RFC 3339 section 5.7)', () => {
  it.each([
    ['1990-12-31T23:59:60Z', Date.UTC(1991, 0, 1)],
    // RFC 3339 section 5.8's second example: the same leap second, in a zone 8 hours behind
    ['1990-12-31T15:59:60-08:00', Date.UTC(1991, 0, 1)],
    ['2016-12-31T23:59:60.5Z', Date.UTC(2017, 0, 1, 0, 0, 0, 500)],
    ['2015-06-30T23:59:60Z', Date.UTC(2015, 6, 1)],
  ])('reads the leap second %s as the next second’s start', (text, ms) => {
    expect(parseTime(text, 'begin')).toBe(ms);
  });

  it.each([
    '2025-06-01T12:30:60Z', // mid-day: no leap second there
    '2025-06-01T00:00:60Z',
    '2025-04-22T23:59:60Z', // the end of a day, not of a month
    '1990-12-31T23:59:60-08:00', // 23:59 local is 07:59 UTC
  ])('refuses %s, which no leap second names', (text) => {
    expect(() => parseTime(text, 'end')).toThrow(DateError);
    expect(() => parseTime(text, 'end')).toThrow(/not a calendar time/);
  });

  it('a path date with a second 60 that is no leap second is no date', () => {
    expect(() => parseEventDay('2025-06-09T05:59:60Z')).toThrow(DateError);
  });
});
