import { isUuid } from '@fieldcast/ids';
import { parseCloudEvent, parseTopic } from '@fieldcast/bus';
import { EVENT_MESSAGE_MAX } from '@fieldcast/schemas';
import { areaAppId } from './apps.js';
import { EVENT_STATUS, type NewEvent } from './event.js';

export class PoisonMessage extends Error {}

const VERBS: Record<string, string> = {
  created: 'was created',
  updated: 'was updated',
  deleted: 'was deleted',
  published: 'was published',
};

const NAMESPACE = /^[a-z0-9][a-z0-9_.-]*(\/[a-z0-9][a-z0-9_.-]*)+$/;

/**
 * The wording an emitting area gave its event (`data.event`,
 * docs/decisions/0123-events-described-by-their-emitter.md): an origin and a namespace inside the
 * area's own namespace (an area never speaks for another), a message of at most 1,000 characters.
 * Anything else there makes the message unusable.
 */
function describedEvent(
  value: unknown,
  area: string,
): { origin?: { namespace: string; id: string }; namespace?: string; message?: string } {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null) throw new PoisonMessage('data.event is not an object');
  const { origin, namespace, message } = value as Record<string, unknown>;
  const ownNamespace = (n: unknown): n is string =>
    typeof n === 'string' && n.length <= 200 && NAMESPACE.test(n) && n.startsWith(`${area}/`);
  const out: { origin?: { namespace: string; id: string }; namespace?: string; message?: string } = {};
  if (origin !== undefined) {
    const o = origin as Record<string, unknown> | null;
    if (!o || !ownNamespace(o.namespace) || typeof o.id !== 'string' || !isUuid(o.id))
      throw new PoisonMessage(`data.event.origin is not a resource of ${area}`);
    out.origin = { namespace: o.namespace, id: o.id.toLowerCase() };
  }
  if (namespace !== undefined) {
    if (!ownNamespace(namespace)) throw new PoisonMessage(`data.event.namespace is not a namespace of ${area}`);
    out.namespace = namespace;
  }
  if (message !== undefined) {
    // characters as every text limit counts them, code points (docs/decisions/0485-limits-count-characters-and-thresholds-are-earthly.md)
    if (typeof message !== 'string' || message.length === 0 || [...message].length > EVENT_MESSAGE_MAX)
      throw new PoisonMessage(`data.event.message is not text of 1 to ${EVENT_MESSAGE_MAX} characters`);
    out.message = message;
  }
  return out;
}

/**
 * Turns a resource topic's CloudEvent into an Event (docs/architecture.md §5): app = the emitting
 * area, origin = the resource, namespace `<area>/<resource>/<action>`, a message with one `{}`
 * slot per tagged resource, tagged = the resource and its related resources.
 */
export function eventFromCloudEvent(topic: string, raw: string, newId: string, now: Date): NewEvent {
  const where = parseTopic(topic);
  if (!where) throw new PoisonMessage(`topic ${topic} is not fieldcast.<area>.<resource>`);
  const ce = parseCloudEvent(raw);
  if (typeof ce === 'string') throw new PoisonMessage(`not a CloudEvent: ${ce}`);
  if (!isUuid(ce.subject)) throw new PoisonMessage('subject is not a resource UUID');
  const account = ce.data.account;
  if (account !== null && (typeof account !== 'string' || !isUuid(account)))
    throw new PoisonMessage('data.account is neither null nor a UUID');
  const action = ce.type.split('.')[2]!;
  const described = describedEvent(ce.data.event, where.area);
  const origin = described.origin ?? { namespace: `${where.area}/${where.resource}`, id: ce.subject };
  const related = Array.isArray(ce.data.related)
    ? ce.data.related.filter((r) => r && typeof r.namespace === 'string' && isUuid(String(r.id)))
    : [];
  const tagged = [origin, ...related.filter((r) => r.id !== origin.id || r.namespace !== origin.namespace)];
  // the type's resource in words: `observation-set` is "Observation set"
  const noun = ce.type.split('.')[1]!.replaceAll('-', ' ');
  const subject = noun.charAt(0).toUpperCase() + noun.slice(1);
  const others = tagged.slice(1).map(() => ' {}');
  const message = described.message ?? `${subject} {} ${VERBS[action] ?? action}${others.length ? ` (with${others.join(',')})` : ''}`;
  if (message.split('{}').length - 1 !== tagged.length)
    throw new PoisonMessage(`data.event.message has ${message.split('{}').length - 1} {} slots for ${tagged.length} tagged resources`);
  return {
    id: newId,
    sourceEventId: ce.id,
    app: where.area,
    appId: areaAppId(where.area),
    origin,
    namespace: described.namespace ?? `${where.area}/${where.resource}/${action}`,
    status: EVENT_STATUS,
    message,
    creationTime: now,
    occurrenceTime: new Date(ce.time),
    expirationTime: null,
    tagged,
    ownerAccount: account,
  };
}
