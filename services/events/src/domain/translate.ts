import { cloudEventProblem, parseTopic, type CloudEvent } from '@fieldcast/bus';
import { areaAppId } from './apps.js';
import { EVENT_STATUS, type NewEvent } from './event.js';

export class PoisonMessage extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const VERBS: Record<string, string> = {
  created: 'was created',
  updated: 'was updated',
  deleted: 'was deleted',
  published: 'was published',
};

/**
 * Turns a resource topic's CloudEvent into an Event (docs/architecture.md §5): app = the emitting
 * area, origin = the resource, namespace `<area>/<resource>/<action>`, a message with one `{}`
 * slot per tagged resource, tagged = the resource and its related resources.
 */
export function eventFromCloudEvent(topic: string, raw: string, newId: string, now: Date): NewEvent {
  const where = parseTopic(topic);
  if (!where) throw new PoisonMessage(`topic ${topic} is not fieldcast.<area>.<resource>`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new PoisonMessage('value is not JSON');
  }
  const problem = cloudEventProblem(value);
  if (problem) throw new PoisonMessage(`not a CloudEvent: ${problem}`);
  const ce = value as CloudEvent<unknown>;
  if (!UUID.test(ce.subject)) throw new PoisonMessage('subject is not a resource UUID');
  const account = ce.data.account;
  if (account !== null && (typeof account !== 'string' || !UUID.test(account)))
    throw new PoisonMessage('data.account is neither null nor a UUID');
  const action = ce.type.split('.')[2]!;
  const origin = { namespace: `${where.area}/${where.resource}`, id: ce.subject };
  const related = Array.isArray(ce.data.related)
    ? ce.data.related.filter((r) => r && typeof r.namespace === 'string' && UUID.test(String(r.id)))
    : [];
  const tagged = [origin, ...related.filter((r) => r.id !== origin.id || r.namespace !== origin.namespace)];
  const noun = ce.type.split('.')[1]!;
  const subject = noun.charAt(0).toUpperCase() + noun.slice(1);
  const others = tagged.slice(1).map(() => ' {}');
  return {
    id: newId,
    sourceEventId: ce.id,
    app: where.area,
    appId: areaAppId(where.area),
    origin,
    namespace: `${where.area}/${where.resource}/${action}`,
    status: EVENT_STATUS,
    message: `${subject} {} ${VERBS[action] ?? action}${others.length ? ` (with${others.join(',')})` : ''}`,
    creationTime: now,
    occurrenceTime: new Date(ce.time),
    expirationTime: null,
    tagged,
    ownerAccount: account,
  };
}
