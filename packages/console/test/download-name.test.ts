import { downloadName } from '../src/browser/download-name.js';

// A CSV the point panel saves says what it holds, where and when (docs/interface.md §3, §5): two
// places, settings or periods saved side by side are told apart by their names.
describe('the name of a file the console saves', () => {
  it('says what, where and when, joined by _', () => {
    expect(downloadName('degree days base 10 Celsius', { latitude: 38.5, longitude: -98.5 }, ['2026-11-07', '2026-12-07'], 'csv')).toBe(
      'degree-days-base-10-Celsius_38.5000_-98.5000_2026-11-07_2026-12-07.csv',
    );
  });

  it('makes every run of characters a file system may refuse one -, as the areas name their CSV answers', () => {
    expect(downloadName('relative humidity (%)', { latitude: -41.29, longitude: 174.78 }, ['2026-12-07T18:00:00Z'], 'csv')).toBe(
      'relative-humidity_-41.2900_174.7800_2026-12-07T18-00-00Z.csv',
    );
    expect(downloadName('chill: dynamic/portions', { latitude: 0, longitude: 0 }, [], 'csv')).toBe(
      'chill-dynamic-portions_0.0000_0.0000.csv',
    );
  });
});
