import { FramePageCache } from '../src/frame-page-cache.js';

describe('FramePageCache', () => {
  it('writes a page once per key and keeps it as UTF-8 bytes', () => {
    const cache = new FramePageCache(1000);
    let writes = 0;
    const write = () => {
      writes++;
      return '["é"]';
    };
    expect(cache.get('a', write).toString('utf8')).toBe('["é"]');
    expect(cache.get('a', write).toString('utf8')).toBe('["é"]');
    expect(writes).toBe(1);
    expect(cache.heldBytes).toBe(6);
  });

  it('holds at most its bytes, dropping the least recently used page first, and never keeps a page over the bound', () => {
    const cache = new FramePageCache(300);
    const page = (c: string) => () => c.repeat(100);
    cache.get('a', page('a'));
    cache.get('b', page('b'));
    cache.get('c', page('c'));
    cache.get('a', page('x')); // a is now the most recently used
    cache.get('d', page('d')); // b goes
    expect(cache.heldBytes).toBe(300);
    expect(cache.get('a', page('x')).toString()).toBe('a'.repeat(100));
    expect(cache.get('b', page('y')).toString()).toBe('y'.repeat(100));
    expect(cache.get('big', page('z'.repeat(4))).byteLength).toBe(400);
    expect(cache.heldBytes).toBeLessThanOrEqual(300);
    expect(cache.get('big', page('w'.repeat(4))).toString()).toBe('w'.repeat(400));
  });
});
