/// <reference lib="dom" />
import type { Api } from './api.js';
import { ResourceLabels, type Tagged } from './event-slots.js';
import { byId } from './fields.js';
import { PanelView } from './panel-view.js';
import { showError } from './status.js';

interface FeedEvent {
  id: string;
  app: string;
  message: string;
  occurrenceTime: string;
  origin: { namespace: string; id: string };
  tagged?: Tagged[];
}

/** How often the feed is polled: events offer no push delivery (docs/interface.md §10). */
const POLL_MS = 5000;

/** The event feed: main, the signed-in application's, or the selected field's; newest first. */
export class FeedPanel {
  private timer: ReturnType<typeof setInterval> | null = null;
  private resource: string | null = null;
  private lastError = '';
  /** names of the resources events are tagged with, kept while the console is open */
  private readonly labels: ResourceLabels;
  /** the feed shown, keyed by its path, with each event's message */
  private readonly view = new PanelView<{ events: FeedEvent[]; messages: string[] }>();

  constructor(private readonly api: Api) {
    this.labels = new ResourceLabels((area, path) => api.json(area, path));
    byId('feed-kind').addEventListener('change', () => void this.refresh());
  }

  start(): void {
    this.stop();
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), POLL_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** A resource the console changed (a field renamed): its events show its new name. */
  resourceChanged(resource: Tagged): void {
    this.labels.forget(resource);
    void this.refresh();
  }

  /** The resource whose feed "Selected field" shows. */
  setResource(id: string | null): void {
    this.resource = id;
    if (byId<HTMLSelectElement>('feed-kind').value === 'resource') void this.refresh();
  }

  private path(): string | null {
    const kind = byId<HTMLSelectElement>('feed-kind').value;
    if (kind === 'app') return `/apps/${encodeURIComponent(this.api.signedIn?.applicationId ?? '')}/events?limit=20`;
    if (kind === 'resource') return this.resource ? `/resources/${encodeURIComponent(this.resource)}/events?limit=20` : null;
    return '/events?limit=20';
  }

  async refresh(): Promise<void> {
    const list = byId('feed');
    const path = this.path();
    if (!path) {
      list.replaceChildren(item('Select a field to see its events.'));
      return;
    }
    let shown;
    try {
      const events = await this.api.json<FeedEvent[]>('events', path);
      // Spec 2.10: the braces are slots for the tagged resources, shown by name.
      const messages = await this.labels.messages(events);
      this.lastError = '';
      shown = this.view.answered(path, { events, messages });
    } catch (err) {
      // A failing poll is reported once, not every five seconds.
      const text = err instanceof Error ? err.message : String(err);
      if (text !== this.lastError) showError(err);
      this.lastError = text;
      shown = this.view.failed(path, err);
    }
    // Another feed chosen (or field selected) meanwhile: its own refresh shows it.
    if (this.path() !== path) return;
    const { events, messages } = shown.answer ?? { events: [], messages: [] };
    const items = events.map((e, i) => {
      const li = item(messages[i]!);
      li.dataset.id = e.id;
      const time = document.createElement('time');
      time.dateTime = e.occurrenceTime;
      time.textContent = `${new Date(e.occurrenceTime).toUTCString()} · ${e.app}`;
      li.prepend(time);
      return li;
    });
    if (shown.error !== null) {
      const failed = item(shown.answer ? `Not up to date: ${shown.error}` : shown.error);
      failed.className = 'failed';
      items.unshift(failed);
    } else if (items.length === 0) items.push(item('No events yet.'));
    list.replaceChildren(...items);
    list.dataset.state = shown.error === null ? 'loaded' : 'error';
  }
}

function item(text: string): HTMLLIElement {
  const li = document.createElement('li');
  li.textContent = text;
  return li;
}
