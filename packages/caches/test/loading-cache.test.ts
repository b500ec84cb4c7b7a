import { LoadingCache } from '../src/index.js';

describe('LoadingCache', () => {
  it('shares one load between concurrent requests and keeps its value', async () => {
    const cache = new LoadingCache<string>(4);
    let loads = 0;
    const load = async () => `value ${++loads}`;
    const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect([a, b, loads]).toEqual(['value 1', 'value 1', 1]);
    expect(await cache.get('k', load)).toBe('value 1');
    expect(loads).toBe(1);
  });

  it('keeps no failed load, so the next request loads again', async () => {
    const cache = new LoadingCache<string>(4);
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.size).toBe(0);
    expect(await cache.get('k', async () => 'up')).toBe('up');
  });

  it('weighs a value once it is loaded and keeps none heavier than the bound', async () => {
    const cache = new LoadingCache<string>(5, (s) => s.length);
    await cache.get('a', async () => 'abc');
    await cache.get('b', async () => 'de');
    expect(cache.heldWeight).toBe(5);
    expect(await cache.get('long', async () => 'abcdef')).toBe('abcdef');
    expect([cache.size, cache.heldWeight]).toEqual([2, 5]);
    await cache.get('c', async () => 'f');
    let reloaded = false;
    await cache.get('a', async () => ((reloaded = true), 'abc'));
    expect(reloaded).toBe(true); // a was the least recently used
  });

  it('getMany: kept keys from the cache, every missing key in one load, in order; a failed load keeps nothing', async () => {
    const cache = new LoadingCache<string>(100);
    await cache.get('b', async () => 'B kept');
    const asked: number[][] = [];
    const values = await cache.getMany(['a', 'b', 'c', 'a'], async (indexes) => {
      asked.push(indexes);
      return indexes.map((i) => `loaded ${i}`);
    });
    expect(values).toEqual(['loaded 0', 'B kept', 'loaded 2', 'loaded 0']);
    expect(asked).toEqual([[0, 2]]);
    expect(await cache.getMany(['c', 'a'], async () => Promise.reject(new Error('not asked')))).toEqual(['loaded 2', 'loaded 0']);
    await expect(cache.getMany(['x', 'y'], async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    await expect(cache.getMany(['x'], async () => [])).rejects.toThrow(/too few/);
    expect(cache.size).toBe(3);
  });
});
