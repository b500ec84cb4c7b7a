import { Api } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';
import { eventsMigration } from '../migrations/001_events.js';
import { feedsMigration } from '../migrations/002_feeds.js';
import { feedEntriesMigration } from '../migrations/003_feed_entries.js';
import { AppDirectory } from './app-directory.js';
import { resourceEventsConsumer } from './consumer.js';
import { eventRoutes } from './routes/events.js';
import { feedRoutes } from './routes/feeds.js';
import { AREA, EventStore } from './store.js';

/** The events service: what `fieldcast serve events` and the embedded fleet run. It needs no weather. */
export const eventsService = defineService({
  area: AREA,
  port: 8,
  title: 'Events',
  description: 'Application and resource events and their feeds (spec 4.10, 6).',
  needs: { database: { migrations: [eventsMigration, feedsMigration, feedEntriesMigration] } },
  api(deps) {
    const store = new EventStore(deps.db);
    const api = eventRoutes(new Api(), store, deps.now);
    return feedRoutes(api, store, new AppDirectory(deps.identity, store));
  },
  consumers(deps) {
    return [resourceEventsConsumer(new EventStore(deps.db), deps)];
  },
});
