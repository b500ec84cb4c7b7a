/**
 * Name-based UUIDs (RFC 9562 section 5.5, formerly RFC 4122 section 4.3: version 5, SHA-1).
 * docs/architecture.md §3: derived records get UUID v5 of their natural key, so every service
 * computes the same id without coordination. The one implementation of UUID v5 and of the UUID
 * pattern in the project.
 */
import { hash } from 'node:crypto';

/** RFC 9562 appendix A namespace for URLs. */
export const NAMESPACE_URL = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

/** RFC 9562 appendix A namespace for DNS names. */
export const NAMESPACE_DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

/** A UUID in its 8-4-4-4-12 hex form (RFC 9562 section 4), any case. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(s: string): boolean {
  return UUID_PATTERN.test(s);
}

function uuidBytes(uuid: string): Buffer {
  if (!isUuid(uuid)) throw new TypeError(`not a UUID: ${uuid}`);
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

/** The 16 bytes of UUID v5 of `name` (UTF-8) in the namespace whose bytes are given. */
function uuidv5Bytes(name: string, namespace: Buffer): Buffer {
  // one-shot hash: half the time of a Hash object, which a frame index pays 700,000 times at start
  const b = hash('sha1', Buffer.concat([namespace, Buffer.from(name, 'utf8')]), 'buffer').subarray(0, 16);
  // version 5 in the high half of byte 6, variant 10 in byte 8 (RFC 9562 section 5.5)
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  return b;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** 16 bytes as a lower-case UUID, written byte by byte: frame lists write one per frame, a hundred a page. */
function formatUuid(b: Uint8Array): string {
  const h = (i: number) => HEX[b[i]!]!;
  return `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${h(6)}${h(7)}-${h(8)}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`;
}

/** UUID v5 of `name` (UTF-8) in `namespace`. */
export function uuidv5(name: string, namespace: string): string {
  return formatUuid(uuidv5Bytes(name, uuidBytes(namespace)));
}

/**
 * The namespace of every Fieldcast-derived id: UUID v5 of the project URL in the URL namespace,
 * fixed forever (changing it would change every product, model, style, frame and forecast id).
 */
export const FIELDCAST_NAMESPACE = uuidv5('https://fieldcast.dev/ids', NAMESPACE_URL);

const FIELDCAST_NAMESPACE_BYTES = uuidBytes(FIELDCAST_NAMESPACE);

/** The 16 bytes of `fieldcastId(...key)`, for an index that keeps ids as numbers. */
export function fieldcastIdBytes(...key: string[]): Buffer {
  return uuidv5Bytes(key.length === 1 ? key[0]! : key.join(':'), FIELDCAST_NAMESPACE_BYTES);
}

/** UUID v5 of a natural key in the Fieldcast namespace, e.g. fieldcastId('product', 'air-temperature'). */
export function fieldcastId(...key: string[]): string {
  return formatUuid(fieldcastIdBytes(...key));
}
