import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may never reach unless allowed by name: loopback, private, link-local,
 * shared (CGNAT), unspecified, benchmarking, documentation-free reserved and multicast ranges
 * (RFC 6890 special-purpose registries), in both families.
 */
const SPECIAL_RANGES: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

export class AddressRefused extends Error {}

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is checked as the IPv4 address it is. */
function normalise(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/**
 * Which addresses webhook connections may reach (docs/decisions/0261-webhook-address-guard.md):
 * every public address, and of the special ranges only what FIELDCAST_WEBHOOK_ALLOW_PRIVATE
 * names (addresses or CIDR ranges). `publicAllowed` false (test fleets) reaches nothing but what
 * is named, so no test can reach a real server.
 */
export class AddressGuard {
  private readonly special = new BlockList();
  private readonly allowed = new BlockList();

  constructor(
    allowPrivate: readonly string[],
    private readonly publicAllowed = true,
  ) {
    for (const [net, prefix, family] of SPECIAL_RANGES) this.special.addSubnet(net, prefix, family);
    for (const entry of allowPrivate) {
      const [net, prefix] = entry.split('/');
      const { address, family } = normalise(net!);
      if (!isIP(address)) throw new Error(`FIELDCAST_WEBHOOK_ALLOW_PRIVATE: ${entry} is no address or CIDR range`);
      if (prefix === undefined) this.allowed.addAddress(address, family);
      else this.allowed.addSubnet(address, Number(prefix), family);
    }
  }

  /** Why the address may not be reached, or null. */
  refusal(raw: string): string | null {
    const { address, family } = normalise(raw);
    if (this.allowed.check(address, family)) return null;
    if (this.special.check(address, family)) return `${raw} is a private, loopback or link-local address`;
    if (!this.publicAllowed) return `${raw} is not an allowed address`;
    return null;
  }

  /** Why a URL's host may not be reached, when it is a literal address; a name is checked when connecting. */
  refusalOfHost(host: string): string | null {
    return isIP(host) ? this.refusal(host) : null;
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
      if (err) return callback(err, '', 0);
      const refused = addresses.map((a) => this.refusal(a.address)).find((r) => r !== null);
      if (refused) return callback(Object.assign(new AddressRefused(`${hostname}: ${refused}`), { code: 'EADDRREFUSED' }), '', 0);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}
