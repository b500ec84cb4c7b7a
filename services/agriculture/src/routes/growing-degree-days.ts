import { answerBatch, type Api, BodyFault } from '@fieldcast/kit';
import {
  batchBody,
  batchResult,
  DegreeDayContourResult,
  DegreeDayFieldResult,
  DegreeDayLocationParams,
  DegreeDayLocationResult,
  degreeDayQuerySchema,
  IdParams,
} from '@fieldcast/schemas';
import type { GridSource } from '@fieldcast/weather';
import type { DegreeDayComputer } from '../degree-day-compute.js';
import { locationDegreeDays } from '../domain/growing-degree-days.js';
import { checkWork, degreeDayWork, MAX_DEGREE_DAY_CELL_DAYS } from '../domain/work-limits.js';
import type { FieldRecord } from '../domain/fields.js';
import { type DegreeDayPointResults, degreeDayPointKey, resultsAt } from '../point-results.js';
import type { FieldStore } from '../store.js';
import { degreeDayCsv } from './csv-tables.js';
import { ownedField } from './owned-field.js';

export interface DegreeDayRouteDeps {
  fields: FieldStore;
  weather: GridSource;
  now: () => Date;
  /** field results and contours, off the event loop */
  computer: DegreeDayComputer;
  /** degree days at points already computed */
  points: DegreeDayPointResults;
}

const CONTOURS_PARAMETERS = 'Query: base, scale, start, end (spec 4.1) and method, cap, cutoff; unknown parameters are ignored.';
const PARAMETERS =
  'Query: base, scale, start (the biofix, for a pest or crop model), end (spec 4.1) and method, cap, cutoff, include=daily; unknown parameters are ignored. Accept: text/csv answers CSV.';

/** The work limit as each operation states it (docs/operations.md "Limits"; docs/decisions/0050-degree-day-work-limit.md). */
const LIMIT = `At most ${MAX_DEGREE_DAY_CELL_DAYS.toLocaleString('en')} cell-days (weather grid cells x days)`;
const WORK = {
  contours: `${LIMIT}: the cells within one cell of the field's bounding box, times the days; a request over it gets 422 request_too_large, naming the limit and its size, before anything is computed.`,
  field: `${LIMIT}: the cells within half a cell of the field's bounding box plus the centroid's 4, times the days; a request over it gets 422 request_too_large, naming the limit and its size, before anything is computed.`,
  location: `${LIMIT}; a location is 4 cells, so every accepted date range is within it.`,
  batch: `${LIMIT} for the whole batch: 4 cells per point, a field as its own request counts it, times the days; a batch over it, or of more than 1,000 entries, gets 422 request_too_large before anything is computed.`,
};

const DegreeDayBatchResult = batchResult(DegreeDayLocationResult, DegreeDayFieldResult, 'GrowingDegreeDayBatch');

/**
 * Growing degree days (spec 2.6, 4.1). Declared most specific first: Express tries routes in
 * order, and /{id}/contours has as many segments as /{latitude}/{longitude}. A UUID in the
 * latitude position still gets 400, because coordinates must be plain decimals.
 */
