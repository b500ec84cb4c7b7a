import { z } from 'zod';

/** Resource ids: UUIDs (v4 for created resources, v5 for derived records; docs/architecture.md §3). */
export const Uuid = z.uuid({ error: 'must be a UUID' });

/**
 * A UUID a caller sends (path, query, body), in its canonical lower-case form: RFC 9562 section 4
 * reads UUIDs case-insensitively and writes them in lower case, so an id in upper case names the
 * same resource, and caches and comparisons see one spelling.
 */
export const UuidInput = Uuid.toLowerCase();

export const IdParams = z.object({ id: UuidInput });

/** ISO 8601 UTC timestamp with `Z` (docs/architecture.md §3). */
export const Timestamp = z.iso.datetime({ error: 'must be an ISO 8601 UTC timestamp such as 2026-05-01T12:00:00Z' });

export const LatLon = z.object({ latitude: z.number(), longitude: z.number() });

/** A decimal number as a path or query parameter writes it: digits with an optional sign and point, no exponent or space. */
export const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * A parameter's description and examples, on the text it is sent as: zod leaves out a transforming
 * schema's examples from the input side of its JSON Schema, the side a document gives parameters,
 * so they are stated before the text is read as a number, an instant or a geometry. Given last
 * before the transform: a refinement after it makes a schema of its own, without them.
 */
export const sentAs = (text: z.ZodString, description: string, examples?: readonly string[]) =>
  text.meta({ description, ...(examples ? { examples: [...examples] } : {}) });

/** A latitude or longitude in a path, decimal degrees (WGS84) from -limit to limit. */
export function coordinateParam(name: 'latitude' | 'longitude', limit: number, example: string) {
  const message = `${name} must be a decimal number from -${limit} to ${limit}, such as ${example}`;
  return sentAs(z.string().regex(DECIMAL, { error: message }), `${name}, decimal degrees (WGS84), -${limit}..${limit}`, [example])
    .transform(Number)
    .refine((v) => v >= -limit && v <= limit, { error: message });
}

/** A date and a time of hours and minutes alone, then its zone: `2026-05-01T12:00Z`, `…T12:00+02:00`. */
const MINUTES_THEN_ZONE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(Z|[+-]\d{2}:\d{2})$/;

/**
 * A timestamp of ISO 8601's reduced precision, without seconds (ISO 8601-1:2019 §5.3.1.3), written
 * at the start of its minute with `:00`, the form the checks of full timestamps take; any other
 * text as it is (docs/decisions/0488-times-without-seconds.md).
 */
const withSeconds = (text: string): string => text.replace(MINUTES_THEN_ZONE, '$1:00$2');

/** The time designator after a date, and UTC's designator after a time, written in lower case. */
const LOWER_T = /^(\d{4}-\d{2}-\d{2})t/;
const LOWER_Z = /(\d)z$/;

/**
 * A time as the checks of full timestamps take it: `t` and `z` in upper case (RFC 3339 section 5.6
 * reads them in either case, "per ISO 8601", as the observation sets and the archive do), and
 * seconds added where they were left out (`withSeconds`). The one reading of the insight, model,
 * platform and events areas' times (docs/decisions/0523-time-designators-in-either-case.md).
 */
export const timeText = (text: string): string => withSeconds(text.replace(LOWER_T, '$1T').replace(LOWER_Z, '$1Z'));

/** UTC's zone: `Z`, or the zero offset `+00:00` or `-00:00` (RFC 3339 section 4.3). */
export const UTC_ZONE = /(Z|[+-]00:00)$/;

const UTC_TIMESTAMP_WORDS = 'an ISO 8601 UTC timestamp such as 2026-05-01T12:00:00Z, ending in Z or +00:00';

/**
 * A UTC timestamp a body sends (spec 2: "Timestamps are ISO 8601 strings in UTC"): `Z` or the zero
 * offset, seconds optional, a fraction of any length, read by `timeText`; the text the model and
 * insight areas' times take, read the same way (docs/decisions/0522-utc-in-every-form-it-is-written.md).
 */
export const UtcTimestampInput = sentAs(z.string({ error: `must be ${UTC_TIMESTAMP_WORDS}` }), UTC_TIMESTAMP_WORDS, [
  '2026-05-01T12:00:00Z',
])
  .transform(timeText)
  .pipe(
    z.iso
      .datetime({ offset: true, error: `must be ${UTC_TIMESTAMP_WORDS}`, abort: true })
      .refine((s) => UTC_ZONE.test(s), { error: `must be ${UTC_TIMESTAMP_WORDS}` }),
  );

