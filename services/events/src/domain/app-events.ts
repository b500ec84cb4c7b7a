import { NotAllowedError, ValidationError, type Account } from '@fieldcast/kit';
import type { EventInput } from '@fieldcast/schemas';
import { EVENT_STATUS, type NewEvent } from './event.js';

/** origin of an event that names none: the application itself */
export const APP_ORIGIN_NAMESPACE = 'apps';
/** Allowed clock skew for occurrenceTime; an event further in the future would pin itself to the head of every feed. */
export const FUTURE_SKEW_MS = 5 * 60_000;
/**
 * The earliest occurrenceTime: ISO 8601 years before 1583 are for use only by agreement of the
 * parties (ISO 8601:2004 §3.2.1), and the embedded database stores no year 0 and reads years
 * before 100 back as others, so an earlier time would fail or be shown changed.
 */
export const EARLIEST_OCCURRENCE = new Date('1583-01-01T00:00:00Z');

const SLOT = /\{\}/g;

export function slotCount(message: string): number {
  return message.match(SLOT)?.length ?? 0;
}

/** True when `app` names the calling account, by handle (case-insensitive) or id. */
export function isOwnApp(app: string, account: Account): boolean {
  const name = app.toLowerCase();
  return name === account.handle.toLowerCase() || name === account.id.toLowerCase();
}

/**
 * An event POSTed by an application (spec 4.10). The application is the calling account, so the
 * event is visible to that account only; it may tag any resource it names, since tagging reveals
 * nothing to anyone else (docs/decisions/0027-event-visibility.md).
 */
export function appEvent(input: EventInput, account: Account, id: string, now: Date): NewEvent {
  if (!isOwnApp(input.app, account)) {
    throw new NotAllowedError(
      'app_not_allowed',
      `Events can only be emitted as the calling application (${account.handle} or ${account.id}), not ${input.app}`,
    );
  }
  const slots = slotCount(input.message);
  if (slots !== input.tagged.length) {
    throw new ValidationError('message_slots_mismatch', 'The message must have one {} slot per tagged resource', [
      {
        path: 'message',
        message: `has ${slots} {} slot${slots === 1 ? '' : 's'} but tagged lists ${input.tagged.length} resource${input.tagged.length === 1 ? '' : 's'}`,
      },
    ]);
  }
  const occurrenceTime = input.occurrenceTime ? new Date(input.occurrenceTime) : now;
  if (occurrenceTime.getTime() > now.getTime() + FUTURE_SKEW_MS) {
    throw new ValidationError('occurrence_in_future', 'occurrenceTime lies in the future', [
      {
        path: 'occurrenceTime',
        message: `is later than the service clock (${now.toISOString()}) by more than ${FUTURE_SKEW_MS / 60_000} minutes`,
      },
    ]);
  }
  if (occurrenceTime < EARLIEST_OCCURRENCE) {
    throw new ValidationError('occurrence_too_early', 'occurrenceTime lies before 1583', [
      { path: 'occurrenceTime', message: `is earlier than ${EARLIEST_OCCURRENCE.toISOString()}` },
    ]);
  }
  return {
    id,
    sourceEventId: null,
    app: account.handle,
    appId: account.id,
    origin: input.origin ?? { namespace: APP_ORIGIN_NAMESPACE, id: account.id },
    namespace: input.namespace,
    status: EVENT_STATUS,
    message: input.message,
    creationTime: now,
    occurrenceTime,
    expirationTime: null,
    tagged: input.tagged,
    ownerAccount: account.id,
  };
}
