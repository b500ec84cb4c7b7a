import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { FileCache, type Maker } from '../src/domain/file-cache.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'transfer-cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const key = (s: string) => createHash('sha256').update(s).digest('hex');

/** A maker of `size` bytes of `fill`, written in two positional writes (the second first), counting its calls. */
function maker(size: number, fill: number) {
  const calls = { count: 0 };
  const make: Maker = async (path) => {
    calls.count++;
    const half = Math.floor(size / 2);
    const handle = await open(path, 'w');
    await handle.write(Buffer.alloc(size - half, fill), 0, size - half, half);
    await handle.write(Buffer.alloc(half, fill), 0, half, 0);
    await handle.close();
    return size;
  };
  return { make, calls };
}

describe('the file cache', () => {
  it('makes a file once, records its size and SHA-256, and serves it again without making it', async () => {
    let now = 1;
    const cache = new FileCache(dir, 1000, () => now);
    const m = maker(100, 7);
    const file = await cache.get(key('a'), 'tif', m.make);
    expect(file.size).toBe(100);
    expect(file.sha256).toBe(createHash('sha256').update(Buffer.alloc(100, 7)).digest('hex'));
    expect(file.path.endsWith(`${key('a')}.tif`)).toBe(true);
    now = 2;
    expect((await cache.get(key('a'), 'tif', m.make)).usedMs).toBe(2);
    expect(m.calls.count).toBe(1);
    expect(await cache.peek(key('b'))).toBeUndefined();
  });

  it('shares one making between simultaneous requests', async () => {
    const cache = new FileCache(dir, 1000);
    const m = maker(50, 1);
    const files = await Promise.all(Array.from({ length: 5 }, () => cache.get(key('a'), 'nc', m.make)));
    expect(m.calls.count).toBe(1);
    expect(new Set(files.map((f) => f.path)).size).toBe(1);
  });

  it('drops the least recently used files once the cap is passed', async () => {
    let now = 0;
    const cache = new FileCache(dir, 250, () => now);
    for (const name of ['a', 'b', 'c']) {
      now++;
      await cache.get(key(name), 'tif', maker(100, 1).make);
    }
    // a (oldest) went when c came: 300 > 250.
    expect(await cache.peek(key('a'))).toBeUndefined();
    now++;
    await cache.get(key('b'), 'tif', maker(100, 1).make); // b is now the most recent
    now++;
    await cache.get(key('d'), 'tif', maker(100, 1).make);
    expect(await cache.peek(key('c'))).toBeUndefined();
    expect(await cache.peek(key('b'))).toBeDefined();
    expect(cache.bytes).toBe(200);
    expect(readdirSync(dir).sort()).toEqual([`${key('b')}.json`, `${key('b')}.tif`, `${key('d')}.json`, `${key('d')}.tif`].sort());
  });

  it('keeps a file larger than the cap alone, until the next one', async () => {
    const cache = new FileCache(dir, 50);
    await cache.get(key('big'), 'tif', maker(80, 1).make);
    expect(await cache.peek(key('big'))).toBeDefined();
  });

  it('finds the files of an earlier process, and removes half-made ones and records without their file', async () => {
    const first = new FileCache(dir, 1000);
    await first.get(key('a'), 'tif', maker(10, 3).make);
    writeFileSync(join(dir, `${key('x')}.123.tmp`), 'half');
    writeFileSync(join(dir, `${key('y')}.json`), JSON.stringify({ file: `${key('y')}.tif`, size: 5, sha256: 'f' }));
    const second = new FileCache(dir, 1000);
    const found = await second.peek(key('a'));
    expect(found?.size).toBe(10);
    const m = maker(10, 3);
    await second.get(key('a'), 'tif', m.make);
    expect(m.calls.count).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([`${key('a')}.json`, `${key('a')}.tif`].sort());
  });

  it('leaves nothing behind when making fails, and makes it again on the next request', async () => {
    const cache = new FileCache(dir, 1000);
    await expect(
      cache.get(key('a'), 'tif', async () => {
        throw new Error('the weather failed');
      }),
    ).rejects.toThrow('the weather failed');
    expect(readdirSync(dir)).toEqual([]);
    expect((await cache.get(key('a'), 'tif', maker(4, 1).make)).size).toBe(4);
  });
});
