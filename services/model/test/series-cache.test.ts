import { SeriesCache } from '../src/series-cache.js';

describe('SeriesCache (docs/decisions/0143-model-series-cache.md)', () => {
  it('keys on run, variable, point and the valid times selected', () => {
    expect(SeriesCache.key('r', 'temperature', 42, -93, [1000, 2000])).not.toBe(SeriesCache.key('r', 'temperature', 42, -93, [1000]));
    expect(SeriesCache.key('r', 'temperature', 42, -93, [1000])).not.toBe(SeriesCache.key('r', 'temperature', 42, -93, [2000]));
    expect(SeriesCache.key('r', 'temperature', 42, -93, [])).not.toBe(SeriesCache.key('r', 'dewPoint', 42, -93, []));
    expect(SeriesCache.key('r', 'temperature', 42, -93, [])).not.toBe(SeriesCache.key('r', 'temperature', 42, -93.1, []));
  });

  it('computes once per key and drops the least recently used beyond its capacity', async () => {
    const cache = new SeriesCache(2);
    let computed = 0;
    const compute = (text: string) => async () => {
      computed++;
      return text;
    };
    expect(await cache.get('a', compute('A'))).toBe('A');
    expect(await cache.get('a', compute('other'))).toBe('A');
    await cache.get('b', compute('B'));
    await cache.get('a', compute('other')); // a is now the most recently used
    await cache.get('c', compute('C')); // b goes
    expect(cache.size).toBe(2);
    expect(computed).toBe(3);
    expect(await cache.get('b', compute('B2'))).toBe('B2');
    expect(await cache.get('a', compute('A2'))).toBe('A2');
  });

  it('keeps no failure: the next request computes again', async () => {
    const cache = new SeriesCache();
    await expect(cache.get('x', () => Promise.reject(new Error('weather down')))).rejects.toThrow('weather down');
    await new Promise((r) => setImmediate(r));
    expect(await cache.get('x', async () => 'X')).toBe('X');
  });
});
