import { type IncomingMessage, parseCloudEvent, topicFor } from '@fieldcast/bus';
import { isUuid } from '@fieldcast/ids';
import type { Logger } from '@fieldcast/kit';
import type { Consumer } from '@fieldcast/runtime';
import { Asset, Field } from '@fieldcast/schemas';
import type { Evaluator } from './evaluator.js';
import type { TargetChange, TargetCopies } from './store.js';

/**
 * A group per consumer, each shared by every replica: they share the alerts schema, so each
 * message is handled once.
 */
const TARGETS_GROUP = 'alerts-targets';
const WEATHER_GROUP = 'alerts-weather';

/** The topics of the resources rules watch, and the resource their event types name. */
const WATCHED = {
  [topicFor('agriculture', 'fields')]: { type: 'field', schema: Field },
  [topicFor('insight', 'assets')]: { type: 'asset', schema: Asset },
} as const;
const escaped = (topic: string) => topic.replaceAll('.', '\\.');
const TARGET_TOPICS = new RegExp(`^(${Object.keys(WATCHED).map(escaped).join('|')})$`);

const TARGET_ACTIONS: readonly string[] = ['created', 'updated', 'deleted'] satisfies TargetChange['action'][];
const isTargetAction = (action: string | undefined): action is TargetChange['action'] => TARGET_ACTIONS.includes(action!);

/** What a field or asset event says of it, or why it says nothing usable. */
export function targetChangeOf(topic: string, value: string): TargetChange | string {
  const watched = WATCHED[topic];
  if (!watched) return `topic ${topic} is not watched`;
  const ce = parseCloudEvent(value);
  if (typeof ce === 'string') return ce;
  const [, resource, action] = ce.type.split('.');
  if (resource !== watched.type || !isTargetAction(action)) return `type ${ce.type} is no change of a ${watched.type}`;
  const account = ce.data.account;
  if (typeof account !== 'string' || !isUuid(account)) return 'data.account is not an account';
  const parsed = watched.schema.safeParse(ce.data.resource);
  if (!parsed.success || parsed.data.id !== ce.subject) return `data.resource is not a ${watched.type}`;
  const { latitude, longitude } = parsed.data.centroid;
  return {
    target: { id: ce.subject, type: watched.type, accountId: account, centroid: { lat: latitude, lon: longitude } },
    action,
    timeMs: Date.parse(ce.time),
  };
}

/**
 * Keeps the area's copy of fields and assets from their events (docs/decisions/0270-alerts-area.md).
 * A message that is no such change is logged and passed over; a database failure throws, so the
 * message is delivered again.
 */
export function targetsConsumer(copies: TargetCopies, logger: Logger): Consumer {
  return {
    group: TARGETS_GROUP,
    topics: TARGET_TOPICS,
    async handle(message: IncomingMessage) {
      const change = targetChangeOf(message.topic, message.value);
      if (typeof change === 'string') {
        logger.warn(
          { topic: message.topic, offset: message.offset, reason: change },
          'passed over a message that is no field or asset change',
        );
        return;
      }
      await copies.apply(change);
    },
  };
}

/** The announcements of new weather: a forecast run complete (model and platform), a new analysis frame. */
const WEATHER_TOPICS = new RegExp(
  `^(${[topicFor('model', 'forecasts'), topicFor('platform', 'forecasts'), topicFor('platform', 'frames')].map(escaped).join('|')})$`,
);
const NEW_WEATHER = new Set(['fieldcast.forecast.completed', 'fieldcast.frame.created']);

/**
 * Evaluates the rules when the weather they read changes (docs/decisions/0271-alert-evaluation.md):
 * each completed forecast run or new frame asks for a pass at the service's clock; asks made
 * while a pass runs share the next one. A failed pass throws, so the message comes again.
 */
export function weatherConsumer(evaluator: Evaluator, now: () => Date): Consumer {
  return {
    group: WEATHER_GROUP,
    topics: WEATHER_TOPICS,
    async handle(message: IncomingMessage) {
      let type: unknown;
      try {
        type = (JSON.parse(message.value) as { type?: unknown }).type;
      } catch {
        return;
      }
      if (typeof type === 'string' && NEW_WEATHER.has(type)) await evaluator.request(now().getTime());
    },
  };
}
