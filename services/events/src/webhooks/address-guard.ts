import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { type AddressRange, anyRangeHolds, configuredRanges, parseAddress } from '@fieldcast/kit';

/**
 * Addresses a webhook may never reach unless allowed by name: loopback, private, link-local,
 * shared (CGNAT), unspecified, benchmarking, documentation (TEST-NET-1 to 3, 2001:db8::/32,
 * 3fff::/20 of RFC 9637), reserved and multicast ranges and the IETF protocol assignments (RFC
 * 6890 special-purpose registries), in both families; the local-use NAT64 prefix (RFC 8215) too,
 * whose embedding is the network's own, the deprecated IPv4-compatible addresses (::/96, RFC 4291
 * 2.5.5.1) and SRv6 segment identifiers (5f00::/16, RFC 9602), which no public host has.
 */
const SPECIAL_RANGES: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.88.99.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 96, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001::', 23, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['3fff::', 20, 'ipv6'],
  ['5f00::', 16, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

export class AddressRefused extends Error {}

/** Why an address may not be reached, said after it (or after "resolves to an address that"). */
const REFUSALS = {
  special: 'is a special-purpose address (private, loopback, link-local, documentation or reserved; RFC 6890)',
  notAllowed: 'is not an allowed address',
} as const;

/**
 * Why a host name may not be reached, said after it, whether it does not resolve or resolves to a
 * special-purpose address: the two read alike, so an account cannot learn which names the
 * deployment's own DNS knows (an internal `postgres.internal` resolves to a private address, a
 * made-up name not at all), while a mistyped public name still reads as the likely mistake.
 */
const UNREACHABLE_NAME =
  'has no address a webhook may reach (the name does not resolve, or resolves to a special-purpose address: private, loopback, link-local, documentation or reserved; RFC 6890)';

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part as two groups). */
function groupsOf(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const hex = dotted
    ? `${address.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16)}`
    : address;
  const [head, tail] = hex.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * IPv6 prefixes that carry an IPv4 address the packet goes to, each with the first of the two
 * 16-bit groups that hold it: the last 32 bits of IPv4-mapped addresses (RFC 4291 2.5.5.2) and of
 * the well-known NAT64 prefix (RFC 6052 2.1), bits 16 to 47 of 6to4 (RFC 3056 2).
 */
const IPV4_EMBEDDINGS: readonly { prefix: BlockList; group: number }[] = [
  ['::ffff:0:0', 96, 6],
  ['64:ff9b::', 96, 6],
  ['2002::', 16, 1],
].map(([net, bits, group]) => {
  const prefix = new BlockList();
  prefix.addSubnet(net as string, bits as number, 'ipv6');
  return { prefix, group: group as number };
});

/**
 * An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) or reached through the well-known NAT64
 * prefix (`64:ff9b::10.0.0.1`) or 6to4 (`2002:a00:1::1`) is checked as the IPv4 address it is.
 */
function normalise(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  if (isIP(address) !== 6) return { address, family: 'ipv4' };
  const embedding = IPV4_EMBEDDINGS.find((e) => e.prefix.check(address, 'ipv6'));
  if (!embedding) return { address, family: 'ipv6' };
  const groups = groupsOf(address);
  const [high, low] = [groups[embedding.group] ?? 0, groups[embedding.group + 1] ?? 0];
  return { address: [high >> 8, high & 255, low >> 8, low & 255].join('.'), family: 'ipv4' };
}

/**
 * Which addresses webhook connections may reach (docs/decisions/0261-webhook-address-guard.md):
 * every public address, and of the special ranges only what FIELDCAST_WEBHOOK_ALLOW_PRIVATE
 * names (addresses or CIDR ranges, read as the kit reads every range). `publicAllowed` false
 * (test fleets) reaches nothing but what is named, so no test can reach a real server.
 */
export class AddressGuard {
  private readonly special = new BlockList();
  private readonly allowed: readonly AddressRange[];

  constructor(
    allowPrivate: readonly string[],
    private readonly publicAllowed = true,
  ) {
    for (const [net, prefix, family] of SPECIAL_RANGES) this.special.addSubnet(net, prefix, family);
    this.allowed = configuredRanges('FIELDCAST_WEBHOOK_ALLOW_PRIVATE', allowPrivate);
  }

  /** Why the address may not be reached, or null. */
  refusal(raw: string): string | null {
    const kind = this.refused(raw);
    return kind === null ? null : `${raw} ${REFUSALS[kind]}`;
  }

  /** Which refusal applies to the address, or null when it may be reached. */
  private refused(raw: string): keyof typeof REFUSALS | null {
    const { address, family } = normalise(raw);
    if (this.named(raw)) return null;
    if (this.special.check(address, family)) return 'special';
    if (!this.publicAllowed) return 'notAllowed';
    return null;
  }

  /**
   * Why a webhook URL may not be used: a scheme other than https (HTTP 1.1 Web Hooks for Event
   * Delivery 2.1: delivery requests MUST use HTTPS), except to an address FIELDCAST_WEBHOOK_ALLOW_PRIVATE
   * names (a receiver on the same network, tests); or a literal address that may not be reached.
   * A host name is checked when connecting.
   */
  refusalOfUrl(url: URL): string | null {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(host) !== 0;
    if (url.protocol !== 'https:' && !(literal && this.named(host)))
      return 'must be an https URL (only an address FIELDCAST_WEBHOOK_ALLOW_PRIVATE names may be reached over http)';
    return literal ? this.refusal(host) : null;
  }

  /**
   * Whether FIELDCAST_WEBHOOK_ALLOW_PRIVATE names the address, as written or as the IPv4 address
   * it carries (an allowed 10.0.0.1 allows `64:ff9b::10.0.0.1`).
   */
  private named(raw: string): boolean {
    return [raw, normalise(raw).address].some((text) => {
      const address = parseAddress(text);
      return address !== null && anyRangeHolds(this.allowed, address);
    });
  }

  /** Throws AddressRefused for an address that may not be reached. */
  check(address: string): void {
    const reason = this.refusal(address);
    if (reason) throw new AddressRefused(reason);
  }

  /**
   * A `lookup` for an http(s) Agent: resolves every address of the host and refuses the
   * connection when any of them may not be reached, so the check applies to the address
   * actually connected to, on every new connection (a DNS answer that changes after the
   * handshake gains nothing).
   */
  readonly lookup = (
    hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      // The error reaches the account (attempts, statusMessage): it says why, never which
      // addresses the deployment's own DNS gave, nor whether it knows the name at all, which
      // would map the network it runs in (docs/decisions/0401-webhook-host-names-not-probed.md).
      const refuse = (reason: string) =>
        callback(Object.assign(new AddressRefused(`${hostname}: ${reason}`), { code: 'EADDRREFUSED' }), '', 0);
      const found = err ? [] : addresses;
      const refused = found.map((a) => this.refused(a.address)).find((r) => r !== null);
      if (found.length === 0 || refused === 'special') return refuse(UNREACHABLE_NAME);
      if (refused) return refuse(`resolves to an address that ${REFUSALS[refused]}`);
      if (options.all) return callback(null, found);
      const first = found[0]!;
      callback(null, first.address, first.family);
    });
  };
}
