import { randomUUID } from 'node:crypto';

/**
 * CloudEvents 1.0 structured-mode JSON envelope (docs/architecture.md §5).
 * `data` always carries the owning account (null for public resources) and a snapshot of the
 * resource after the change (before it, for a deletion).
 */
export interface CloudEvent<T = unknown> {
  specversion: '1.0';
  id: string;
  /** `/<area>` */
  source: string;
  /** `fieldcast.<resource>.<action>` */
  type: string;
  /** the resource id */
  subject: string;
  /** RFC 3339 UTC */
  time: string;
  datacontenttype: 'application/json';
  data: ResourceChange<T>;
}

export interface ResourceChange<T = unknown> {
  /** owning account id, or null for a public resource (products, frames, forecasts) */
  account: string | null;
  resource: T;
  /** ids of related resources the event should also be found through (spec 2.10 `tagged`) */
  related?: { namespace: string; id: string }[];
  /**
   * How the event reads, when the resource's own wording is not enough (spec 6: a frame created
   * by a job of a tile-building application): the resource that emitted it (default the
   * subject), the event's namespace (default `<area>/<resource>/<action>`) and its message, one
   * `{}` per tagged resource in tagging order (docs/decisions/0123-events-described-by-their-emitter.md)
   */
  event?: { origin?: { namespace: string; id: string }; namespace?: string; message?: string };
}

export interface ResourceEventInput<T> {
  area: string;
  /** singular resource name used in the type, e.g. "field" */
  resource: string;
  action: string;
  subject: string;
  data: ResourceChange<T>;
  id?: string;
  time?: Date;
}

export function resourceEvent<T>(input: ResourceEventInput<T>): CloudEvent<T> {
  return {
    specversion: '1.0',
    id: input.id ?? randomUUID(),
    source: `/${input.area}`,
    type: `fieldcast.${input.resource}.${input.action}`,
    subject: input.subject,
    time: (input.time ?? new Date()).toISOString(),
    datacontenttype: 'application/json',
    data: input.data,
  };
}

/** Checks the structural rules a consumer relies on; returns the reason when the value is not a CloudEvent. */
export function cloudEventProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'not a JSON object';
  const v = value as Record<string, unknown>;
  if (v.specversion !== '1.0') return 'specversion is not 1.0';
  for (const key of ['id', 'source', 'type', 'subject', 'time'] as const) {
    if (typeof v[key] !== 'string' || (v[key] as string).length === 0) return `${key} is missing`;
  }
  if (!/^fieldcast\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/.test(v.type as string)) return 'type is not fieldcast.<resource>.<action>';
  if (Number.isNaN(Date.parse(v.time as string))) return 'time is not a timestamp';
  if (typeof v.data !== 'object' || v.data === null) return 'data is missing';
  return null;
}

/** A message's value read as a CloudEvent (JSON, then cloudEventProblem's rules), or the reason it is none. */
export function parseCloudEvent(value: string): CloudEvent<unknown> | string {
  let event: unknown;
  try {
    event = JSON.parse(value);
  } catch {
    return 'not JSON';
  }
  return cloudEventProblem(event) ?? (event as CloudEvent<unknown>);
}
