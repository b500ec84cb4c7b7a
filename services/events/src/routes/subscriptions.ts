import { type Api, BodyFault, entityTagOf, ListQuery, MAX_PAGE, NotFoundError, ownedResourceRoutes, ValidationError } from '@fieldcast/kit';
import {
  choiceError,
  CreatedSubscription,
  Delivery,
  DELIVERY_STATUSES,
  DeliveryParams,
  IdParams,
  RotatedSecret,
  SecretRotation,
  Subscription,
  SubscriptionInput,
} from '@fieldcast/schemas';
import { z } from 'zod';
import { createdSubscriptionView, newSecret, subscriptionRecord, subscriptionView } from '../domain/subscriptions.js';
import { DELIVERY_RETENTION_MS } from '../domain/webhook-delivery.js';
import type { AddressGuard } from '../webhooks/address-guard.js';
import type { DeliveryStore, SubscriptionStore } from '../webhook-store.js';

const DeliveriesQuery = ListQuery.extend({
  status: z
    .enum(DELIVERY_STATUSES, { error: choiceError('status', `one of ${DELIVERY_STATUSES.join(', ')}`) })
    .optional()
    .meta({ description: 'only deliveries in this state; dead for the dead letters' }),
});

const DAY_MS = 24 * 3600_000;

const SIGNATURE =
  'Each delivery is one CloudEvent (structured mode, application/cloudevents+json) signed per Standard Webhooks: webhook-id (the delivery id, one per subscription and event, the same on every retry; the CloudEvent id is the event id), webhook-timestamp (seconds), webhook-signature v1,<base64 HMAC-SHA256 of id.timestamp.body keyed with the base64-decoded secret>.';

/**
 * A URL that is not https, or whose host is a literal address no webhook may reach, is refused at
 * once; a host name is checked on every connection, by the sender
 * (docs/decisions/0261-webhook-address-guard.md).
 */
function checkedUrl(input: SubscriptionInput, guard: AddressGuard): SubscriptionInput {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw new ValidationError('invalid_webhook_url', 'url is not a URL', [{ path: 'url', message: 'must be an https URL' }]);
  }
  if (url.username || url.password)
    throw new ValidationError('invalid_webhook_url', 'url must not carry credentials', [
      { path: 'url', message: 'must not contain user:password@' },
    ]);
  const refusal = guard.refusalOfUrl(url);
  if (refusal) throw new ValidationError('webhook_url_not_allowed', `url: ${refusal}`, [{ path: 'url', message: refusal }]);
  return input;
}

/**
 * A filter list given empty would match no event (each list given must match): refused, since
 * leaving the list out is how every event is taken (docs/decisions/0260-webhook-delivery.md).
 */
function checkedFilter(input: SubscriptionInput): SubscriptionInput {
  const empty = (['apps', 'resources', 'namespaces'] as const).filter((list) => input.filter[list]?.length === 0);
  if (empty.length > 0)
    throw new ValidationError(
      'empty_filter_list',
      `filter.${empty[0]}: an empty list matches no event; leave it out to take every event`,
      empty.map((list) => ({ path: `filter.${list}`, message: 'must name at least one member, or be left out' })),
    );
  return input;
}

