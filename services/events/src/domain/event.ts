export interface ResourceRef {
  namespace: string;
  id: string;
}

/** Every event records something that happened; none carries an ongoing state yet (docs/decisions/0026-applications-status-and-expiration.md). */
export const EVENT_STATUS = 'inactive';

/** An event ready to store (spec 2.10), plus the account it belongs to (null = public). */
export interface NewEvent {
  id: string;
  sourceEventId: string | null;
  /** display name of the emitting application: an account handle or an area name */
  app: string;
  /** the application's UUID: the account id, or UUID v5 of the area (domain/apps.ts) */
  appId: string;
  origin: ResourceRef;
  namespace: string;
  status: string;
  message: string;
  creationTime: Date;
  occurrenceTime: Date;
  expirationTime: Date | null;
  tagged: ResourceRef[];
  ownerAccount: string | null;
}

/** The resources an event can be found through (spec 6): its origin and every tagged one, once each. */
export function resourceIdsOf(event: Pick<NewEvent, 'origin' | 'tagged'>): string[] {
  return [...new Set([event.origin.id, ...event.tagged.map((r) => r.id)].map((id) => id.toLowerCase()))];
}
