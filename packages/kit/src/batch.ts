import { type BatchLocation, MAX_BATCH_LOCATIONS } from '@fieldcast/schemas';
import { RequestTooLargeError } from './errors.js';

/** Refuses a batch of more entries than one request may hold (docs/decisions/0242-batch-requests.md): 422 request_too_large, as work over a limit. */
function refuseLargeBatch(count: number): void {
  RequestTooLargeError.refuseOver(count, {
    limit: MAX_BATCH_LOCATIONS,
    subject: 'batch',
    unit: 'locations',
    meaning: 'entries of locations',
    advice: 'Split it into several requests.',
  });
}

type Point = { longitude: number; latitude: number };

/** How one area answers the entries of a batch. */
export interface BatchPlan<O, R> {
  /** the caller's resource of this id; throws NotFoundError (404) for one that is not theirs */
  owned(id: string): Promise<O>;
  /** the work of one entry, in the unit of the area's limit */
  work(entry: { point: Point } | { resource: O }): number;
  /** refuses (422 request_too_large) a total over the area's limit */
  checkWork(total: number): void;
  /** the results of the points, in their order: read together where the weather allows */
  points(points: Point[]): Promise<R[]>;
  resource(resource: O): Promise<R>;
}

/**
 * The results of a batch in the order of its entries (docs/decisions/0242-batch-requests.md):
 * the count is checked, then ownership of every id (the first that is not the caller's is 404),
 * then the work of the whole batch against the one limit, all before anything is computed.
 */
export async function answerBatch<O, R>(locations: readonly BatchLocation[], plan: BatchPlan<O, R>): Promise<R[]> {
  refuseLargeBatch(locations.length);
  const resources = await Promise.all(locations.map((l) => ('id' in l ? plan.owned(l.id) : undefined)));
  let work = 0;
  locations.forEach((l, i) => (work += 'id' in l ? plan.work({ resource: resources[i] as O }) : plan.work({ point: l })));
  plan.checkWork(work);
  const points = locations.filter((l): l is Point => !('id' in l));
  const [pointResults, resourceResults] = await Promise.all([
    points.length > 0 ? plan.points(points) : Promise.resolve([]),
    Promise.all(resources.map((r, i) => ('id' in locations[i]! ? plan.resource(r as O) : undefined))),
  ]);
  let p = 0;
  return locations.map((l, i) => ('id' in l ? (resourceResults[i] as R) : pointResults[p++]!));
}