export function growingDegreeDayRoutes(api: Api, deps: DegreeDayRouteDeps): Api {
  const query = degreeDayQuerySchema(deps.now);
  const contoursQuery = degreeDayQuerySchema(deps.now, { daily: false });
  const loadField = (accountId: string, id: string) => ownedField(deps.fields, accountId, id);
  return api
    .op({
      method: 'post',
      path: '/growing-degree-days/batch',
      summary: 'Degree days at many places',
      description: `The location result of each [longitude, latitude] and the field result of each field id of locations, in their order, all with the same query. ${PARAMETERS} ${WORK.batch} An invalid entry is 400 naming its index (errors[].path locations.<index>); a field id that is not yours is 404.`,
      tags: ['growing degree days'],
      query,
      body: batchBody('field'),
      bodyFaults: BodyFault.malformed,
      response: { status: 200, description: 'One result per entry, in order', schema: DegreeDayBatchResult },
      errors: [404, 422, 503],
      csv: degreeDayCsv,
      // Many places over many days (docs/architecture.md §3, limits): an account has only a few in flight.
      heavy: true,
      handle: async ({ account, body, query: q }) => {
        // Every point of the batch is the same work (its days alone decide it): counted once, not per point.
        const pointWork = degreeDayWork.location(q);
        return {
          results: await answerBatch<FieldRecord, DegreeDayLocationResult | DegreeDayFieldResult>(body.locations, {
            owned: (id) => loadField(account.id, id),
            work: (entry) => ('point' in entry ? pointWork : degreeDayWork.field(deps.weather, entry.resource, q)),
            checkWork: (total) => checkWork(total, MAX_DEGREE_DAY_CELL_DAYS, 'batch'),
            points: (points) => {
              const now = deps.now().getTime();
              const keyOf = (p: (typeof points)[number]) => degreeDayPointKey(deps.weather, p.latitude, p.longitude, q, now);
              return resultsAt(deps.points, points, keyOf, (missing) => deps.computer.degreeDayPoints(missing, q));
            },
            resource: (field) => deps.computer.field(field, q),
          }),
        };
      },
    })
    .op({
      method: 'get',
      path: '/growing-degree-days/{id}/contours',
      summary: 'Degree-day contours clipped to a field',
      description: `Isobands of the accumulated degree days on the weather grid, clipped to the field, one Polygon per feature; together they cover the field once. Band edges are round numbers (widths 1, 2, 2.5 or 5 x 10^n, at most 10 bands over the values around the field); properties.degreeDays is the band's lower edge. Positions are the field's own values exactly where they are the field's (its corners), the rest at 6 decimals (RFC 7946 section 11.2). ${CONTOURS_PARAMETERS} ${WORK.contours}`,
      tags: ['growing degree days'],
      params: IdParams,
      query: contoursQuery,
      response: { status: 200, description: 'The contour result (spec 2.6)', schema: DegreeDayContourResult },
      errors: [404, 422, 503],
      // Grids over many days (docs/architecture.md §3, limits): an account has only a few in flight.
      heavy: true,
      handle: async ({ account, params, query: q }) => deps.computer.contours(await loadField(account.id, params.id), q),
    })
    .op({
      method: 'get',
      path: '/growing-degree-days/{id}',
      summary: 'Degree days for a field',
      description: `Value at the centroid, and the area-weighted mean, maximum and minimum over the grid cells the field covers. ${PARAMETERS} ${WORK.field}`,
      tags: ['growing degree days'],
      params: IdParams,
      query,
      response: { status: 200, description: 'The field result (spec 2.6)', schema: DegreeDayFieldResult },
      errors: [404, 422, 503],
      csv: degreeDayCsv,
      // Grids over many days (docs/architecture.md §3, limits): an account has only a few in flight.
      heavy: true,
      handle: async ({ account, params, query: q }) => deps.computer.field(await loadField(account.id, params.id), q),
    })
    .op({
      method: 'get',
      path: '/growing-degree-days/{latitude}/{longitude}',
      summary: 'Degree days at a location',
      description: `Degree days accumulated from start to end inclusive, from daily temperatures interpolated bilinearly between grid points. ${PARAMETERS} ${WORK.location}`,
      tags: ['growing degree days'],
      params: DegreeDayLocationParams,
      query,
      response: { status: 200, description: 'The location result (spec 2.6)', schema: DegreeDayLocationResult },
      errors: [503],
      csv: degreeDayCsv,
      handle: ({ params, query: q }) =>
        deps.points.get(degreeDayPointKey(deps.weather, params.latitude, params.longitude, q, deps.now().getTime()), () =>
          locationDegreeDays(deps.weather, q, params.latitude, params.longitude),
        ),
    });
}
