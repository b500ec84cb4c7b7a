/**
 * Event messages as a person reads them. Spec 2.10: a message's empty braces are slots for the
 * identifiers of the tagged resources, one per resource in tagging order; the console fills each
 * with what names the resource (a product's name, a frame's or a run's time), read from its area,
 * and with the start of its id where it has no better name. A name can change (a field renamed):
 * the change is itself an event from the resource, so a label is read again once the feed shows
 * an event from its resource newer than those it had shown when the label was read.
 */

import { type AlertCondition, describeCondition } from './alert-rules.js';

/** A tagged resource of an event (spec 2.10). */
export interface Tagged {
  namespace: string;
  id: string;
}

/** An event as the feed gives it (docs/interface.md §10); older callers may give only the message. */
export interface LabelledEvent {
  message: string;
  tagged?: readonly Tagged[];
  origin?: Tagged;
  occurrenceTime?: string;
}

/** Reads a JSON record from an area (Api.json). */
type ReadJson = (area: string, path: string) => Promise<unknown>;

/** Fills the message's `{}` slots with the labels in order; slots beyond the labels stay as they are. */
export function fillSlots(message: string, labels: readonly string[]): string {
  let i = 0;
  return message.replace(/\{\}/g, (slot) => labels[i++] ?? slot);
}

/** An instant as "YYYY-MM-DD HH:MM UTC". */
const utcText = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** Where each kind of resource is read and what of it names it. */
const NAMERS: Record<string, { area: string; path: (id: string) => string; label: (record: Record<string, unknown>) => unknown }> = {
  'platform/products': { area: 'platform', path: (id) => `/products/${id}`, label: (r) => r.name },
  'platform/frames': {
    area: 'platform',
    path: (id) => `/frames/${id}`,
    label: (r) => typeof r.validTime === 'string' && utcText(r.validTime),
  },
  'platform/forecasts': {
    area: 'platform',
    path: (id) => `/forecasts/${id}`,
    label: (r) => typeof r.initTime === 'string' && utcText(r.initTime),
  },
  'agriculture/fields': { area: 'agriculture', path: (id) => `/fields/${id}`, label: (r) => r.description },
  'alerts/rules': {
    area: 'alerts',
    path: (id) => `/rules/${id}`,
    label: (r) => r.description || (r.condition && describeCondition(r.condition as AlertCondition)),
  },
};

/** The first group of a UUID: enough to tell resources apart in a list. */
const shortId = (id: string) => id.split('-')[0] ?? id;

/**
 * Whether a failed read says the resource is gone (404: a deleted field or rule, an expired run),
 * which no later read changes, rather than failing for now (an area restarting, a network fault).
 */
const gone = (err: unknown) => (err as { status?: unknown } | null)?.status === 404;

/**
 * An event saying that its origin, the resource in its first slot, was deleted: the events area's
 * wording of a resource's `deleted` action, "<Resource> {} was deleted", then "(with {}, ...)"
 * for its related resources (docs/decisions/0030-consuming-resource-events.md). The feed gives no
 * event's namespace (spec 2.10, "Feed entries as shown omit it"), so its message is what says so
 * (docs/decisions/0439-console-choices-from-science-and-deleted-resources.md).
 */
const DELETION = /^\S+ \{\} was deleted(?: \(with [{}, ]+\))?$/;

const sameResource = (a: Tagged | undefined, b: Tagged) => a?.namespace === b.namespace && a.id === b.id;

/**
 * Labels of tagged resources, each read once until an event from it is newer than those seen
 * before. A resource that is gone keeps its short id; a read that fails otherwise is tried again
 * on the next message. A resource the feed says was deleted is not read at all: the browser would
 * log the area's 404 at every page load for as long as the feed shows its events.
 */
export class ResourceLabels {
  private readonly known = new Map<string, Promise<string>>();
  /** for each resource, the newest time of an event from it that the feed has shown, in ms */
  private readonly newest = new Map<string, number>();
  /** the resources the feed said were deleted */
  private readonly deleted = new Set<string>();

  constructor(private readonly readJson: ReadJson) {}

  /**
   * The events' messages with their slots filled. The events are looked through for changes
   * first: the feed is newest first, and an event after a rename must not take the old name
   * before the rename's own event further down the page drops it.
   */
  async messages(events: readonly LabelledEvent[]): Promise<string[]> {
    for (const event of events) this.noteEvent(event);
    return Promise.all(events.map((e) => this.message(e)));
  }

  /** The event's message with its slots filled. */
  async message(event: LabelledEvent): Promise<string> {
    this.noteEvent(event);
    const labels = await Promise.all((event.tagged ?? []).map((t) => this.label(t)));
    return fillSlots(event.message, labels);
  }

  /** Drops the resource's label, to be read again: the console changed it (a rename saved). */
  forget(t: Tagged): void {
    this.known.delete(`${t.namespace}/${t.id}`);
  }

  /** An event from a resource newer than any before it may say that the resource changed. */
  private noteEvent(event: LabelledEvent): void {
    if (!event.origin || event.occurrenceTime === undefined) return;
    const time = Date.parse(event.occurrenceTime);
    const key = `${event.origin.namespace}/${event.origin.id}`;
    if (Number.isNaN(time) || time <= (this.newest.get(key) ?? -Infinity)) return;
    this.newest.set(key, time);
    if (DELETION.test(event.message) && sameResource(event.tagged?.[0], event.origin)) {
      // Nothing changes a deleted resource: the name it was read by, if any, is its last.
      this.deleted.add(key);
      return;
    }
    this.forget(event.origin);
  }

  private label(t: Tagged): Promise<string> {
    const namer = NAMERS[t.namespace];
    if (!namer) return Promise.resolve(shortId(t.id));
    const key = `${t.namespace}/${t.id}`;
    let label = this.known.get(key);
    if (!label && this.deleted.has(key)) return Promise.resolve(shortId(t.id));
    if (!label) {
      label = this.readJson(namer.area, namer.path(encodeURIComponent(t.id))).then(
        (record) => {
          const text = namer.label((record ?? {}) as Record<string, unknown>);
          return typeof text === 'string' && text !== '' ? text : shortId(t.id);
        },
        (err: unknown) => {
          // The feed is polled every few seconds: a gone resource read again at each poll would
          // cost a request (and a logged 404) per event naming it, for as long as the page is open.
          if (!gone(err) && this.known.get(key) === label) this.known.delete(key);
          return shortId(t.id);
        },
      );
      this.known.set(key, label);
    }
    return label;
  }
}
