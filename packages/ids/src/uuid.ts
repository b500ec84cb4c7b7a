/**
 * Name-based UUIDs (RFC 9562 section 5.5, formerly RFC 4122 section 4.3: version 5, SHA-1).
 * docs/architecture.md §3: derived records get UUID v5 of their natural key, so every service
 * computes the same id without coordination.
 */
import { createHash } from 'node:crypto';

/** RFC 9562 appendix A namespace for URLs. */
export const NAMESPACE_URL = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

/** RFC 9562 appendix A namespace for DNS names. */
export const NAMESPACE_DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuidBytes(uuid: string): Buffer {
  if (!UUID_RE.test(uuid)) throw new TypeError(`not a UUID: ${uuid}`);
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

/** UUID v5 of `name` (UTF-8) in `namespace`. */
export function uuidv5(name: string, namespace: string): string {
  const hash = createHash('sha1').update(uuidBytes(namespace)).update(name, 'utf8').digest();
  const b = hash.subarray(0, 16);
  b[6] = ((b[6] as number) & 0x0f) | 0x50;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The namespace of every Fieldcast-derived id: UUID v5 of the project URL in the URL namespace,
 * fixed forever (changing it would change every product, model, style, frame and forecast id).
 */
export const FIELDCAST_NAMESPACE = uuidv5('https://fieldcast.dev/ids', NAMESPACE_URL);

/** UUID v5 of a natural key in the Fieldcast namespace, e.g. fieldcastId('product', 'air-temperature'). */
export function fieldcastId(...key: string[]): string {
  return uuidv5(key.join(':'), FIELDCAST_NAMESPACE);
}
