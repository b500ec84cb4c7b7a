import { isoTime } from './dates.js';
import { formatPoint } from './iso6709.js';
import type { ArchiveQuery, Units } from './query.js';
import { recordOf, type ArchiveRecord } from './records.js';
import { checkWork, inUnits, selectEvents, type Selected } from './selection.js';
import { summarize, type SummaryDay } from './summary.js';
import type { ArchiveRequest, ArchiveType } from './types.js';
import type { SevereEventBlocks } from './event-blocks.js';
import type { IngestedReportSource } from './ingested-reports.js';

/** The request as the archive understood it, echoed in every answer so a caller sees the defaults applied. */
export interface QueryEcho {
  type: ArchiveType;
  request: ArchiveRequest;
  /** a point query's ISO 6709 location */
  location?: string;
  /** a region query's corners, ISO 6709 */
  region?: { northEast: string; southWest: string };
  radius?: number;
  units?: Units;
  begin: string;
  end: string;
  /** the event day a path named */
  date?: string;
  /** lightning: the stroke types counted and listed */
  types?: string;
  /** lightning history: the order */
  sort?: string;
}

export type ArchiveAnswer =
  | { kind: 'summary'; query: QueryEcho; days: SummaryDay[] }
  | { kind: 'features'; query: QueryEcho; records: ArchiveRecord[]; totalItems: number; itemsPerPage: number };

function echo(q: ArchiveQuery): QueryEcho {
  return {
    type: q.type,
    request: q.request,
    ...(q.place.kind === 'point'
      ? { location: formatPoint(q.place.point), radius: q.radius!.value, units: q.units }
      : { region: { northEast: formatPoint(q.place.northEast), southWest: formatPoint(q.place.southWest) } }),
    begin: isoTime(q.startMs),
    end: isoTime(q.endMs),
    ...(q.day ? { date: q.day.date } : {}),
    ...(q.type === 'lightning' ? { types: [...q.strokeTypes].sort().join(','), ...(q.request === 'history' ? { sort: q.sort } : {}) } : {}),
  };
}

const newestFirst = (a: Selected, b: Selected) => b.event.timeMs - a.event.timeMs || (a.event.id < b.event.id ? -1 : 1);

/**
 * Answers a parsed archive request at `now` (docs/interface.md §11): deterministic for a given
 * query, `now` and the ingested reports kept.
 */
export async function answer(
  q: ArchiveQuery,
  now: number,
  blocks: SevereEventBlocks,
  reports?: IngestedReportSource,
): Promise<ArchiveAnswer> {
  checkWork(q, now);
  const selected = await selectEvents(q, now, blocks, reports);
  const query = echo(q);
  if (q.request === 'summary')
    return {
      kind: 'summary',
      query,
      days: summarize(
        q.type,
        selected.map((s) => s.event),
        { startMs: q.startMs, endMs: q.endMs },
      ),
    };
  const ordered =
    q.request === 'history' && q.sort === 'distance'
      ? [...selected].sort((a, b) => a.distanceKm! - b.distanceKm! || newestFirst(a, b))
      : [...selected].sort(newestFirst);
  const kept = q.request === 'latest' ? ordered.slice(0, 1) : ordered.slice(0, q.limit);
  const records = kept.map((s) => recordOf(q.type, s.event, s.distanceKm === undefined ? undefined : inUnits(s.distanceKm, q.units)));
  return { kind: 'features', query, records, totalItems: selected.length, itemsPerPage: q.request === 'latest' ? 1 : q.limit };
}
