/**
 * The authorities (RFC 3986 section 3.2: host and port) the console answers at while its config
 * holds credentials. A page whose DNS name rebinds to this machine is read by the viewer's browser
 * with the page's own name as Host, so answering only the loopback names keeps /config.json, with
 * the demo account's key, from such a page (RFC 9110 section 7.2; decision 0416).
 */

/** The names a browser on this machine reaches a loopback listener at. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

/** RFC 3986 section 3.2.2-3.2.3: a name or IPv4 address, or an IP literal in brackets, then an optional port. */
const AUTHORITY = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i;

/**
 * An authority as the console compares it: the host as WHATWG URL normalises it (lower case,
 * IPv6 compressed), then `:port` when one is written; null when the text is no authority.
 */
export function authorityKey(text: string | undefined): string | null {
  const match = text === undefined ? null : AUTHORITY.exec(text);
  if (!match) return null;
  let host: string;
  try {
    host = new URL(`http://${match[1]}`).hostname;
  } catch {
    return null;
  }
  return match[2] === undefined ? host : `${host}:${Number(match[2])}`;
}

/** The keys of the authorities the console answers at when it holds credentials: the loopback names at the port it listens on. */
export function consoleAuthorities(port: number): ReadonlySet<string> {
  return new Set<string>(LOOPBACK_NAMES.map((name) => `${name}:${port}`));
}
