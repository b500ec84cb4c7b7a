import { type FieldError, InvalidRequestError, NotFoundError } from '@fieldcast/kit';
import { anyCase, ARCHIVE_HISTORY_LIMIT, ArchiveLimit, rangeOrderFault, withPlusHint } from '@fieldcast/schemas';
import { DATE_FORM, DateError, DAY_MS, eventDayOf, parseEventDay, parseTime, type EventDay } from './dates.js';
import { LocationError, parsePlace, type Place } from './iso6709.js';
import { ARCHIVE_REQUESTS, isArchiveRequest, type ArchiveRequest, type ArchiveType } from './types.js';

/**
 * An archive request as the domain reads it (docs/interface.md §11), parsed from the path's
 * segments and the query. Faults are 400 with the accepted form; an unknown request kind is 404;
 * more work than the area does in one request is 422 before anything is computed.
 */
export interface ArchiveQuery {
  type: ArchiveType;
  request: ArchiveRequest;
  place: Place;
  /** points only: the search radius, in the caller's units and in km */
  radius: { value: number; units: Units; km: number } | null;
  /** distances in answers are in these units */
  units: Units;
  /** inclusive instants, epoch ms */
  startMs: number;
  endMs: number;
  /** the event day of `/{date}`, when the path names one */
  day: EventDay | null;
  /** history: at most this many records, newest first (or nearest first) */
  limit: number;
  /** lightning: which strokes */
  strokeTypes: ReadonlySet<'cloud' | 'ground'>;
  /** lightning: order of history */
  sort: 'time' | 'distance';
}

export type Units = 'miles' | 'km';
const UNITS_WORDS = anyCase(['miles', 'km']);

export const KM_PER_MILE = 1.609344;
/** The public record's cap: 20 statute miles, whatever the units the radius is given in. */
export const MAX_RADIUS_MILES = 20;
/**
 * The same cap for a radius in km, as the documents and messages print it: 20 miles to the metre
 * (32.187), so the number a client reads is one it may send; 0.12 m beyond 20 miles (32.18688 km).
 */
const MAX_RADIUS_KM = Math.round(MAX_RADIUS_MILES * KM_PER_MILE * 1000) / 1000;
export const DEFAULT_RADIUS = 1;
export const DEFAULT_SPAN_DAYS = 90;

/** The query parameters each type takes; any other is refused so a misspelt one is not silently ignored. */
const COMMON_PARAMETERS = ['u', 't', 'begin', 'end', 'radius', 'units', 'limit'];
const LIGHTNING_PARAMETERS = ['types', 'sort'];

export interface RawArchiveRequest {
  type: ArchiveType;
  request: string;
  location: string;
  date?: string;
  query: Record<string, unknown>;
  now: number;
}

function fault(parameter: string, message: string): InvalidRequestError {
  return new InvalidRequestError('invalid_parameter', message, [{ path: parameter, message }]);
}

/**
 * A location or date of the path that is not one: the path names no resource, 404 (spec 7: "404
 * Not Found, the resource does not exist (invalid path)"; 400 is for the query's parameters).
 */
function pathFault(part: 'location' | 'date', text: string, message: string): NotFoundError {
  return new NotFoundError('route', text, message, [{ path: part, message }]);
}

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw fault(name, `${name} is given more than once or with brackets; give it once`);
  return value;
}

function positiveNumber(text: string, name: string): number {
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text)) throw fault(name, `${name} must be a positive decimal number`);
  const value = Number(text);
  if (!(value > 0)) throw fault(name, `${name} must be greater than 0`);
  return value;
}

/**
 * The request kind a path names, in any case as the version and type before it
 * (docs/decisions/0406-archive-path-words-in-any-case.md); an unknown one is 404.
 */
export function checkRequestKind(request: string): ArchiveRequest {
  const kind = request.toLowerCase();
  if (!isArchiveRequest(kind))
    throw new NotFoundError('route', request, `No request kind "${request}"; the archive serves ${ARCHIVE_REQUESTS.join(', ')}`);
  return kind;
}

