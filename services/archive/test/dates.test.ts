import { DateError, eventDayOf, parseEventDay, parseTime } from '../src/domain/dates.js';

describe('archive times (RFC 3339 section 5.6 or POSIX seconds)', () => {
  it.each([
    ['2025-04-22T18:30:00Z', Date.UTC(2025, 3, 22, 18, 30)],
    ['2025-04-22t18:30:00z', Date.UTC(2025, 3, 22, 18, 30)],
    ['2025-04-22T18:30:00.250Z', Date.UTC(2025, 3, 22, 18, 30, 0, 250)],
    ['2025-04-22T13:30:00-05:00', Date.UTC(2025, 3, 22, 18, 30)],
    ['2025-04-23T00:00:00+05:30', Date.UTC(2025, 3, 22, 18, 30)],
    // RFC 3339 section 5.8's example of a leap second is read as the next second's start
    ['1990-12-31T23:59:60Z', Date.UTC(1991, 0, 1)],
    ['1745346600', Date.UTC(2025, 3, 22, 18, 30)],
    ['0', 0],
  ])('reads %s', (text, ms) => {
    expect(parseTime(text, 'begin')).toBe(ms);
  });

  it.each([
    '2025-04-22',
    '2025-04-22 18:30:00Z',
    '2025-04-22T18:30Z',
    '2025-02-29T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-04-22T24:00:00Z',
    '2025-04-22T18:30:00+24:00',
    '-5',
    '1.5',
    '1e9',
    'now',
  ])('refuses %s, saying the accepted forms', (text) => {
    expect(() => parseTime(text, 'end')).toThrow(DateError);
    expect(() => parseTime(text, 'end')).toThrow(/RFC 3339 .* or POSIX seconds/);
  });

  it('an event day is the 24 hours from 06:00Z', () => {
    expect(eventDayOf(Date.UTC(2025, 3, 22, 6))).toEqual({
      date: '2025-04-22',
      startMs: Date.UTC(2025, 3, 22, 6),
      endMs: Date.UTC(2025, 3, 23, 6),
    });
    expect(eventDayOf(Date.UTC(2025, 3, 23, 5, 59, 59, 999)).date).toBe('2025-04-22');
    expect(eventDayOf(Date.UTC(2025, 3, 22, 5, 59)).date).toBe('2025-04-21');
  });

  it('a path date names an event day: a full-date the day starting on it, a time the day holding it', () => {
    expect(parseEventDay('2025-04-22').startMs).toBe(Date.UTC(2025, 3, 22, 6));
    expect(parseEventDay('2025-04-23T03:00:00Z').date).toBe('2025-04-22');
    expect(parseEventDay(String(Date.UTC(2025, 3, 23, 3) / 1000)).date).toBe('2025-04-22');
    expect(() => parseEventDay('2025-02-30')).toThrow(DateError);
  });

  it('a year below 100 is that year, not one of the 1900s (RFC 3339 section 5.6: date-fullyear is four digits)', () => {
    // year 75 is before 1970, so not a time a range may begin at
    expect(() => parseTime('0075-01-01T00:00:00Z', 'begin')).toThrow(/before 1970/);
    expect(parseEventDay('0001-01-01')).toEqual({
      date: '0001-01-01',
      startMs: Date.parse('0001-01-01T06:00:00Z'),
      endMs: Date.parse('0001-01-02T06:00:00Z'),
    });
    // year 4 is a leap year of the proleptic Gregorian calendar, year 0 too (ISO 8601)
    expect(parseEventDay('0004-02-29').date).toBe('0004-02-29');
    expect(parseEventDay('0000-02-29').date).toBe('0000-02-29');
    expect(() => parseEventDay('0001-02-29')).toThrow(DateError);
  });

  it('an RFC 3339 time past year 9999 is refused as POSIX seconds past it are', () => {
    // its offset moves it into year 10000, which no RFC 3339 time can name (the echo would be "+010000-...")
    expect(() => parseTime('9999-12-31T23:59:59-23:59', 'end')).toThrow(/beyond year 9999/);
    expect(parseTime('9999-12-31T23:59:59.999Z', 'end')).toBe(Date.parse('9999-12-31T23:59:59.999Z'));
    expect(parseTime('253402300799', 'end')).toBe(Date.parse('9999-12-31T23:59:59Z'));
  });
});
