import { gzipSync } from 'node:zlib';
import { documentCache } from '../src/document-cache.js';
import { StoredDocument } from '../src/store.js';

describe('the document cache (docs/decisions/0153-observation-document-cache.md)', () => {
  const bytes = (n: number) => Buffer.alloc(n, 1);

  it('keeps documents within its byte budget, least recently used out', () => {
    const cache = documentCache(100);
    cache.set('a', { accountId: 'acct', bytes: bytes(40) });
    cache.set('b', { accountId: 'acct', bytes: bytes(40) });
    expect(cache.get('a')?.bytes.byteLength).toBe(40); // a is now the most recent
    cache.set('c', { accountId: 'acct', bytes: bytes(40) });
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.heldWeight).toBe(80);
  });

  it('keeps the owner with the bytes, and never a document larger than the budget', () => {
    const cache = documentCache(100);
    cache.set('a', { accountId: 'alice', bytes: bytes(10) });
    expect(cache.get('a')?.accountId).toBe('alice');
    cache.set('big', { accountId: 'alice', bytes: bytes(101) });
    expect(cache.get('big')).toBeUndefined();
    expect(cache.heldWeight).toBe(10);
  });

  it('keeps the text of a document decompressed for a client that takes no gzip: a second read decompresses nothing', async () => {
    const text = Buffer.from('{"sites":[]}');
    const texts = documentCache(100);
    const document = new StoredDocument(gzipSync(text), 'a', 'alice', texts);
    const first = await document.text();
    expect(first.equals(text)).toBe(true);
    expect(texts.heldWeight).toBe(text.byteLength);
    expect(await new StoredDocument(gzipSync(text), 'a', 'alice', texts).text()).toBe(first);
  });
});
