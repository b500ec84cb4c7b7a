import { answerBatch, type Api, BodyFault } from '@fieldcast/kit';
import {
  batchBody,
  batchResult,
  ChillFieldResult,
  ChillLocationResult,
  chillQuerySchema,
  DegreeDayLocationParams,
  IdParams,
} from '@fieldcast/schemas';
import type { GridSource } from '@fieldcast/weather';
import type { DegreeDayComputer } from '../degree-day-compute.js';
import { chillWork, locationChill } from '../domain/chill.js';
import { checkChillWork, MAX_CHILL_CELL_HOURS } from '../domain/work-limits.js';
import type { FieldRecord } from '../domain/fields.js';
import { type ChillPointResults, chillPointKey, resultsAt } from '../point-results.js';
import type { FieldStore } from '../store.js';
import { chillCsv } from './csv-tables.js';
import { ownedField } from './owned-field.js';

export interface ChillRouteDeps {
  fields: FieldStore;
  weather: GridSource;
  now: () => Date;
  /** field results, off the event loop */
  computer: DegreeDayComputer;
  /** chill at points already computed */
  points: ChillPointResults;
}

const MODELS =
  'chill hours (0-7.2 °C), Utah chill units (Richardson et al. 1974) or chill portions (Dynamic model, as chillR computes them)';
const QUERY =
  'Query: model, start (a biofix such as the onset of dormancy), end, include=daily; unknown parameters are ignored. Start defaults to the season start before end: 1 September (northern hemisphere) or 1 March (southern). Accept: text/csv answers CSV.';
const LIMIT = `At most ${MAX_CHILL_CELL_HOURS.toLocaleString('en')} cell-hours (weather grid cells x hours)`;

const ChillBatchResult = batchResult(ChillLocationResult, ChillFieldResult, 'ChillBatch');

/** Winter chill at a location and over a field (beyond the spec; docs/decisions/0241-chill-endpoint.md). */
export function chillRoutes(api: Api, deps: ChillRouteDeps): Api {
  const query = chillQuerySchema(deps.now);
  return api
    .op({
      method: 'post',
      path: '/chill/batch',
      summary: 'Winter chill at many places',
      description: `The location result of each [longitude, latitude] and the field result of each field id of locations, in their order, all with the same query: ${MODELS}. ${QUERY} ${LIMIT} for the whole batch: 4 cells per point, a field as its own request counts it, times the hours; a batch over it, or of more than 1,000 entries, gets 422 request_too_large before anything is computed. An invalid entry is 400 naming its index (errors[].path locations.<index>); a field id that is not yours is 404.`,
      tags: ['chill'],
      query,
      body: batchBody('field'),
      bodyFaults: BodyFault.malformed,
      response: { status: 200, description: 'One result per entry, in order', schema: ChillBatchResult },
      errors: [404, 422, 503],
      csv: chillCsv,
      // Many places over a season of hours (docs/architecture.md §3, limits): an account has only a few in flight.
      heavy: true,
      handle: async ({ account, body, query: q }) => ({
        results: await answerBatch<FieldRecord, ChillLocationResult | ChillFieldResult>(body.locations, {
          owned: (id) => ownedField(deps.fields, account.id, id),
          work: (entry) =>
            'point' in entry ? chillWork.location(q, entry.point.latitude) : chillWork.field(deps.weather, entry.resource, q),
          checkWork: (total) => checkChillWork(total, MAX_CHILL_CELL_HOURS, 'batch'),
          points: (points) => {
            const now = deps.now().getTime();
            const keyOf = (p: (typeof points)[number]) => chillPointKey(deps.weather, p.latitude, p.longitude, q, now);
            return resultsAt(deps.points, points, keyOf, (missing) => deps.computer.chillPoints(missing, q));
          },
          resource: (field) => deps.computer.chill(field, q),
        }),
      }),
    })
    .op({
      method: 'get',
      path: '/chill/{id}',
      summary: 'Winter chill over a field',
      description: `Chill at the centroid, and the area-weighted mean, maximum and minimum over the grid cells the field covers, each from hourly air temperature from start 00:00Z to end 23:00Z: ${MODELS}. ${QUERY} The default start is the season's at the centroid. ${LIMIT}: the cells within half a cell of the field's bounding box plus the centroid's 4, times the hours; a request over it gets 422 request_too_large before anything is computed.`,
      tags: ['chill'],
      params: IdParams,
      query,
      response: { status: 200, description: 'The chill over the field', schema: ChillFieldResult },
      errors: [404, 422, 503],
      csv: chillCsv,
      // Hourly grids over a season (docs/architecture.md §3, limits): an account has only a few in flight.
      heavy: true,
      handle: async ({ account, params, query: q }) => deps.computer.chill(await ownedField(deps.fields, account.id, params.id), q),
    })
    .op({
      method: 'get',
      path: '/chill/{latitude}/{longitude}',
      summary: 'Winter chill at a location',
      description: `Chill accumulated over the hours from start 00:00Z to end 23:00Z, from hourly air temperature interpolated bilinearly between grid points: ${MODELS}. ${QUERY} ${LIMIT}; a location is 4 cells, so every accepted date range is within it.`,
      tags: ['chill'],
      params: DegreeDayLocationParams,
      query,
      response: { status: 200, description: 'The chill at the location', schema: ChillLocationResult },
      errors: [503],
      csv: chillCsv,
      handle: ({ params, query: q }) =>
        deps.points.get(chillPointKey(deps.weather, params.latitude, params.longitude, q, deps.now().getTime()), () =>
          locationChill(deps.weather, q, params.latitude, params.longitude),
        ),
    });
}
