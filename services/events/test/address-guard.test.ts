import { AddressGuard } from '../src/webhooks/address-guard.js';

describe('the address guard’s allow-list (FIELDCAST_WEBHOOK_ALLOW_PRIVATE)', () => {
  test('reads its entries as every other address range is read (the kit’s parseRange)', () => {
    // an IPv4-mapped range is the IPv4 range of its last 32 bits, here 10.0.0.0/24
    const mapped = new AddressGuard(['::ffff:10.0.0.0/120'], false);
    expect(mapped.refusal('10.0.0.9')).toBeNull();
    expect(mapped.refusal('::ffff:10.0.0.9')).toBeNull();
    expect(mapped.refusal('10.0.1.1')).not.toBeNull();
    // host bits after the prefix are ignored, as for a registered archive range
    expect(new AddressGuard(['10.1.2.3/16'], false).refusal('10.1.200.3')).toBeNull();
    // an entry written through NAT64 allows the address so written
    expect(new AddressGuard(['64:ff9b::a00:1'], false).refusal('64:ff9b::a00:1')).toBeNull();
  });

  test('refuses a bad entry naming the variable and the entry', () => {
    for (const [bad, why] of [
      ['10.0.0.0/x', /the prefix length after "\/" must be a whole number/],
      ['10.0.0.0/33', /prefix length outside 0\.\.32/],
      ['::ffff:10.0.0.0/40', /prefix length outside 96\.\.128/],
      ['10.0.0.0/8/1', /whole number/],
      ['localhost', /is not an IPv4 or IPv6 address/],
    ] as const) {
      expect(() => new AddressGuard([bad])).toThrow(`FIELDCAST_WEBHOOK_ALLOW_PRIVATE: "${bad}"`);
      expect(() => new AddressGuard([bad])).toThrow(why);
    }
  });
});