/** Digits of a timestamp's fraction past the millisecond that are not all zero. */
const SUB_MILLISECOND = /\.\d{3}\d*[1-9]/;

/**
 * An ISO 8601 timestamp already checked, as epoch milliseconds, the precision the service keeps,
 * for an inclusive bound: a start between two milliseconds begins at the later one, so nothing
 * before it is taken in; an end ends at the earlier one.
 */
export function boundMs(text: string, bound: 'start' | 'end'): number {
  return Date.parse(text) + (bound === 'start' && SUB_MILLISECOND.test(text) ? 1 : 0);
}

/**
 * A count in a query string (`limit`): decimal digits only, at most `digits` of them when given,
 * then a whole number from 1 to `max` (from 1 up without one). The refusals are worded here, the
 * same for every list of every area: one message for any value out of form or range, and one for
 * a parameter given twice, as the other query parameters word theirs (choiceError).
 */
export function countParam(o: { name?: string; max?: number; digits?: number; description: string; examples?: string[] }) {
  const name = o.name ?? 'limit';
  const accepted = o.max === undefined ? 'a whole number, 1 or more' : `a whole number from 1 to ${o.max}`;
  const message = `${name} must be ${accepted}`;
  const digits = z
    .string({ error: `${name} must be given once, as ${accepted}` })
    .regex(o.digits === undefined ? /^[0-9]+$/ : new RegExp(`^[0-9]{1,${o.digits}}$`), { error: message });
  return sentAs(digits, o.description, o.examples)
    .transform(Number)
    .refine((n) => n >= 1 && (o.max === undefined || n <= o.max), { error: message });
}

/**
 * A keyset cursor in a query string (`after`, `before`): the id of a record of the list, `names`
 * saying whose (`the id of an event`). Refused by its name, as every query parameter is; given
 * twice it reaches the schema as an array and is told so, not that it is no UUID, since both
 * values may well be UUIDs. In canonical lower case, as UuidInput (RFC 9562 section 4).
 */
export function cursorParam(o: { name: 'after' | 'before'; names: string; description: string }) {
  const accepted = `${o.names} (a UUID)`;
  return z
    .uuid({
      error: (issue) => (Array.isArray(issue.input) ? `${o.name} must be given once, as ${accepted}` : `${o.name} must be ${accepted}`),
    })
    .toLowerCase()
    .meta({ description: o.description });
}

/**
 * The refusal of a query parameter that takes one of a few words (`method`, `model`): a value
 * given twice reaches the schema as an array, and is told so rather than that its values are
 * not among the words.
 */
export function choiceError(name: string, accepted: string): (issue: { input?: unknown }) => string {
  return (issue) => (Array.isArray(issue.input) ? `${name} must be given once: ${accepted}` : `${name} must be ${accepted}`);
}

/**
 * A pattern that takes any of `words` in any case, written with character classes rather than
 * the i flag: the OpenAPI document carries a parameter's pattern as JSON Schema's (ECMA-262
 * without flags), so a client that checks it takes what the service takes.
 */
export function anyCase(words: readonly string[]): RegExp {
  const letter = (c: string) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toLowerCase()}${c.toUpperCase()}]`);
  return new RegExp(`^(${words.map((w) => [...w].map(letter).join('')).join('|')})$`);
}

/**
 * The member a range whose start is after its end is refused on, or undefined when it is in order,
 * open or has a bound already refused (NaN): `end`, the bound that falls short of the start, in every area that takes a start and
 * an end (or a begin and an end). An end left to its default is no parameter the caller sent, so
 * then the start is named (docs/decisions/0031-degree-day-query.md: the parameter given).
 */
export function rangeOrderFault<T extends number | bigint>(
  start: T | null | undefined,
  end: T | null | undefined,
  o: { endGiven?: boolean } = {},
): 'start' | 'end' | undefined {
  // NaN, a bound already refused, is in no order.
  if (start === undefined || start === null || end === undefined || end === null || !(start > end)) return undefined;
  return o.endGiven === false ? 'start' : 'end';
}

/**
 * The check of a query whose start and end are already read as numbers, for `.superRefine`: a
 * start after the end is one issue on the member `rangeOrderFault` names.
 */
export const orderedRange =
  (message: string) =>
  (q: { start?: number; end?: number }, ctx: z.RefinementCtx): void => {
    const member = rangeOrderFault(q.start, q.end);
    if (member) ctx.addIssue({ code: 'custom', path: [member], message, input: q });
  };
