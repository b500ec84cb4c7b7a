import { parseCfTimeUnits, parseReferenceDate } from '../src/zarr/cf-time.js';

// UDUNITS reference dates of CF time units (CF 1.11 section 4.4): read on the proleptic Gregorian
// calendar, every year as itself, and a reference that is no calendar time refused.
describe('CF reference dates', () => {
  it.each([
    ['1970-01-01', 0],
    ['1970-1-1 0:0:0', 0],
    ['2000-02-29T12:30:00Z', Date.UTC(2000, 1, 29, 12, 30)],
    ['1970-01-01 00:00:59.5', 59_500],
    ['1970-01-01 06:00:00 +06:00', 0],
    ['0001-01-01 00:00:00', -62_135_596_800_000],
  ])('reads "%s" as %d ms', (text, ms) => {
    expect(parseReferenceDate(text)).toBe(ms);
  });

  it.each([
    ['1900-02-29', 'day'],
    ['2021-04-31 00:00:00', 'day'],
    ['2021-13-01', 'month'],
    ['2021-06-01 24:00:00', 'hour'],
    ['2021-06-01 00:60:00', 'minute'],
    ['2021-06-01 00:00:61', 'second'],
  ])('refuses "%s", naming its %s, where it was rolled onto another time', (text, field) => {
    expect(() => parseReferenceDate(text)).toThrow(`reference date "${text}" is not a calendar date and time (its ${field})`);
    expect(() => parseCfTimeUnits(`hours since ${text}`)).toThrow(/is not a calendar date and time/);
  });
});
