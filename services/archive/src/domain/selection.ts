import { RequestTooLargeError } from '@fieldcast/kit';
import { type Box, boxesWithin, distanceToTrackKm, haversineKm, trackMeetsBox } from '@fieldcast/geo';
import { TORNADO_REACH_KM } from '@fieldcast/weather';
import { BLOCK_DAYS, BLOCK_DEG, blockPeriods, blockRows, eventDayNumber, type SevereEventBlocks } from './event-blocks.js';
import type { ArchiveEvent, IngestedReportSource } from './ingested-reports.js';
import type { Place } from './iso6709.js';
import type { ArchiveQuery } from './query.js';
import { KM_PER_MILE } from './query.js';
import { KIND_OF_TYPE } from './types.js';

/** An event the query selects, with its distance from the query's point (km) when it has one. */
export interface Selected {
  event: ArchiveEvent;
  distanceKm: number | undefined;
}

/** The boxes whose events may answer the query. */
function searchBoxes(q: ArchiveQuery): Box[] {
  const reach = q.type === 'tornado' ? TORNADO_REACH_KM : 0;
  if (q.place.kind === 'region') return boxesWithin(regionBox(q.place), reach);
  const { lat, lon } = q.place.point;
  return boxesWithin({ south: lat, north: lat, west: lon, east: lon }, q.radius!.km + reach);
}

/** A region as a closed box (its edges included). */
function regionBox({ northEast, southWest }: Extract<Place, { kind: 'region' }>): Box {
  return { south: southWest.lat, north: northEast.lat, west: southWest.lon, east: northEast.lon };
}

function inBox(lon: number, lat: number, box: Box): boolean {
  return lon >= box.west && lon <= box.east && lat >= box.south && lat <= box.north;
}

/**
 * The events of the query's type in its place and time, no later than `now` (the archive holds
 * what has happened), with lightning limited to the asked stroke types; in time order. A tornado
 * counts when its track comes within the radius or crosses the region and its life overlaps the time. Storm
 * reports are the synthetic world's and, where `reports` is given, the ingested ones
 * (docs/decisions/0174-ingested-storm-reports.md); no other type reads ingested reports.
 */
export async function selectEvents(
  q: ArchiveQuery,
  now: number,
  blocks: SevereEventBlocks,
  reports?: IngestedReportSource,
): Promise<Selected[]> {
  const kind = KIND_OF_TYPE[q.type];
  const span = spanRead(q, now);
  if (!span) return [];
  const { startMs, endMs, firstDay, lastDay } = span;
  const seen = new Set<string>();
  const out: Selected[] = [];
  const region = q.place.kind === 'region' ? regionBox(q.place) : null;
  const admit = (event: ArchiveEvent): void => {
    if (event.kind === 'tornado') {
      if (event.endTimeMs < startMs || event.timeMs > endMs) return;
    } else if (event.timeMs < startMs || event.timeMs > endMs) return;
    if (event.kind === 'lightning' && !q.strokeTypes.has(event.strokeType)) return;
    if (seen.has(event.id)) return;
    let distanceKm: number | undefined;
    if (region) {
      // a track meets a region where any part of its line does, as a point query measures to its
      // segments, not only its vertices (docs/decisions/0477-a-tornado-track-crosses-a-region.md)
      const inside = event.kind === 'tornado' ? trackMeetsBox(event.track, region) : inBox(event.lon, event.lat, region);
      if (!inside) return;
    } else if (q.place.kind === 'point') {
      const p = q.place.point;
      distanceKm = event.kind === 'tornado' ? distanceToTrackKm(p, event.track) : haversineKm(p, event);
      if (distanceKm > q.radius!.km) return;
    }
    seen.add(event.id);
    out.push({ event, distanceKm });
  };
  for (const box of searchBoxes(q)) {
    for (const event of await blocks.read(kind, box, firstDay, lastDay)) admit(event);
    if (kind === 'storm_report' && reports) for (const event of await reports.read(box, startMs, endMs)) admit(event);
  }
  out.sort((a, b) => a.event.timeMs - b.event.timeMs || (a.event.id < b.event.id ? -1 : 1));
  return out;
}

/**
 * The most event blocks one request may read (docs/decisions/0171-archive-event-blocks.md): a
 * block not yet cached costs tens of milliseconds to draw (a summer one over land up to a few
 * hundred on a loaded machine), so a cold request stays within seconds: e.g. a 16 x 16 degree
 * region over 90 days, or a point over about two years.
 */
export const MAX_BLOCKS = 64;

/**
 * The instants a request reads, no later than `now` (the archive holds what has happened), and
 * the event days of the blocks it reads for them; null when it asks only for the future.
 */
function spanRead(q: ArchiveQuery, now: number): { startMs: number; endMs: number; firstDay: number; lastDay: number } | null {
  const startMs = q.startMs;
  const endMs = Math.min(q.endMs, now);
  if (startMs > endMs) return null;
  // A tornado that touched down the event day before may still be on the ground at the start.
  const firstDay = eventDayNumber(startMs) - (q.type === 'tornado' ? 1 : 0);
  return { startMs, endMs, firstDay, lastDay: eventDayNumber(endMs) };
}

/**
 * How many event blocks a request reads at `now`: those of its search boxes over the days of
 * spanRead, each counted once (docs/decisions/0211-archive-polar-cap-blocks.md: what a request
 * is refused for is what it would read).
 */
export function blocksRead(q: ArchiveQuery, now: number): number {
  const span = spanRead(q, now);
  if (!span) return 0;
  const { bk0, bk1 } = blockPeriods(span.firstDay, span.lastDay);
  const keys = new Set<string>();
  for (const b of searchBoxes(q)) {
    for (const { bi, bj0, bj1 } of blockRows(b)) for (let bj = bj0; bj <= bj1; bj++) keys.add(`${bi}:${bj}`);
  }
  return keys.size * (bk1 - bk0 + 1);
}

/** Refuses a request that would read more than MAX_BLOCKS blocks, before reading any (docs/architecture.md §3, limits). */
export function checkWork(q: ArchiveQuery, now: number): void {
  const blocks = blocksRead(q, now);
  if (blocks > MAX_BLOCKS) {
    throw new RequestTooLargeError(
      `This request would read ${blocks} blocks of ${BLOCK_DEG} degrees by ${BLOCK_DAYS} event days; the archive reads at most ${MAX_BLOCKS} per request: narrow the region or the time range`,
    );
  }
}

/** A distance in km in the query's units. */
export function inUnits(km: number, units: ArchiveQuery['units']): number {
  return units === 'km' ? km : km / KM_PER_MILE;
}
