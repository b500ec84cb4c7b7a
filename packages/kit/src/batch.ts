import { type BatchLocation, MAX_BATCH_LOCATIONS } from '@fieldcast/schemas';
import { type FieldError, InvalidRequestError, NotFoundError, RequestTooLargeError } from './errors.js';

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
 * the count is checked, then ownership of every id, then each entry against the query, then the
 * work of the whole batch against the one limit, all before anything is computed. Every id that
 * is not the caller's, and every entry the query cannot be answered for, is named by its index
 * (errors[].path locations.<index>) in one answer, so a caller mends them all at once.
 */
export async function answerBatch<O, R>(locations: readonly BatchLocation[], plan: BatchPlan<O, R>): Promise<R[]> {
  refuseLargeBatch(locations.length);
  const owned = await Promise.allSettled(locations.map((l) => ('id' in l ? plan.owned(l.id) : undefined)));
  const resources = owned.map((o) => (o.status === 'fulfilled' ? o.value : undefined));
  const missing = entryFaults(owned, (o) => {
    if (o.status === 'fulfilled') return undefined;
    if (o.reason instanceof NotFoundError) return o.reason;
    throw o.reason;
  });
  if (missing.faults.length > 0) {
    const first = missing.errors[0]!;
    throw new NotFoundError(first.kind, first.ref, batchMessage(missing.faults, first.message), missing.faults);
  }
  let work = 0;
  // An entry's work reads the query at its place (a chill season's default start is its
  // hemisphere's), so a query that cannot be answered there is refused by it.
  const refused = entryFaults(locations, (l, i) => {
    try {
      work += 'id' in l ? plan.work({ resource: resources[i] as O }) : plan.work({ point: l });
      return undefined;
    } catch (err) {
      if (err instanceof InvalidRequestError) return err;
      throw err;
    }
  });
  if (refused.faults.length > 0) {
    const first = refused.errors[0]!;
    throw new InvalidRequestError(first.code, batchMessage(refused.faults, first.message), refused.faults);
  }
  plan.checkWork(work);
  const points = locations.filter((l): l is Point => !('id' in l));
  const [pointResults, resourceResults] = await Promise.all([
    points.length > 0 ? plan.points(points) : Promise.resolve([]),
    Promise.all(resources.map((r, i) => ('id' in locations[i]! ? plan.resource(r as O) : undefined))),
  ]);
  let p = 0;
  return locations.map((l, i) => ('id' in l ? (resourceResults[i] as R) : pointResults[p++]!));
}

/** The errors `fault` finds among the entries, each as a problem body's fault at locations.<index>. */
function entryFaults<T, E extends Error>(entries: readonly T[], fault: (entry: T, index: number) => E | undefined) {
  const errors: E[] = [];
  const faults: FieldError[] = [];
  entries.forEach((entry, i) => {
    const err = fault(entry, i);
    if (!err) return;
    errors.push(err);
    faults.push({ path: `locations.${i}`, message: err.message });
  });
  return { errors, faults };
}

/** A batch's message: the fault itself where there is one, else how many entries and where to find them. */
function batchMessage(faults: readonly FieldError[], only: string): string {
  return faults.length === 1 ? `${faults[0]!.path}: ${only}` : `${faults.length} entries of locations are at fault; errors names each`;
}
