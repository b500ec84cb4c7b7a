import { Api, type ServiceDefinition } from '@fieldcast/kit';
import { eventsMigration } from '../migrations/001_events.js';
import { feedsMigration } from '../migrations/002_feeds.js';
import { feedEntriesMigration } from '../migrations/003_feed_entries.js';
import { AppDirectory } from './app-directory.js';
import { startConsumer } from './consumer.js';
import { eventRoutes } from './routes/events.js';
import { feedRoutes } from './routes/feeds.js';
import { AREA, EventStore } from './store.js';

export const eventsService: ServiceDefinition = {
  area: AREA,
  title: 'Events',
  description: 'Application and resource events and their feeds (spec 4.10, 6).',
  migrations: [eventsMigration, feedsMigration, feedEntriesMigration],
  topics: [],
  api(deps) {
    const store = new EventStore(deps.db);
    const api = eventRoutes(new Api(), store, deps.now);
    return feedRoutes(api, store, new AppDirectory(deps.identity, store));
  },
  background(deps) {
    return startConsumer(deps, new EventStore(deps.db));
  },
};
