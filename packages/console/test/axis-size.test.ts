import { valueAxisSize } from '../src/browser/axis-size.js';

// The point panel's charts (docs/areas.md, Console): a value axis as wide as its widest tick
// label, so a season's degree days ("7,500") or Utah chill units ("-1,000") are read whole.
describe('the width of a chart value axis', () => {
  /** every character 7 px wide, as a stand-in for the canvas's measureText */
  const measure = (text: string) => text.length * 7;

  it('fits the widest tick label with the tick and the gap beside it', () => {
    // 5 characters at 7 px, the 10 px tick and the 5 px gap uPlot draws
    expect(valueAxisSize(['0', '2,500', '5,000', '7,500'], measure)).toBe(35 + 15);
    expect(valueAxisSize(['-1,500', '-1,000', '-500', '0'], measure)).toBe(42 + 15);
  });

  it('is never narrower than the axis the short labels had', () => {
    expect(valueAxisSize(['0', '50', '100'], measure)).toBe(44);
    expect(valueAxisSize([], measure)).toBe(44);
    expect(valueAxisSize(null, measure)).toBe(44);
  });

  it('rounds a fractional width up, so the last pixel of a label is not cut', () => {
    expect(valueAxisSize(['12,345.5'], (t) => t.length * 6.1)).toBe(Math.ceil(8 * 6.1 + 15));
  });
});
