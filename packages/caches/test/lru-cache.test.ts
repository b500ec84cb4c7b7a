import { LruCache } from '../src/index.js';

describe('LruCache', () => {
  it('keeps at most maxWeight values by default, the least recently used out first', () => {
    const cache = new LruCache<string>(2);
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A'); // a is now the most recently used
    cache.set('c', 'C');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
    expect(cache.size).toBe(2);
  });

  it('bounds the weight of what it keeps and refuses a value heavier than the bound', () => {
    const cache = new LruCache<Buffer>(10, (b) => b.byteLength);
    cache.set('a', Buffer.alloc(4));
    cache.set('b', Buffer.alloc(4));
    expect(cache.heldWeight).toBe(8);
    cache.set('c', Buffer.alloc(4));
    expect([cache.get('a'), cache.heldWeight, cache.size]).toEqual([undefined, 8, 2]);
    const huge = Buffer.alloc(11);
    expect(cache.set('huge', huge)).toBe(huge);
    expect([cache.get('huge'), cache.heldWeight]).toEqual([undefined, 8]);
  });

  it('replaces the value under a key, weighing only the new one', () => {
    const cache = new LruCache<string>(10, (s) => s.length);
    cache.set('a', 'xxxx');
    cache.set('a', 'yy');
    expect([cache.get('a'), cache.heldWeight, cache.size]).toEqual(['yy', 2, 1]);
    expect(cache.delete('a')).toBe(true);
    expect(cache.delete('a')).toBe(false);
    expect(cache.heldWeight).toBe(0);
  });

  it('makes a value only when none is kept', () => {
    const cache = new LruCache<number[]>(4);
    let made = 0;
    const make = () => [++made];
    const first = cache.getOrSet('k', make);
    expect(cache.getOrSet('k', make)).toBe(first);
    expect(made).toBe(1);
  });
});

describe('LruCache keys', () => {
  it('lists the keys least recently used first, and deleting while listing leaves the rest', () => {
    const cache = new LruCache<number>(10);
    for (const k of ['a|1', 'b|1', 'a|2']) cache.set(k, 1);
    cache.get('a|1');
    expect([...cache.keys()]).toEqual(['b|1', 'a|2', 'a|1']);
    for (const k of cache.keys()) if (k.startsWith('a|')) cache.delete(k);
    expect([...cache.keys()]).toEqual(['b|1']);
    expect(cache.heldWeight).toBe(1);
  });
});
