import { isoInstant } from '../src/index.js';

/** What records and ids are specified to hold (ISO 8601 UTC, whole seconds without `.000`). */
const reference = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('isoInstant', () => {
  it('writes whole seconds without milliseconds and the rest to the millisecond', () => {
    expect(isoInstant(Date.UTC(2024, 1, 29, 23, 59, 59))).toBe('2024-02-29T23:59:59Z');
    expect(isoInstant(Date.UTC(2024, 11, 31, 0, 0, 0, 7))).toBe('2024-12-31T00:00:00.007Z');
    expect(isoInstant(0)).toBe('1970-01-01T00:00:00Z');
  });

  it('agrees with toISOString across days, hours, the epoch, leap years and the edges of four-digit years', () => {
    const cases = [
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      Date.UTC(2000, 1, 29, 12),
      Date.UTC(2100, 2, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
      Date.UTC(-1, 0, 1),
      1.5,
      -0.5,
    ];
    // every hour of two years, as frame lists write them, and pseudo-random instants of any time
    for (let t = Date.UTC(2023, 11, 1); t < Date.UTC(2025, 11, 1); t += 3_600_000) cases.push(t);
    let seed = 12345;
    for (let i = 0; i < 20_000; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      cases.push(Math.floor((seed / 2 ** 32) * Date.UTC(9999, 11, 31)) - 86_400_000 * 365);
    }
    expect(cases.filter((ms) => isoInstant(ms) !== reference(ms)).map(reference)).toEqual([]);
  });

  it('fails as toISOString does for an invalid time', () => {
    expect(() => isoInstant(Number.NaN)).toThrow(RangeError);
  });
});
