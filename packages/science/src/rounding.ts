/**
 * One decimal, as the areas report what they compute (degree days, chill, an alert's measured
 * value): full precision inside, one decimal out, the same everywhere
 * (docs/decisions/0031-degree-day-query.md; the public record's examples show one decimal).
 * Halves round away from zero, on the binary value; -0 is reported as 0.
 */
export function roundToTenth(value: number): number {
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * 10)) / 10;
  return rounded === 0 ? 0 : rounded;
}
