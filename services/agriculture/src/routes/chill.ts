import type { Api } from '@fieldcast/kit';
import { ChillFieldResult, ChillLocationResult, chillQuerySchema, DegreeDayLocationParams, IdParams } from '@fieldcast/schemas';
import type { GridSource } from '@fieldcast/weather';
import type { DegreeDayComputer } from '../degree-day-compute.js';
import { locationChill } from '../domain/chill.js';
import { MAX_DEGREE_DAY_CELL_DAYS } from '../domain/work-limits.js';
import type { FieldStore } from '../store.js';
import { ownedField } from './owned-field.js';

export interface ChillRouteDeps {
  fields: FieldStore;
  weather: GridSource;
  now: () => Date;
  /** field results, off the event loop */
  computer: DegreeDayComputer;
}

const MODELS =
  'chill hours (0-7.2 °C), Utah chill units (Richardson et al. 1974) or chill portions (Dynamic model, as chillR computes them)';
const QUERY =
  'Query: model, start, end; unknown parameters are ignored. Start defaults to the season start before end: 1 September (northern hemisphere) or 1 March (southern).';
const LIMIT = `At most ${MAX_DEGREE_DAY_CELL_DAYS.toLocaleString('en')} cell-days (weather grid cells x days), the degree days' limit`;

/** Winter chill at a location and over a field (beyond the spec; docs/decisions/0241-chill-endpoint.md). */
export function chillRoutes(api: Api, deps: ChillRouteDeps): Api {
  const query = chillQuerySchema(deps.now);
  return api
    .op({
      method: 'get',
      path: '/chill/{id}',
      summary: 'Winter chill over a field',
      description: `Chill at the centroid, and the area-weighted mean, maximum and minimum over the grid cells the field covers, each from hourly air temperature from start 00:00Z to end 23:00Z: ${MODELS}. ${QUERY} The default start is the season's at the centroid. ${LIMIT}: the cells within half a cell of the field's bounding box plus the centroid's 4, times the days; a request over it gets 422 request_too_large before anything is computed.`,
      tags: ['chill'],
      params: IdParams,
      query,
      response: { status: 200, description: 'The chill over the field', schema: ChillFieldResult },
      errors: [404, 422],
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
      handle: ({ params, query: q }) => locationChill(deps.weather, q, params.latitude, params.longitude),
    });
}
