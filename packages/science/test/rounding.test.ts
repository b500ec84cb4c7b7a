import { roundToTenth } from '../src/rounding.js';

describe('roundToTenth: one decimal out', () => {
  it.each([
    [312.66, 312.7],
    [0.25, 0.3],
    [-0.25, -0.3],
    [-2.35, -2.4],
    [-0.04, 0],
    [1e-9, 0],
  ])('%d is reported as %d: halves away from zero, never -0', (value, reported) => {
    expect(Object.is(roundToTenth(value), reported)).toBe(true);
  });
});
