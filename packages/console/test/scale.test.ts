import { convertThreshold, scaleSymbol } from '../src/browser/scale.js';

// The degree-day panel's scale (docs/interface.md §3: scale=celsius|fahrenheit).
describe('degree-day scales in the console', () => {
  it('keeps a threshold the same temperature when the scale changes', () => {
    // the two scales' default bases, 10 °C and 50 °F
    expect(convertThreshold('10', 'celsius', 'fahrenheit')).toBe('50');
    expect(convertThreshold('50', 'fahrenheit', 'celsius')).toBe('10');
    expect(convertThreshold('30', 'celsius', 'fahrenheit')).toBe('86');
    expect(convertThreshold('-40', 'fahrenheit', 'celsius')).toBe('-40');
    expect(convertThreshold('10.5', 'celsius', 'fahrenheit')).toBe('50.9');
    expect(convertThreshold('10', 'celsius', 'celsius')).toBe('10');
  });

  it('leaves an empty or unreadable field as it is', () => {
    expect(convertThreshold('', 'celsius', 'fahrenheit')).toBe('');
    expect(convertThreshold('abc', 'celsius', 'fahrenheit')).toBe('abc');
  });

  it('names the symbol of a scale as asked and as answered', () => {
    expect(scaleSymbol('celsius')).toBe('°C');
    expect(scaleSymbol('Fahrenheit')).toBe('°F');
  });
});
