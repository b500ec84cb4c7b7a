import { Api, type ServiceDefinition } from '@fieldcast/kit';
import { eventsMigration } from '../migrations/001_events.js';
import { startConsumer } from './consumer.js';
import { feedRoutes } from './routes/feeds.js';
import { AREA, EventStore } from './store.js';

export const eventsService: ServiceDefinition = {
  area: AREA,
  title: 'Events',
  description: 'Application and resource events and their feeds (spec 4.10, 6).',
  migrations: [eventsMigration],
  topics: [],
  api(deps) {
    return feedRoutes(new Api(), new EventStore(deps.db.knex));
  },
  background(deps) {
    return startConsumer(deps, new EventStore(deps.db.knex));
  },
};
