import { mean, median, mode, seriesStatistics } from '../src/index.js';

const t = (h: number): string => `2024-05-01T${String(h).padStart(2, '0')}:00:00Z`;

describe('series statistics (spec 2.8)', () => {
  it('computes mean, median, mode and the extremes with their validTime', () => {
    const series = [
      { validTime: t(0), value: 12.04 },
      { validTime: t(1), value: 14.5 },
      { validTime: t(2), value: null },
      { validTime: t(3), value: 11.96 },
      { validTime: t(4), value: 17.25 },
      { validTime: t(5), value: Number.NaN },
      { validTime: t(6), value: 9.8 },
    ];
    const s = seriesStatistics(series);
    // Present: 12.04, 14.5, 11.96, 17.25, 9.8 -> sum 65.55, n 5, mean 13.11
    expect(s.count).toBe(5);
    expect(s.mean).toBeCloseTo(13.11, 12);
    // sorted 9.8, 11.96, 12.04, 14.5, 17.25 -> median 12.04
    expect(s.median).toBeCloseTo(12.04, 12);
    // at 1 decimal: 12.0, 14.5, 12.0, 17.3 (17.25 rounds half up), 9.8 -> 12.0 twice
    expect(s.mode).toBeCloseTo(12.0, 12);
    expect(s.minimum).toBe(9.8);
    expect(s.minimumTime).toBe(t(6));
    expect(s.maximum).toBe(17.25);
    expect(s.maximumTime).toBe(t(4));
  });

  it('gives nulls for an empty or all-missing series', () => {
    const empty = {
      count: 0,
      mean: null,
      median: null,
      mode: null,
      minimum: null,
      minimumTime: null,
      maximum: null,
      maximumTime: null,
    };
    expect(seriesStatistics([])).toEqual(empty);
    expect(
      seriesStatistics([
        { validTime: t(0), value: null },
        { validTime: t(1), value: Number.NaN },
      ]),
    ).toEqual(empty);
  });

  it('median of an even count is the mean of the two middle values', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(mean([1, null, 2])).toBe(1.5);
  });

  it('mode: ties go to the smallest value; precision is a parameter', () => {
    expect(mode([3.0, 1.04, 3.01, 0.96, 7])).toBeCloseTo(1.0, 12); // 1.0 and 3.0 twice each
    expect(mode([2.4, 2.6, 2.6, 2.4, 5])).toBeCloseTo(2.4, 12);
    expect(mode([2.4, 2.6, 3.4], 0)).toBe(3); // 2, 3, 3
    expect(mode([0.123, 0.1234, 0.5], 3)).toBeCloseTo(0.123, 12);
    expect(mode([-0.04, -0.01])).toBe(0);
    expect(Object.is(mode([-0.04]), -0)).toBe(false);
    expect(() => mode([1], -1)).toThrow(RangeError);
  });

  it('keeps the first occurrence of a repeated extreme', () => {
    const s = seriesStatistics([
      { validTime: t(0), value: 5 },
      { validTime: t(1), value: 1 },
      { validTime: t(2), value: 5 },
      { validTime: t(3), value: 1 },
    ]);
    expect(s.maximumTime).toBe(t(0));
    expect(s.minimumTime).toBe(t(1));
  });
});

describe('published worked examples', () => {
  it('mean: 4, 36, 45, 50, 75 give 210 / 5 = 42 (Wikipedia, "Arithmetic mean", Definition)', () => {
    expect(mean([4, 36, 45, 50, 75])).toBe(42);
  });

  it('median: {1, 3, 3, 6, 7, 8, 9} gives 6 and {1, 2, 3, 4, 5, 6, 8, 9} gives 4.5 (Wikipedia, "Median", Finite set of numbers)', () => {
    expect(median([1, 3, 3, 6, 7, 8, 9])).toBe(6);
    expect(median([1, 2, 3, 4, 5, 6, 8, 9])).toBe(4.5);
    // Order does not matter.
    expect(median([9, 8, 7, 6, 3, 3, 1])).toBe(6);
  });

  it('mode: [1, 3, 6, 6, 6, 6, 7, 7, 12, 12, 17] gives 6 (Wikipedia, "Mode (statistics)", lead example)', () => {
    // Integers at any display precision are their own bins (docs/decisions/0009-statistics-mode.md).
    expect(mode([1, 3, 6, 6, 6, 6, 7, 7, 12, 12, 17])).toBe(6);
    expect(mode([1, 3, 6, 6, 6, 6, 7, 7, 12, 12, 17], 0)).toBe(6);
  });

  it('the same examples through seriesStatistics, with the extremes at their validTime', () => {
    const values = [1, 3, 6, 6, 6, 6, 7, 7, 12, 12, 17];
    const s = seriesStatistics(values.map((value, h) => ({ validTime: t(h), value })));
    // 83 / 11; the middle of eleven sorted values is the sixth, 6
    expect(s.mean).toBeCloseTo(83 / 11, 12);
    expect(s.median).toBe(6);
    expect(s.mode).toBe(6);
    expect([s.minimum, s.minimumTime, s.maximum, s.maximumTime]).toEqual([1, t(0), 17, t(10)]);
  });
});