/** Webhook subscriptions and their deliveries (docs/interface.md, webhooks): owned like fields. */
export function subscriptionRoutes(
  api: Api,
  subscriptions: SubscriptionStore,
  deliveries: DeliveryStore,
  guard: AddressGuard,
  now: () => Date,
): Api {
  ownedResourceRoutes(api, subscriptions, {
    kind: 'subscription',
    path: '/subscriptions',
    tag: 'webhooks',
    noun: { one: 'subscription', many: 'subscriptions' },
    input: SubscriptionInput,
    bodyFaults: BodyFault.malformed,
    view: Subscription,
    operations: ['list', 'read', 'create', 'remove'],
    created: { view: CreatedSubscription, present: createdSubscriptionView },
    build: (id, accountId, input) => subscriptionRecord(id, accountId, checkedFilter(checkedUrl(input, guard)), now()),
    present: subscriptionView,
    docs: {
      create: {
        summary: 'Subscribe a URL to the events the account may see',
        description: `The URL is validated with the CloudEvents webhook handshake (OPTIONS with WebHook-Request-Origin, answered with WebHook-Allowed-Origin) before the first delivery; one that fails is validation_failed and receives nothing. A WebHook-Allowed-Rate in the answer (* or requests per minute) is kept to, by every subscription to the URL together (allowedRate shows it): deliveries beyond it wait, in order; any other value fails the handshake. ${SIGNATURE} A 2xx within 10 s is a delivery; otherwise it is retried with exponential backoff for 24 hours, then dead-lettered. The answer holds the signing secret, shown only here.`,
        response: 'The subscription, with its signing secret (shown once)',
      },
    },
  });
  return api
    .op({
      method: 'get',
      path: '/subscriptions/{id}/deliveries',
      summary: 'A subscription’s deliveries, newest first: attempts, status codes, next try, dead letters',
      description: `Pending deliveries, and those that ended (delivered, or dead letters) for ${DELIVERY_RETENTION_MS / DAY_MS} days after they ended; then they are deleted.`,
      tags: ['webhooks'],
      params: IdParams,
      query: DeliveriesQuery,
      pages: true,
      response: { status: 200, description: 'Deliveries, newest first', schema: z.array(Delivery) },
      errors: [404],
      handle: async ({ account, params, query, req, res }) => {
        const limit = query.limit ?? MAX_PAGE;
        const page = await deliveries.deliveries(account.id, params.id, {
          limit,
          ...(query.after ? { after: query.after } : {}),
          ...(query.status ? { status: query.status } : {}),
        });
        const last = page.deliveries[page.deliveries.length - 1];
        if (page.more && last) {
          const next = new URLSearchParams({ limit: String(limit), after: last.id, ...(query.status ? { status: query.status } : {}) });
          res.setHeader('Link', `<${req.baseUrl}${req.path}?${next}>; rel="next"`);
        }
        return page.deliveries;
      },
    })
    .op({
      method: 'post',
      path: '/subscriptions/{id}/secret',
      summary: 'Rotate the signing secret',
      description:
        'A new signing secret, shown only in this answer, signs every attempt from now on. The secret it replaces signs beside it for previousSecretExpiresIn seconds (default a day): webhook-signature then holds both v1 signatures, space-delimited, so a receiver that checks either accepts the delivery while it changes over. 0 ends the replaced secret at once, for one that leaked. A second rotation within that time drops the older secret. The body may be left out.',
      tags: ['webhooks'],
      params: IdParams,
      body: SecretRotation,
      bodyFaults: BodyFault.malformed,
      response: {
        status: 200,
        description: 'The new secret (shown once) and until when the replaced one still signs',
        schema: RotatedSecret,
      },
      errors: [404],
      handle: async ({ account, params, body }) => {
        const secret = newSecret();
        const at = now();
        const previousUntil = body.previousSecretExpiresIn > 0 ? new Date(at.getTime() + body.previousSecretExpiresIn * 1000) : null;
        await deliveries.rotateSecret(account.id, params.id, secret, previousUntil, at);
        return { id: params.id, secret, previousSecretExpiresTime: previousUntil?.toISOString() ?? null };
      },
    })
    .op({
      method: 'post',
      path: '/subscriptions/{id}/deliveries/{delivery}/retry',
      summary: 'Send a dead letter again',
      description:
        'The delivery is pending again from now, with a fresh 24 hours of retries; a paused subscription resumes once its URL passes the handshake again (it is validating until then). Only a dead letter can be retried (409 otherwise).',
      tags: ['webhooks'],
      params: DeliveryParams,
      response: { status: 202, description: 'The delivery, pending again', schema: Delivery },
      errors: [404, 409],
      handle: ({ account, params }) => deliveries.retry(account.id, params.id, params.delivery, now()),
    })
    .op({
      method: 'post',
      path: '/subscriptions/{id}/validate',
      summary: 'Validate the subscription’s URL again',
      description:
        'A subscription that is validation_failed (its URL failed the CloudEvents handshake) or paused (dead letters in a row, or a 410 Gone) is validating again: the next pass repeats the handshake before anything is sent, and it is active once its URL passes, validation_failed if it does not. The way back for a subscription with no dead letter to retry, keeping its id and signing secret. The account’s other subscriptions to the URL that a 410 Gone paused resume with it. One still validating is left as it is; an active one is 409 subscription_active. No body.',
      tags: ['webhooks'],
      params: IdParams,
      response: {
        status: 202,
        description: 'The subscription as a read shows it, validating until its URL answers the handshake',
        schema: Subscription,
      },
      errors: [404, 409],
      conditional: { tagged: true },
      handle: async ({ account, params, res }) => {
        await deliveries.validate(account.id, params.id);
        const validated = await subscriptions.get(account.id, params.id);
        // deleted since: as a read of it would answer
        if (!validated) throw new NotFoundError('subscription', params.id);
        const view = subscriptionView(validated);
        res.setHeader('ETag', entityTagOf(view));
        return view;
      },
    });
}
