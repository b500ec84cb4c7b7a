/** How far a webhook's timestamp may be from the receiver's clock (Standard Webhooks: replayed requests are refused). */
const TOLERANCE_SECONDS = 5 * 60;

/** Request headers as a Fetch `Headers` or a Node `IncomingHttpHeaders` gives them. */
type HeadersLike = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

/** A request body as received: text, or its bytes (a Node Buffer is a Uint8Array). */
type RawBody = string | Uint8Array | ArrayBuffer;

function header(headers: HeadersLike, name: string): string | null {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name);
  // Field names are case-insensitive (RFC 9110 §5.1): Node lowercases them, but a plain object
  // from another framework (a serverless event, a test) may keep the sender's case.
  const record = headers as Record<string, string | string[] | undefined>;
  const key = name in record ? name : Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
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
 * The HMAC key of a Standard Webhooks secret: the bytes of the base64 after `whsec_`. A secret
 * that is not one is a receiver's misconfiguration, not a forged request, so it throws rather
 * than refusing every delivery in silence.
 */
function secretBytes(secret: unknown): Uint8Array<ArrayBuffer> {
  const bytes = typeof secret === 'string' ? base64Bytes(secret.replace(/^whsec_/, '')) : null;
  if (!bytes || bytes.length === 0) {
    throw new TypeError(
      'verifyWebhook: the secret must be the subscription’s signing secret, whsec_ followed by base64 (docs/interface.md §10)',
    );
  }
  return bytes;
}

/** The signed content, `${id}.${timestamp}.` then the body's bytes exactly as received. */
function signedContent(id: string, timestamp: string, body: RawBody): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  if (typeof body === 'string') return encoder.encode(`${id}.${timestamp}.${body}`);
  const head = encoder.encode(`${id}.${timestamp}.`);
  const bytes = ArrayBuffer.isView(body) ? body : new Uint8Array(body);
  const signed = new Uint8Array(head.length + bytes.length);
  signed.set(head);
  signed.set(bytes, head.length);
  return signed;
}

/**
 * Whether a webhook request came from Fieldcast, per Standard Webhooks: `webhook-signature` holds
 * `v1,<base64 HMAC-SHA256>` of `${webhook-id}.${webhook-timestamp}.${body}` keyed with the
 * subscription's secret (base64 after `whsec_`), and the timestamp is within five minutes of now.
 * Pass the body exactly as received, before any JSON parsing: its text or its bytes. Malformed or
 * missing headers answer false; a secret that is not a `whsec_` secret throws a TypeError. Web
 * Crypto only, so it runs in Node 20+, browsers and workers alike.
 *
 *   const ok = await verifyWebhook(process.env.FIELDCAST_WEBHOOK_SECRET!, rawBody, req.headers);
 */
export async function verifyWebhook(
  secret: string,
  body: RawBody,
  headers: HeadersLike,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): Promise<boolean> {
  const keyBytes = secretBytes(secret);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? TOLERANCE_SECONDS)) return false;
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  // Signed once, however many signatures the header holds: a forged one of thousands must not
  // cost a pass over the body each.
  const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, signedContent(id, timestamp, body)));
  // Several space-separated signatures may be sent (a secret being rotated): any one will do.
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',');
    const mac = version === 'v1' && value ? base64Bytes(value) : null;
    if (mac && sameBytes(mac, expected)) return true;
  }
  return false;
}

/** Whether two byte strings are equal, in a time that does not depend on where they first differ (no early exit). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
