import { createHmac } from 'node:crypto';
import { httpDateMs } from '@fieldcast/calendar';
import type { Event } from '@fieldcast/schemas';

/** A 2xx within this long is a delivery (docs/decisions/0260-webhook-delivery.md). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** A delivery still failing this long after its first attempt is dead-lettered. */
export const DEAD_LETTER_AFTER_MS = 24 * 3600_000;
/** Dead letters in a row, with no delivery between, after which a subscription is paused. */
export const PAUSE_AFTER_DEAD_LETTERS = 3;
/** The first retry's pause, doubled per attempt up to MAX_BACKOFF_MS. */
export const FIRST_BACKOFF_MS = 10_000;
/**
 * The longest pause before a retry, and the longest wait a receiver's Retry-After gets: it is
 * observed (HTTP 1.1 Web Hooks for Event Delivery 2.2, on 429 and 503) up to the longest backoff,
 * so a mistaken or hostile value cannot park a delivery past the hours its retries span.
 */
export const MAX_BACKOFF_MS = 3600_000;
/** Attempts kept in a delivery's log (the count goes on). */
export const ATTEMPTS_KEPT = 50;
/**
 * How long a delivery that ended (delivered, or a dead letter) is kept after it ended: the owner's
 * record of what was sent, and the time a dead letter can be retried. Well past the broker's
 * retention of a topic (7 days by default), so a fan-out message replayed from the topic finds
 * its row and adds no second delivery.
 */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3600_000;
/** How often the retention task looks for deliveries past DELIVERY_RETENTION_MS. */
export const DELIVERY_RETENTION_EVERY_MS = 3600_000;

/**
 * The pause after failed attempt `attempt` (1 = the first): exponential from FIRST_BACKOFF_MS,
 * capped at MAX_BACKOFF_MS, with "equal jitter" (half fixed, half random) so receivers that come
 * back are not hit by every sender at the same instant. `random` is in [0, 1).
 */
export function backoffMs(attempt: number, random: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.min(attempt - 1, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

/**
 * The wait a Retry-After header asks for, from `now` (RFC 9110 section 10.2.3: delay-seconds or
 * an HTTP-date), capped at MAX_BACKOFF_MS; null when there is none or it cannot be read.
 */
export function retryAfterMs(header: string | string[] | undefined, now: Date): number | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return null;
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : httpDateMs(value) - now.getTime();
  if (Number.isNaN(ms)) return null;
  return Math.min(MAX_BACKOFF_MS, Math.max(0, ms));
}

/**
 * The pause after failed attempt `attempt`, counted from the end of that attempt: the backoff,
 * or longer when the receiver's Retry-After asks for more (the sender MUST observe it, HTTP 1.1
 * Web Hooks for Event Delivery 2.2).
 */
export function nextAttemptDelayMs(attempt: number, random: number, retryAfter: string | string[] | undefined, now: Date): number {
  return Math.max(backoffMs(attempt, random), retryAfterMs(retryAfter, now) ?? 0);
}

/**
 * Until when a receiver asked, by a failed answer's Retry-After, to be sent nothing (HTTP 1.1 Web
 * Hooks for Event Delivery 2.2: the sender refrains from sending further requests until the
 * indicated time), capped as retryAfterMs caps it; null when the answer asked for no pause. It
 * holds every delivery to the URL, not only the one answered
 * (docs/decisions/0375-retry-after-holds-the-url.md).
 */
export function heldUntil(retryAfter: string | string[] | undefined, now: Date): Date | null {
  const ms = retryAfterMs(retryAfter, now);
  return ms === null || ms === 0 ? null : new Date(now.getTime() + ms);
}

/**
 * The highest allowed rate kept, in requests per minute: far past what one subscription's 8 sends
 * in flight reach, and what a PostgreSQL integer holds.
 */
export const ALLOWED_RATE_MAX = 2 ** 31 - 1;

/** What a handshake answer's WebHook-Allowed-Rate grants: requests per minute (null: no limit), or nothing. */
export type AllowedRate = { ok: true; perMinute: number | null } | { ok: false; value: string };

/**
 * Reads a handshake answer's WebHook-Allowed-Rate (HTTP 1.1 Web Hooks for Event Delivery 4.2.2):
 * `*` is no limit, a positive whole number is requests per minute. Any other value grants nothing,
 * since a target allows delivery by answering with that header (4.2) and its value is one of those
 * two. An answer without it states no limit: the header is only a SHOULD when the request asked
 * for no rate, as ours does not (docs/decisions/0396-receivers-allowed-rate.md).
 */
export function allowedRate(header: string | string[] | undefined): AllowedRate {
  if (header === undefined) return { ok: true, perMinute: null };
  const value = (Array.isArray(header) ? header.join(', ') : header).trim();
  if (value === '*') return { ok: true, perMinute: null };
  if (!/^\d+$/.test(value) || Number(value) === 0) return { ok: false, value };
  return { ok: true, perMinute: Math.min(Number(value), ALLOWED_RATE_MAX) };
}

/** The CloudEvent type of a Fieldcast event: its namespace under `fieldcast.`, slashes as dots. */
export function cloudEventType(namespace: string): string {
  return `fieldcast.${namespace.replaceAll('/', '.')}`;
}

/**
 * The CloudEvent 1.0 a subscriber receives, structured mode (CloudEvents HTTP binding 3.2,
 * `application/cloudevents+json`): id = the event's id, so id and source name the event
 * (CloudEvents 1.0, id), the same in every subscription's message and every attempt; source =
 * the emitting application's feed; subject = the resource it is about; time = when it happened;
 * data = the Event (spec 2.10).
 */
export function cloudEventBody(event: Event, appId: string): string {
  return JSON.stringify({
    specversion: '1.0',
    id: event.id,
    source: `/apps/${appId}`,
    type: cloudEventType(event.namespace),
    subject: event.origin.id,
    time: event.occurrenceTime,
    datacontenttype: 'application/json',
    data: event,
  });
}

/**
 * The Standard Webhooks signature headers of one request: `webhook-signature` is `v1,` and the
 * base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` keyed with the secret's base64-decoded bytes
 * (after `whsec_`), once per secret, space-delimited, as the scheme signs while a secret is being
 * rotated; the timestamp is seconds since the epoch, of this attempt.
 */
export function signatureHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  const signed = `${id}.${timestampSeconds}.${body}`;
  const signatures = secrets.map((secret) => {
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
  });
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': signatures.join(' ') };
}
