import { type IncomingMessage, parseCloudEvent, topicFor } from '@fieldcast/bus';
import { isUuid } from '@fieldcast/ids';
import type { Logger } from '@fieldcast/kit';
import type { Consumer } from '@fieldcast/runtime';
import { Asset, Field, STORM_REPORTS_TOPIC, StormReportDay } from '@fieldcast/schemas';
import type { Evaluator } from './evaluator.js';
import type { StormReportCopy } from './storm-report-copy.js';
import type { TargetChange, TargetCopies } from './store.js';

/**
 * A group per consumer, each shared by every replica: they share the alerts schema, so each
 * message is handled once.
 */
const TARGETS_GROUP = 'alerts-targets';
const WEATHER_GROUP = 'alerts-weather';
const STORM_REPORTS_GROUP = 'alerts-storm-reports';

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

const STORM_REPORT_TOPICS = new RegExp(`^${escaped(STORM_REPORTS_TOPIC)}$`);

/** The day of storm reports a message announces, or why it announces none. */
export function stormReportDayOf(value: string): StormReportDay | string {
  const ce = parseCloudEvent(value);
  if (typeof ce === 'string') return ce;
  const day = StormReportDay.safeParse(ce.data.resource);
  return day.success ? day.data : 'data.resource is not a day of storm reports';
}

/**
 * Keeps the area's copy of the storm reports ingested into the archive from its announcements
 * (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md), and asks for an evaluation
 * pass when a day's reports changed, as new weather does. A message that is no such day is logged
 * and passed over; a database failure or a failed pass throws, so the message is delivered again
 * (and, the copy already changed, changes nothing: the hourly pass decides the rules then).
 */
export function stormReportsConsumer(copy: StormReportCopy, evaluator: Evaluator, now: () => Date, logger: Logger): Consumer {
  return {
    group: STORM_REPORTS_GROUP,
    topics: STORM_REPORT_TOPICS,
    async handle(message: IncomingMessage) {
      const day = stormReportDayOf(message.value);
      if (typeof day === 'string') {
        logger.warn({ topic: message.topic, offset: message.offset, reason: day }, 'passed over a message that is no day of storm reports');
        return;
      }
      if (await copy.apply(day)) await evaluator.request(now().getTime());
    },
  };
}
