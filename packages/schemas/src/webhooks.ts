import { z } from 'zod';
import { Timestamp, Uuid, UuidInput } from './common.js';
import { EVENT_NAMESPACE } from './events.js';
import { text } from './text.js';

/** Most members of each filter list: a filter is a short allow list, not a query. */
export const FILTER_MEMBERS_MAX = 100;

/**
 * The start of an event namespace: whole segments of one (events.ts EVENT_NAMESPACE), a `/` after
 * them allowed, its case kept (namespaces are matched as they are written). A prefix no namespace
 * could start with (an empty segment, one starting with `.`) would match nothing, silently.
 */
const NAMESPACE_PREFIX = new RegExp(`${EVENT_NAMESPACE.source.replace(/\$$/, '')}/?$`);

const members = <T extends z.ZodType>(item: T, description: string) =>
  z.array(item).max(FILTER_MEMBERS_MAX).optional().meta({ description });

/**
 * Which of the events an account may see in its feeds (docs/decisions/0027-event-visibility.md)
 * a subscription delivers: every list given must match (an event matches a list when it matches
 * one member); an absent list matches every event.
 */
export const SubscriptionFilter = z
  .strictObject({
    apps: members(
      z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/, { error: 'must be an application UUID or handle' }),
      'applications by UUID or handle (a platform application by its area name); the event’s app must be one',
    ),
    resources: members(UuidInput, 'resource ids; the event must originate from or tag one'),
    namespaces: members(
      z
        .string()
        .max(200, { error: 'is at most 200 characters' })
        .regex(NAMESPACE_PREFIX, { error: 'must be a namespace prefix such as agriculture/fields' }),
      'namespace prefixes, e.g. agriculture/ or alerts/frost; the event’s namespace must start with one',
    ),
  })
  .meta({ id: 'SubscriptionFilter' });
export type SubscriptionFilter = z.infer<typeof SubscriptionFilter>;

/** Body of POST /subscriptions (docs/interface.md, webhooks). */
export const SubscriptionInput = z
  .strictObject({
    url: text()
      .max(2000)
      .regex(/^https?:\/\/[^\s]+$/i, { error: 'must be an http or https URL' })
      .meta({ description: 'where events are POSTed; validated with the CloudEvents webhook handshake first' }),
    filter: SubscriptionFilter.default({}),
    description: text().max(1000).default(''),
  })
  .meta({
    id: 'SubscriptionInput',
    examples: [{ url: 'https://hooks.example.com/fieldcast', filter: { namespaces: ['agriculture/fields'] }, description: 'farm app' }],
  });
export type SubscriptionInput = z.infer<typeof SubscriptionInput>;

export const SUBSCRIPTION_STATUSES = ['validating', 'active', 'validation_failed', 'paused'] as const;

export const Subscription = z
  .object({
    id: Uuid,
    url: z.string(),
    filter: SubscriptionFilter,
    description: z.string(),
    status: z.enum(SUBSCRIPTION_STATUSES).meta({
      description:
        'validating until the URL answers the handshake; validation_failed receives nothing; paused after repeated dead letters or a 410 Gone; a retry of a dead letter, or POST /subscriptions/{id}/validate, resumes either, validating the URL again first',
    }),
    statusMessage: z
      .string()
      .nullable()
      .meta({ description: 'why the subscription is validation_failed, paused, or validating again after a pause' }),
    allowedRate: z.number().int().positive().nullable().meta({
      description:
        'requests per minute deliveries to the URL keep to, as its receiver allowed in its latest handshake answer (WebHook-Allowed-Rate), shared by every subscription to the same URL; null: no limit, or none known yet',
    }),
    createdTime: Timestamp,
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof Subscription>;

/** The answer to POST /subscriptions: the only time the signing secret is shown. */
export const CreatedSubscription = Subscription.extend({
  secret: z.string().meta({ description: 'Standard Webhooks signing secret, whsec_ and base64; shown once' }),
}).meta({ id: 'CreatedSubscription' });

/** The longest a replaced secret still signs beside its successor: a day, the scheme's customary overlap. */
export const PREVIOUS_SECRET_MAX_SECONDS = 86_400;

/** Body of POST /subscriptions/{id}/secret (docs/decisions/0360-webhook-secret-rotation.md); may be left out. */
export const SecretRotation = z
  .strictObject({
    previousSecretExpiresIn: z
      .number()
      .int()
      .min(0)
      .max(PREVIOUS_SECRET_MAX_SECONDS)
      .default(PREVIOUS_SECRET_MAX_SECONDS)
      .meta({ description: 'seconds the replaced secret still signs beside the new one; 0 ends it at once (a secret that leaked)' }),
  })
  .meta({ id: 'SecretRotation' });

/** The answer to a rotation: the only time the new secret is shown. */
export const RotatedSecret = z
  .object({
    id: Uuid,
    secret: z.string().meta({ description: 'the new Standard Webhooks signing secret, whsec_ and base64; shown once' }),
    previousSecretExpiresTime: Timestamp.nullable().meta({
      description: 'until when deliveries are signed with the replaced secret as well; null: no longer',
    }),
  })
  .meta({ id: 'RotatedSecret' });

export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead'] as const;

export const DeliveryAttempt = z
  .object({
    time: Timestamp,
    statusCode: z.number().int().nullable().meta({ description: 'the receiver’s HTTP status; null when none came' }),
    error: z.string().nullable().meta({ description: 'why no answer came (timeout, refused address, connection error)' }),
    durationMs: z.number().int(),
  })
  .meta({ id: 'DeliveryAttempt' });

export const Delivery = z
  .object({
    id: Uuid,
    eventId: Uuid,
    type: z.string().meta({ description: 'the CloudEvent type delivered' }),
    status: z.enum(DELIVERY_STATUSES).meta({ description: 'dead: a dead letter, no 2xx for 24 hours' }),
    attempts: z.array(DeliveryAttempt).meta({ description: 'the latest attempts, oldest first (at most 50)' }),
    attemptCount: z.number().int(),
    nextAttemptTime: Timestamp.nullable(),
    createdTime: Timestamp,
    deliveredTime: Timestamp.nullable(),
    deadTime: Timestamp.nullable(),
  })
  .meta({ id: 'Delivery' });
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryParams = z.object({ id: UuidInput, delivery: UuidInput });
