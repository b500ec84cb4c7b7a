import { Api, type ServiceDefinition } from '@fieldcast/kit';
import { fieldsMigration } from '../migrations/001_fields.js';
import { fieldRoutes } from './routes/fields.js';
import { growingDegreeDayRoutes } from './routes/growing-degree-days.js';
import { AREA, FIELDS_TOPIC, FieldStore } from './store.js';

export const agricultureService: ServiceDefinition = {
  area: AREA,
  title: 'Agriculture',
  description: 'Fields and growing degree days (spec 4.1, 4.2).',
  migrations: [fieldsMigration],
  topics: [FIELDS_TOPIC],
  api(deps) {
    const fields = new FieldStore(deps.db.knex, deps.outbox, deps.now, { soleWriter: deps.db.kind === 'pglite' });
    return growingDegreeDayRoutes(fieldRoutes(new Api(), fields), { fields, weather: deps.weather, now: deps.now });
  },
};
