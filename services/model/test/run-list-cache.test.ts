import { RunListCache } from '../src/run-list-cache.js';

describe('RunListCache (docs/decisions/0143-model-series-cache.md)', () => {
  it('keeps a text from when it was computed until the instant it could change', () => {
    const cache = new RunListCache();
    let computed = 0;
    const compute = (untilMs: number) => () => ({ text: `v${++computed}`, untilMs });
    expect(cache.get('k', 100, compute(200))).toBe('v1');
    expect(cache.get('k', 199, compute(300))).toBe('v1');
    expect(cache.get('k', 200, compute(300))).toBe('v2');
    // Before the instant it was computed at: computed again.
    expect(cache.get('k', 150, compute(200))).toBe('v3');
    expect(cache.get('other', 150, compute(200))).toBe('v4');
  });

  it('holds at most its capacity, least recently used out', () => {
    const cache = new RunListCache(2);
    const compute = (text: string) => () => ({ text, untilMs: 1000 });
    cache.get('a', 0, compute('A'));
    cache.get('b', 0, compute('B'));
    cache.get('a', 0, compute('A2'));
    cache.get('c', 0, compute('C'));
    expect(cache.get('a', 0, compute('A3'))).toBe('A');
    expect(cache.get('b', 0, compute('B2'))).toBe('B2');
  });
});
