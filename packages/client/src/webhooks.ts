/** How far a webhook's timestamp may be from the receiver's clock (Standard Webhooks: replayed requests are refused). */
const TOLERANCE_SECONDS = 5 * 60;

/** Request headers as a Fetch `Headers` or a Node `IncomingHttpHeaders` gives them. */
type HeadersLike = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function header(headers: HeadersLike, name: string): string | null {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name);
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * Whether a webhook request came from Fieldcast, per Standard Webhooks: `webhook-signature` holds
 * `v1,<base64 HMAC-SHA256>` of `${webhook-id}.${webhook-timestamp}.${body}` keyed with the
 * subscription's secret (base64 after `whsec_`), and the timestamp is within five minutes of now.
 * Pass the body exactly as received, before any JSON parsing. Web Crypto only, so it runs in
 * Node 20+, browsers and workers alike.
 *
 *   const ok = await verifyWebhook(process.env.FIELDCAST_WEBHOOK_SECRET!, rawBody, req.headers);
 */
export async function verifyWebhook(
  secret: string,
  body: string,
  headers: HeadersLike,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): Promise<boolean> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? TOLERANCE_SECONDS)) return false;
  const keyBytes = base64Bytes(secret.replace(/^whsec_/, ''));
  if (!keyBytes) return false;
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  // Several space-separated signatures may be sent (a secret being rotated): any one will do.
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',');
    const mac = version === 'v1' && value ? base64Bytes(value) : null;
    // subtle.verify compares in constant time.
    if (mac && (await crypto.subtle.verify('HMAC', key, mac, signed))) return true;
  }
  return false;
}
