import { randomBytes } from 'node:crypto';
import type { CreatedSubscription, Subscription, SubscriptionFilter, SubscriptionInput } from '@fieldcast/schemas';
import type { z } from 'zod';
import { resourceIdsOf, type NewEvent } from './event.js';

export type SubscriptionStatus = Subscription['status'];

/** A subscription as stored; `secret` only on the record just built (the create answer shows it once). */
export interface SubscriptionRecord {
  id: string;
  accountId: string;
  url: string;
  filter: SubscriptionFilter;
  description: string;
  status: SubscriptionStatus;
  statusMessage: string | null;
  /** requests per minute its receiver allows (null: no limit, or none known yet), the receiver's, not the record's (receiverOf) */
  allowedRate: number | null;
  createdTime: Date;
  secret?: string;
}

/**
 * The receiver a subscription's requests go to, which keeps one allowed rate and one hold for every
 * subscription to it (docs/decisions/0422-the-receiver-is-the-url.md): its URL as parsed (WHATWG
 * URL: host case, default port, dot segments), without the fragment, which no request carries
 * (RFC 9110 section 7.1). The query stays: another query may be another receiver.
 */
export function receiverOf(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

/**
 * A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64 (the scheme keys
 * HMAC-SHA256 with the decoded bytes; 24 to 64 are allowed, 32 is the hash's own size).
 */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A new subscription: validating until its URL answers the handshake (docs/decisions/0260-webhook-delivery.md). */
export function subscriptionRecord(id: string, accountId: string, input: SubscriptionInput, now: Date): SubscriptionRecord {
  return {
    id,
    accountId,
    url: input.url,
    filter: input.filter,
    description: input.description,
    status: 'validating',
    statusMessage: null,
    allowedRate: null,
    createdTime: now,
    secret: newSecret(),
  };
}

export function subscriptionView(record: SubscriptionRecord): Subscription {
  return {
    id: record.id,
    url: record.url,
    filter: record.filter,
    description: record.description,
    status: record.status,
    statusMessage: record.statusMessage,
    allowedRate: record.allowedRate,
    createdTime: record.createdTime.toISOString(),
  };
}

export function createdSubscriptionView(record: SubscriptionRecord): z.infer<typeof CreatedSubscription> {
  if (record.secret === undefined) throw new Error('a created subscription carries its secret');
  return { ...subscriptionView(record), secret: record.secret };
}

/** What a filter is matched against: the stored event and its application's UUID. */
export type MatchedEvent = Pick<NewEvent, 'app' | 'appId' | 'namespace' | 'origin' | 'tagged'>;

/**
 * Whether a filter takes an event: each list given must have a member that matches (apps by
 * handle, case-insensitively, or by UUID; resources by the event's origin or a tagged one;
 * namespaces as prefixes of whole path segments). Visibility is checked before, by the
 * subscription's account.
 */
export function filterMatches(filter: SubscriptionFilter, event: MatchedEvent): boolean {
  if (filter.apps && !filter.apps.some((a) => a.toLowerCase() === event.app.toLowerCase() || a.toLowerCase() === event.appId)) return false;
  if (filter.resources) {
    const ids = new Set(resourceIdsOf(event));
    if (!filter.resources.some((r) => ids.has(r))) return false;
  }
  if (filter.namespaces && !filter.namespaces.some((p) => namespaceUnder(event.namespace, p))) return false;
  return true;
}

/**
 * Whether a namespace is the prefix or lies under it, segment by segment: `agriculture/fields`
 * takes `agriculture/fields/updated`, never `agriculture/fieldsets/…`; a prefix ending in `/`
 * (`agriculture/`) takes what is under it.
 */
export function namespaceUnder(namespace: string, prefix: string): boolean {
  const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return namespace === base || namespace.startsWith(`${base}/`);
}
