import { anyRangeHolds, clientAddress, parseAddress, parseRange } from '../src/address-ranges.js';

const holds = (range: string, address: string) => anyRangeHolds([parseRange(range)], parseAddress(address)!);

describe('address ranges (RFC 4632 CIDR, RFC 4291 IPv6 text, RFC 5952 output)', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7/32'],
    ['192.0.2.7/24', '192.0.2.0/24'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['::1', '::1/128'],
    ['2001:DB8::/32', '2001:db8::/32'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1/128'],
    ['::ffff:192.0.2.0/120', '192.0.2.0/24'],
  ])('reads %s as %s', (text, normal) => {
    expect(parseRange(text).text).toBe(normal);
  });

  it.each(['192.0.2.256', '192.0.2.0/33', '2001:db8::/129', 'localhost', '192.0.2.0/', '10.0.0.0/-1', ''])('refuses %s', (text) => {
    expect(() => parseRange(text)).toThrow(/CIDR|prefix/);
  });

  it.each([
    // a space inside is named, not reported as a bad prefix length
    ['192.0.2.1 /24', /white space/],
    ['192.0.2.1/ 24', /white space/],
    ['2001:db8:: /32', /white space/],
    ['192.0.2.0/', /prefix length after "\/" must be a whole number/],
    ['10.0.0.0/-1', /prefix length after "\/" must be a whole number/],
    ['192.0.2.0/33', /prefix length outside 0\.\.32/],
    ['::ffff:192.0.2.0/95', /prefix length outside 96\.\.128/],
  ])('says what is wrong with %s', (text, message) => {
    expect(() => parseRange(text)).toThrow(message);
  });

  it('::/0 is every IPv6 address, not IPv4 ones: a client reached over IPv4 needs an IPv4 range such as 0.0.0.0/0', () => {
    expect(holds('::/0', '2001:db8::1')).toBe(true);
    expect(holds('::/0', '203.0.113.9')).toBe(false);
    expect(holds('::/0', '::ffff:203.0.113.9')).toBe(false);
    expect(holds('::ffff:0:0/96', '203.0.113.9')).toBe(true);
  });

  it('matches by prefix, family by family; an IPv4-mapped address is its IPv4 address (RFC 4291 section 2.5.5.2)', () => {
    expect(holds('10.0.0.0/8', '10.255.1.2')).toBe(true);
    expect(holds('10.0.0.0/8', '11.0.0.1')).toBe(false);
    expect(holds('127.0.0.1/32', '::ffff:127.0.0.1')).toBe(true);
    expect(holds('2001:db8::/32', '2001:db8:ffff::1')).toBe(true);
    expect(holds('2001:db8::/32', '2001:db9::1')).toBe(false);
    expect(holds('::1/128', '127.0.0.1')).toBe(false);
    expect(holds('0.0.0.0/0', '203.0.113.9')).toBe(true);
  });

  it('the client is the socket peer unless that peer is a trusted proxy', () => {
    const trusted = [parseRange('10.0.0.0/8')];
    const v4 = (a: string) => parseAddress(a);
    expect(clientAddress('203.0.113.5', '198.51.100.1', trusted)).toEqual(v4('203.0.113.5'));
    expect(clientAddress('10.0.0.2', '198.51.100.1', trusted)).toEqual(v4('198.51.100.1'));
    // read from the right: the first hop not a trusted proxy is the client; what it claims further left is not believed
    expect(clientAddress('10.0.0.2', '192.0.2.66, 198.51.100.1, 10.0.0.3', trusted)).toEqual(v4('198.51.100.1'));
    expect(clientAddress('10.0.0.2', ['192.0.2.66', '10.9.9.9'], trusted)).toEqual(v4('192.0.2.66'));
    expect(clientAddress('10.0.0.2', undefined, trusted)).toEqual(v4('10.0.0.2'));
    expect(clientAddress('10.0.0.2', 'not-an-address', trusted)).toBeNull();
    expect(clientAddress('::ffff:10.0.0.2', '2001:db8::5', trusted)).toEqual(parseAddress('2001:db8::5'));
  });

  it('an X-Forwarded-For entry may carry a port, as some proxies send it (IPv6 in brackets, RFC 3986 section 3.2.2)', () => {
    const trusted = [parseRange('10.0.0.0/8')];
    expect(clientAddress('10.0.0.2', '203.0.113.9:5555', trusted)).toEqual(parseAddress('203.0.113.9'));
    expect(clientAddress('10.0.0.2', '[2001:db8::1]:443', trusted)).toEqual(parseAddress('2001:db8::1'));
    expect(clientAddress('10.0.0.2', '[2001:db8::1]', trusted)).toEqual(parseAddress('2001:db8::1'));
    // a trusted hop with a port is still skipped
    expect(clientAddress('10.0.0.2', '198.51.100.1:80, 10.0.0.3:8080', trusted)).toEqual(parseAddress('198.51.100.1'));
    // unbracketed IPv6 has no port: the text is the address
    expect(clientAddress('10.0.0.2', '2001:db8::1:443', trusted)).toEqual(parseAddress('2001:db8::1:443'));
    for (const bad of ['203.0.113.9:', '203.0.113.9:port', '203.0.113.9:123456', '[203.0.113.9]:80', '[2001:db8::1]:', 'localhost:80'])
      expect(clientAddress('10.0.0.2', bad, trusted)).toBeNull();
  });

  it('an empty X-Forwarded-For, or empty entries in it, name no hop (RFC 9110 section 5.6.1.2)', () => {
    const trusted = [parseRange('10.0.0.0/8')];
    expect(clientAddress('10.0.0.2', '', trusted)).toEqual(parseAddress('10.0.0.2'));
    expect(clientAddress('10.0.0.2', ' , ', trusted)).toEqual(parseAddress('10.0.0.2'));
    expect(clientAddress('10.0.0.2', ['', ''], trusted)).toEqual(parseAddress('10.0.0.2'));
    expect(clientAddress('10.0.0.2', '198.51.100.1, , 10.0.0.3,', trusted)).toEqual(parseAddress('198.51.100.1'));
    // the client cannot hide behind an empty entry: the hop the proxy appended still counts
    expect(clientAddress('10.0.0.2', '192.0.2.66, ', trusted)).toEqual(parseAddress('192.0.2.66'));
  });
});
