import { isIPv4, isIPv6 } from 'node:net';

/**
 * IPv4 and IPv6 addresses and CIDR ranges (RFC 4632, RFC 4291 section 2.3), as registered for an
 * archive user and as FIELDCAST_TRUSTED_PROXIES lists them. An IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`, how a dual-stack socket reports an IPv4 peer, RFC 4291 section 2.5.5.2) is
 * the IPv4 address.
 */
export interface AddressRange {
  family: 4 | 6;
  /** the network address, host bits cleared */
  network: bigint;
  prefix: number;
  /** as registered, normalised: `192.0.2.0/24`, `2001:db8::/32` */
  text: string;
}

export class AddressRangeError extends Error {}

interface Address {
  family: 4 | 6;
  value: bigint;
}

function v4Value(text: string): bigint {
  return text.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
}

function v6Value(text: string): bigint {
  // An IPv4 tail (`::ffff:192.0.2.1`) is the last two groups written as a dotted quad.
  const body = text.replace(/(\d+\.\d+\.\d+\.\d+)$/, (quad) => {
    const v4 = v4Value(quad);
    return `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  });
  const [head, rest] = body.includes('::') ? body.split('::') : [body, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => BigInt(parseInt(g, 16))) : []);
  const left = parse(head);
  const right = parse(rest);
  const groups = rest === undefined ? left : [...left, ...Array<bigint>(8 - left.length - right.length).fill(0n), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** An address from text, and whether it was written IPv4-mapped; null when it is none. */
function readAddress(raw: string): (Address & { mapped: boolean }) | null {
  const text = raw.trim().replace(/%[^%]*$/, ''); // an IPv6 zone (RFC 6874) names a link, not a host
  if (isIPv4(text)) return { family: 4, value: v4Value(text), mapped: false };
  if (!isIPv6(text)) return null;
  const value = v6Value(text);
  if (value >> 32n === 0xffffn) return { family: 4, value: value & 0xffffffffn, mapped: true };
  return { family: 6, value, mapped: false };
}

/** An address from text; null when it is none. */
export function parseAddress(raw: string): Address | null {
  const address = readAddress(raw);
  return address && { family: address.family, value: address.value };
}

function bits(family: 4 | 6): number {
  return family === 4 ? 32 : 128;
}

function formatNetwork(family: 4 | 6, value: bigint): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => ((value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  // RFC 5952: the longest run of two or more zero groups becomes "::".
  let best = { at: -1, len: 1 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best.len) best = { at: i, len: j - i };
    i = j === i ? i + 1 : j;
  }
  if (best.at < 0) return groups.join(':');
  return `${groups.slice(0, best.at).join(':')}::${groups.slice(best.at + best.len).join(':')}`;
}

/**
 * `192.0.2.1`, `192.0.2.0/24`, `2001:db8::/32`, `::1`; an address alone is a range of one. An
 * IPv6 range holds IPv6 addresses only: `::/0` is every IPv6 address and no IPv4 one, since an
 * IPv4 client is its IPv4 address however the socket reports it (`0.0.0.0/0` is every IPv4
 * address; `::ffff:0:0/96`, written IPv4-mapped, is read as that IPv4 range).
 */
export function parseRange(raw: string): AddressRange {
  const text = raw.trim();
  if (/\s/.test(text)) throw new AddressRangeError(`"${raw}" has white space inside; write a range without spaces (e.g. 192.0.2.0/24)`);
  const slash = text.indexOf('/');
  const address = readAddress(slash < 0 ? text : text.slice(0, slash));
  if (!address) throw new AddressRangeError(`"${raw}" is not an IPv4 or IPv6 address or CIDR range (e.g. 192.0.2.0/24, 2001:db8::/32)`);
  const max = bits(address.family);
  // A mapped IPv6 range (::ffff:192.0.2.0/120) is the IPv4 range of its last 32 bits.
  const offset = address.mapped ? 96 : 0;
  let prefix = max;
  if (slash >= 0) {
    const p = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(p))
      throw new AddressRangeError(`"${raw}": the prefix length after "/" must be a whole number ${offset}..${max + offset}`);
    prefix = Number(p) - offset;
    if (prefix < 0 || prefix > max) throw new AddressRangeError(`"${raw}" has a prefix length outside ${offset}..${max + offset}`);
  }
  const mask = prefix === 0 ? 0n : ((1n << BigInt(prefix)) - 1n) << BigInt(max - prefix);
  const network = address.value & mask;
  return { family: address.family, network, prefix, text: `${formatNetwork(address.family, network)}/${prefix}` };
}

export function rangeHolds(range: AddressRange, address: Address): boolean {
  if (range.family !== address.family) return false;
  const shift = BigInt(bits(range.family) - range.prefix);
  return address.value >> shift === range.network >> shift;
}

export function anyRangeHolds(ranges: readonly AddressRange[], address: Address): boolean {
  return ranges.some((r) => rangeHolds(r, address));
}

/**
 * One X-Forwarded-For entry: an address, or an address and port as some proxies append them
 * (`203.0.113.9:5555`; IPv6 in brackets, `[2001:db8::1]:443`, as in a URI's authority, RFC 3986
 * section 3.2.2). An IPv6 address without brackets has no port: its last group is part of it.
 */
function forwardedHop(entry: string): Address | null {
  const withPort = /^(?:\[([^\]]*)\]|([^:[\]]*))(?::(\d{1,5}))?$/.exec(entry);
  if (!withPort) return parseAddress(entry);
  const [, bracketed, v4, port] = withPort;
  if (port !== undefined && Number(port) > 65535) return null;
  if (bracketed !== undefined) return bracketed.includes(':') ? parseAddress(bracketed) : null;
  return v4 !== undefined && isIPv4(v4) ? parseAddress(v4) : null;
}

/**
 * The caller's address (docs/interface.md §11): the socket's peer, unless that peer is a trusted
 * reverse proxy, in which case X-Forwarded-For is read from the right, skipping trusted proxies,
 * and the first address that is not one is the caller's. A header from anyone else is ignored, so
 * a caller cannot claim an address by sending it. Empty entries name no hop (a list's empty
 * elements are ignored, RFC 9110 section 5.6.1.2), so an empty header is as if none were sent.
 * Null when no address can be told (a trusted proxy sent an entry that is no address).
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: readonly AddressRange[],
): Address | null {
  const peer = socketAddress === undefined ? null : parseAddress(socketAddress);
  if (!peer || !anyRangeHolds(trusted, peer) || forwardedFor === undefined) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  let current: Address = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!anyRangeHolds(trusted, current)) return current;
    const hop = forwardedHop(hops[i]!);
    if (!hop) return null;
    current = hop;
  }
  return current;
}

export type { Address };

/** The ranges an environment variable lists; a bad entry stops start-up naming the variable and the entry. */
export function configuredRanges(variable: string, list: readonly string[] | undefined): AddressRange[] {
  try {
    return (list ?? []).map(parseRange);
  } catch (err) {
    if (err instanceof AddressRangeError) throw new Error(`${variable}: ${err.message}`);
    throw err;
  }
}

/** The ranges FIELDCAST_TRUSTED_PROXIES lists. */
export const trustedProxyRanges = (list: readonly string[] | undefined): AddressRange[] =>
  configuredRanges('FIELDCAST_TRUSTED_PROXIES', list);
