import { byteRange } from '../src/domain/byte-ranges.js';
import { UrlSigner } from '../src/domain/signing.js';
import { datasetGrid } from '../src/domain/grid-rows.js';

describe('Range (RFC 9110 section 14)', () => {
  it.each([
    [undefined, { kind: 'whole' }],
    ['bytes=0-9', { kind: 'part', start: 0, end: 9 }],
    ['bytes=90-', { kind: 'part', start: 90, end: 99 }],
    ['bytes=90-500', { kind: 'part', start: 90, end: 99 }],
    ['bytes=-10', { kind: 'part', start: 90, end: 99 }],
    ['bytes=-500', { kind: 'part', start: 0, end: 99 }],
    ['bytes=100-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=0-1,5-6', { kind: 'whole' }],
    ['bytes=100-200,5-6', { kind: 'part', start: 5, end: 6 }],
    ['bytes=5-1', { kind: 'whole' }],
    ['items=0-1', { kind: 'whole' }],
    ['bytes=a-b', { kind: 'whole' }],
  ])('%s of 100 bytes', (header, answer) => {
    expect(byteRange(header, 100)).toEqual(answer);
  });
});

describe('signed links', () => {
  let now = new Date('2026-01-01T00:00:00Z');
  const signer = new UrlSigner(Buffer.from('k'.repeat(32)), () => now);

  it('verifies its own signature for an hour, then calls it expired', () => {
    now = new Date('2026-01-01T00:00:00Z');
    const s = signer.sign('/products/p/datasets/d.tif', 'acct');
    expect(s.expires).toBe(Date.parse('2026-01-01T01:00:00Z') / 1000);
    expect(signer.verify('/products/p/datasets/d.tif', s)).toBe('valid');
    now = new Date('2026-01-01T01:00:01Z');
    expect(signer.verify('/products/p/datasets/d.tif', s)).toBe('expired');
  });

  it('refuses another path, account, expiry, key or signature', () => {
    now = new Date('2026-01-01T00:00:00Z');
    const s = signer.sign('/products/p/datasets/d.tif', 'acct');
    expect(signer.verify('/products/p/datasets/e.tif', s)).toBe('invalid');
    expect(signer.verify('/products/p/datasets/d.tif', { ...s, account: 'other' })).toBe('invalid');
    expect(signer.verify('/products/p/datasets/d.tif', { ...s, expires: s.expires + 1 })).toBe('invalid');
    expect(signer.verify('/products/p/datasets/d.tif', { ...s, signature: s.signature.slice(1) })).toBe('invalid');
    expect(new UrlSigner(Buffer.from('j'.repeat(32)), () => now).verify('/products/p/datasets/d.tif', s)).toBe('invalid');
  });
});

describe('dataset grids', () => {
  it('fills the globe at 0.25 degrees with 1440 x 720 cells, centres half a cell inside the edges', () => {
    const g = datasetGrid([-180, -90, 180, 90], 0.25);
    expect([g.lons.length, g.lats.length]).toEqual([1440, 720]);
    expect([g.lons[0], g.lons[1439], g.lats[0], g.lats[719]]).toEqual([-179.875, 179.875, 89.875, -89.875]);
    expect(g.bounds).toEqual([-180, -90, 180, 90]);
  });

  it('keeps decimal centres free of binary noise', () => {
    const g = datasetGrid([0, 0, 1, 1], 0.1);
    expect([...g.lons]).toEqual([0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95]);
  });
});