export function parseArchiveQuery(raw: RawArchiveRequest): ArchiveQuery {
  const request = checkRequestKind(raw.request);
  const { query } = raw;
  const allowed = [...COMMON_PARAMETERS, ...(raw.type === 'lightning' ? LIGHTNING_PARAMETERS : [])];
  for (const name of Object.keys(query)) {
    if (!allowed.includes(name)) {
      const which = LIGHTNING_PARAMETERS.includes(name) ? `${name} applies to lightning only` : `unknown parameter ${name}`;
      throw fault(name, `${which}; ${raw.type} takes ${allowed.join(', ')}`);
    }
  }

  // The credentials are parameters too: one given twice is 400 before any credential is checked.
  single(query, 'u');
  single(query, 't');

  let place: Place;
  try {
    place = parsePlace(raw.location);
  } catch (err) {
    if (err instanceof LocationError) throw pathFault('location', raw.location, err.message);
    throw err;
  }

  const unitsText = single(query, 'units');
  const radiusText = single(query, 'radius');
  if (place.kind === 'region' && (unitsText !== undefined || radiusText !== undefined)) {
    throw fault(radiusText !== undefined ? 'radius' : 'units', 'radius and units apply to a point, not to a region');
  }
  // A unit word, read in any case as the path's words and the API's other unit words (ET's unit,
  // the degree days' scale) are (docs/decisions/0406-archive-path-words-in-any-case.md).
  if (unitsText !== undefined && !UNITS_WORDS.test(unitsText)) throw fault('units', 'units must be miles or km (any case)');
  const units = (unitsText?.toLowerCase() ?? 'miles') as Units;
  let radius: ArchiveQuery['radius'] = null;
  if (place.kind === 'point') {
    const value = radiusText === undefined ? DEFAULT_RADIUS : positiveNumber(radiusText, 'radius');
    const km = units === 'km' ? value : value * KM_PER_MILE;
    if (value > (units === 'km' ? MAX_RADIUS_KM : MAX_RADIUS_MILES)) {
      throw fault('radius', `radius is at most ${MAX_RADIUS_MILES} miles (${MAX_RADIUS_KM} km)`);
    }
    radius = { value, units, km };
  }

  const { startMs, endMs, day } = timeRange(query, raw.date, raw.now);

  const limitText = single(query, 'limit');
  if (limitText !== undefined && request !== 'history') throw fault('limit', 'limit applies to history only');
  let limit = ARCHIVE_HISTORY_LIMIT.default;
  if (limitText !== undefined) {
    // The form and words of every list's limit (countParam in packages/schemas).
    const read = ArchiveLimit.safeParse(limitText);
    if (!read.success) throw fault('limit', read.error.issues[0]!.message);
    limit = read.data;
  }

  const strokeTypes = new Set<'cloud' | 'ground'>();
  const typesText = single(query, 'types') ?? 'ground';
  for (const part of typesText.split(',')) {
    if (part !== 'cloud' && part !== 'ground') throw fault('types', 'types must be cloud, ground or cloud,ground');
    strokeTypes.add(part);
  }
  const sortGiven = single(query, 'sort');
  // as limit: a summary or latest ignores the order, so a sort given there is refused, not dropped
  if (sortGiven !== undefined && request !== 'history') throw fault('sort', 'sort applies to history only');
  const sortText = sortGiven ?? 'time';
  if (sortText !== 'time' && sortText !== 'distance') throw fault('sort', 'sort must be time or distance');
  if (sortText === 'distance' && place.kind === 'region') throw fault('sort', 'sort=distance needs a point, not a region');

  const parsed: ArchiveQuery = { type: raw.type, request, place, radius, units, startMs, endMs, day, limit, strokeTypes, sort: sortText };
  return parsed;
}

/** begin and end (RFC 3339 or POSIX seconds), or one event day from the path (docs/interface.md §11). */
function timeRange(
  query: Record<string, unknown>,
  dateText: string | undefined,
  now: number,
): { startMs: number; endMs: number; day: EventDay | null } {
  const beginText = single(query, 'begin');
  const endText = single(query, 'end');
  // Every malformed bound is an item of errors, begin and end both, as every area's errors[] names
  // each invalid parameter (docs/decisions/0005-problem-details.md).
  const faults: FieldError[] = [];
  const parse = (text: string, name: string, at: (t: string, n: string) => number) => {
    try {
      return at(text, name);
    } catch (err) {
      // begin and end are query parameters, where a + reads as a space; a path's /{date} keeps its +
      if (err instanceof DateError) faults.push({ path: name, message: withPlusHint(err.message, text) });
      else throw err;
      return Number.NaN;
    }
  };
  if (dateText !== undefined) {
    if (beginText !== undefined || endText !== undefined)
      throw fault(beginText !== undefined ? 'begin' : 'end', 'a path that names an event day takes no begin or end');
    let day: number;
    try {
      day = parseEventDay(dateText).startMs;
    } catch (err) {
      if (err instanceof DateError) throw pathFault('date', dateText, err.message);
      throw err;
    }
    const eventDay = eventDayOf(day);
    return { startMs: eventDay.startMs, endMs: eventDay.endMs - 1, day: eventDay };
  }
  const beginMs = beginText === undefined ? undefined : parse(beginText, 'begin', parseTime);
  const endMs = endText === undefined ? now : parse(endText, 'end', parseTime);
  const startMs = beginMs ?? endMs - DEFAULT_SPAN_DAYS * DAY_MS;
  if (faults.length > 0) {
    throw new InvalidRequestError('invalid_parameter', faults.map((f) => f.message).join('; '), faults);
  }
  // The member every area names for a range out of order; begin is the archive's start.
  const unordered = rangeOrderFault(startMs, endMs, { endGiven: endText !== undefined });
  if (unordered) throw fault(unordered === 'start' ? 'begin' : 'end', `begin is after end (${DATE_FORM})`);
  return { startMs: Math.max(0, startMs), endMs, day: null };
}
