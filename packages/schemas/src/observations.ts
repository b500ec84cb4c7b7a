// zod schemas of the observations area's requests and records (docs/interface.md §8).
import { calendarMs } from '@fieldcast/calendar';
import { z } from 'zod';
import { countParam, cursorParam, Timestamp, Uuid } from './common.js';
import { withPlusHint } from './query-time.js';
import { text } from './text.js';

/**
 * The variable names and units an observation may carry (docs/interface.md §8; the specification
 * names the first three and leaves the rest open, docs/decisions/0151-observation-variables.md).
 * Each name has exactly one unit: values are stored as sent, never converted, so one unit per
 * name keeps every set comparable with every other.
 */
export const OBSERVATION_VARIABLES = [
  { name: 'liquidPrecipitationRate', unit: 'mm/h', description: 'Rate of liquid precipitation' },
  { name: 'liquidPrecipitationAmount', unit: 'mm', description: 'Depth of liquid precipitation' },
  { name: 'temperature', unit: 'celsius', description: 'Air temperature' },
  { name: 'dewPointTemperature', unit: 'celsius', description: 'Dew point of the air' },
  { name: 'relativeHumidity', unit: 'percent', description: 'Relative humidity of the air, 0 to 100' },
  { name: 'windSpeed', unit: 'm/s', description: 'Wind speed' },
  { name: 'windGustSpeed', unit: 'm/s', description: 'Speed of the strongest gust' },
  { name: 'windDirection', unit: 'degrees', description: 'Direction the wind blows from, clockwise from true north' },
  { name: 'solarRadiation', unit: 'W/m2', description: 'Global (shortwave) solar irradiance on a horizontal surface' },
  { name: 'atmosphericPressure', unit: 'hPa', description: 'Air pressure at the station' },
  { name: 'soilMoisture', unit: 'percent', description: 'Volumetric soil water content' },
  { name: 'soilTemperature', unit: 'celsius', description: 'Temperature of the soil' },
  { name: 'leafWetness', unit: 'percent', description: 'Share of the interval a leaf-wetness sensor read wet' },
  { name: 'evapotranspiration', unit: 'mm', description: 'Depth of water evaporated and transpired' },
] as const;

const UNIT_OF: ReadonlyMap<string, string> = new Map(OBSERVATION_VARIABLES.map((v) => [v.name, v.unit]));

/** Aggregation methods of an aggregated value (spec 2.9). */
export const AGGREGATION_METHODS = ['sum', 'minimum', 'maximum'] as const;

/** Most tags on one set (spec 2.9), and the most characters of a tag's name and value. */
export const MAX_TAGS = 20;
export const MAX_TAG_NAME = 64;
export const MAX_TAG_VALUE = 256;
/** Most characters of a site id. */
export const MAX_SITE_ID = 256;

/** A time within the observations' reach: microseconds since 1970-01-01T00:00:00Z. */
export type Microseconds = bigint;

/**
 * An ISO 8601 timestamp with a zone, in the extended format of RFC 3339 section 5.6: a calendar
 * date, `T`, hours and minutes, optional seconds and fraction (`.` or ISO 8601's `,`), and `Z`
 * or an offset (`+02:00`, `+0200` or `+02`). Lower-case `t` and `z` are allowed (RFC 3339 section
 * 5.6, note). The fraction has any number of digits (RFC 3339 section 5.6: time-secfrac is
 * "." 1*DIGIT). Leap seconds and 24:00 are refused: neither names one instant on the UTC time line
 * a computer can store.
 */
const ZONED_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * The instant of an ISO 8601 timestamp with a zone in microseconds since the epoch, or null when
 * the text is no such timestamp (a missing zone, a day that does not exist, an hour of 24).
 * Digits of the fraction beyond the sixth are dropped, as PostgreSQL's timestamps do (which
 * round; here, a consistent truncation, so an instant never moves past one given in full).
 */
export function zonedTimestampMicros(value: string): Microseconds | null {
  const m = ZONED_TIMESTAMP.exec(value);
  if (!m) return null;
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const wallMs = calendarMs(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), second);
  if (wallMs === null) return null;
  let offsetMinutes = 0;
  if (m[8] === undefined) {
    const offsetHours = Number(m[10]);
    const offsetMins = m[11] === undefined ? 0 : Number(m[11]);
    if (offsetHours > 23 || offsetMins > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const ms = wallMs - offsetMinutes * 60_000;
  const micros = m[7] === undefined ? 0n : BigInt(m[7].padEnd(6, '0').slice(0, 6));
  return BigInt(ms) * 1000n + micros;
}

/** An ISO 8601 calendar date (YYYY-MM-DD) that exists: the microsecond its UTC day starts, or null. */
export function calendarDateMicros(value: string): Microseconds | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  return zonedTimestampMicros(`${value}T00:00:00Z`);
}

/** A day in microseconds. */
export const MICROS_PER_DAY = 86_400_000_000n;

/** The ISO 8601 UTC form, to the millisecond, of an instant in microseconds (docs/interface.md §1, values). */
export function microsToIso(micros: Microseconds): string {
  // Floor, not truncation towards zero, so instants before 1970 keep their millisecond.
  const ms = micros >= 0n ? micros / 1000n : -((-micros + 999n) / 1000n);
  return new Date(Number(ms)).toISOString();
}

const TIME_MESSAGE = 'must be an ISO 8601 timestamp with a zone, such as 2026-05-01T12:00:00Z or 2026-05-01T14:00:00+02:00';

/**
 * The instants a summary can show: its times are UTC in RFC 3339's form, whose year has four
 * digits (section 5.6, date-fullyear), so an observation time whose offset carries it past the
 * year 9999 or before 0000 in UTC would be shown in ISO 8601's expanded form (`+010000-…`), which
 * no RFC 3339 reader takes and no period bound can name.
 */
const FIRST_SHOWN = zonedTimestampMicros('0000-01-01T00:00:00Z')!;
const LAST_SHOWN = zonedTimestampMicros('9999-12-31T23:59:59.999999Z')!;

const finite = (what: string) =>
  z.number({ error: (issue) => (issue.input === undefined ? 'is missing: must be a finite number' : `${what} must be a finite number`) });

/** One value of an observation (spec 2.9): instantaneous (no method, no interval) or aggregated (both). */
export const ObservationVariableInput = z
  .strictObject({
    name: z.string({ error: 'must be a variable name (GET /observation-sets/variables lists them)' }),
    unit: z.string({ error: 'must be the unit of the variable (GET /observation-sets/variables lists them)' }),
    value: finite('value'),
    method: z
      .enum(AGGREGATION_METHODS, { error: `must be one of ${AGGREGATION_METHODS.join(', ')}` })
      .optional()
      .meta({ description: 'how an aggregated value was aggregated; given together with interval' }),
    interval: z
      .number({ error: 'must be a whole number of seconds' })
      // zod's int() takes safe integers only (ECMA-262 Number.isSafeInteger), so no maximum is needed.
      .int({ error: 'must be a whole number of seconds' })
      .positive({ error: 'must be a positive number of seconds' })
      .optional()
      .meta({ description: 'the aggregation interval in seconds; given together with method' }),
  })
  .superRefine((v, ctx) => {
    const unit = UNIT_OF.get(v.name);
    if (unit === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: `is not a known variable (${OBSERVATION_VARIABLES.map((k) => k.name).join(', ')})`,
      });
    } else if (v.unit !== unit) {
      ctx.addIssue({ code: 'custom', path: ['unit'], message: `the unit of ${v.name} is ${unit}` });
    }
    if ((v.method === undefined) !== (v.interval === undefined)) {
      // spec 2.9: an instantaneous value carries neither, an aggregated value both.
      const missing = v.method === undefined ? 'method' : 'interval';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: `an aggregated value carries both method and interval; ${missing} is missing`,
      });
    }
  })
  .meta({
    description: 'A known name and unit pair (GET /observation-sets/variables), a finite value; method and interval both or neither',
  });

/** The observations of one site at one time (spec 2.9). */
export const ObservationInput = z.strictObject({
  time: z
    .string({ error: TIME_MESSAGE })
    .refine((t) => zonedTimestampMicros(t) !== null, { error: TIME_MESSAGE, abort: true })
    .refine(
      (t) => {
        const micros = zonedTimestampMicros(t)!;
        return micros >= FIRST_SHOWN && micros <= LAST_SHOWN;
      },
      { error: 'must lie within the years 0000 to 9999 in UTC' },
    )
    .meta({ description: 'ISO 8601 timestamp with a zone (Z or an offset); returned as sent' }),
  variables: z.array(ObservationVariableInput, { error: 'must be an array of variables' }).min(1, { error: 'needs at least one variable' }),
});

/** A site and what was observed there (spec 2.9). */
export const ObservationSiteInput = z.strictObject({
  id: text()
    .min(1, { error: 'must not be empty' })
    .max(MAX_SITE_ID, { error: `is at most ${MAX_SITE_ID} characters` }),
  latitude: finite('latitude').min(-90, { error: 'must be from -90 to 90' }).max(90, { error: 'must be from -90 to 90' }),
  longitude: finite('longitude').min(-180, { error: 'must be from -180 to 180' }).max(180, { error: 'must be from -180 to 180' }),
  elevation: finite('elevation').meta({ description: 'metres above sea level' }),
  observations: z
    .array(ObservationInput, { error: 'must be an array of observations' })
    .min(1, { error: 'needs at least one observation' }),
});

const TagValue = text({ error: 'must be a string' }).max(MAX_TAG_VALUE, { error: `a tag value is at most ${MAX_TAG_VALUE} characters` });
const TOO_MANY_TAGS = `a set has at most ${MAX_TAGS} tags`;

/**
 * Custom metadata, string to string (spec 2.9). A tag named `__proto__` is a tag like any other
 * (the set is stored as sent, docs/decisions/0150-observation-sets-stored-as-sent.md), but zod's
 * record skips a member of that name: its value and its place among the 20 are checked here, so
 * a summary's tags are always at most 20 strings (spec 2.9, 8).
 */
export const ObservationTags = z
  .preprocess(
    (tags, ctx) => {
      if (typeof tags !== 'object' || tags === null || !Object.hasOwn(tags, '__proto__')) return tags;
      const value = TagValue.safeParse((tags as Record<string, unknown>)['__proto__']);
      for (const issue of value.error?.issues ?? []) ctx.addIssue({ code: 'custom', path: ['__proto__'], message: issue.message });
      if (Object.keys(tags).length > MAX_TAGS) ctx.addIssue({ code: 'custom', path: [], message: TOO_MANY_TAGS });
      return tags;
    },
    z
      .record(
        text({ error: 'must be a string' })
          .min(1, { error: 'a tag name must not be empty' })
          .max(MAX_TAG_NAME, { error: `a tag name is at most ${MAX_TAG_NAME} characters` }),
        TagValue,
        {
          // A name at fault is one issue of the record's (invalid_key) holding the name's own: its
          // message says what is wrong with the name, not that the tags are no object.
          error: (issue) =>
            issue.code === 'invalid_key'
              ? issue.issues.map((i) => i.message).join('; ')
              : 'must be an object of string names to string values',
        },
      )
      .refine((tags) => Object.keys(tags).length <= MAX_TAGS, { error: TOO_MANY_TAGS }),
  )
  .meta({
    description: `at most ${MAX_TAGS} tags, names of 1 to ${MAX_TAG_NAME} and values of at most ${MAX_TAG_VALUE} characters`,
  });

/**
 * A site has one value per instant, variable, method and interval: a second one, whether it
 * contradicts the first or repeats it, leaves a reader of the set two answers to one question
 * (which temperature did site a read at 12:00?). Instants are compared, not time texts, so the
 * same hour stamped twice across a clock change (`02:30+02:00` and `00:30Z`) is caught, and one
 * instant may still be split over several entries with different variables
 * (docs/decisions/0426-one-value-per-site-instant-and-variable.md).
 */
function repeatedValues(site: z.infer<typeof ObservationSiteInput>, siteIndex: number, ctx: z.RefinementCtx): void {
  const instants = new Map<string, Microseconds>();
  const seen = new Map<string, string>();
  site.observations.forEach((observation, o) => {
    let instant = instants.get(observation.time);
    if (instant === undefined) instants.set(observation.time, (instant = zonedTimestampMicros(observation.time)!));
    observation.variables.forEach((v, k) => {
      const key = `${instant}|${v.name}|${v.method ?? ''}|${v.interval ?? ''}`;
      const path = `sites.${siteIndex}.observations.${o}.variables.${k}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, path);
      else
        ctx.addIssue({
          code: 'custom',
          path: [siteIndex, 'observations', o, 'variables', k],
          message: `repeats ${first}: a site has one value per instant, variable, method and interval`,
        });
    });
  });
}

/**
 * The body of POST /observation-sets (spec 2.9, 4.8). Members other than `sites` and `tags` are
 * refused, so what is read back is all that was sent (docs/decisions/0150-observation-sets-stored-as-sent.md).
 */
export const ObservationSetInput = z
  .strictObject({
    sites: z
      .array(ObservationSiteInput, { error: 'must be an array of sites' })
      .min(1, { error: 'needs at least one site' })
      .superRefine((sites, ctx) => {
        const seen = new Map<string, number>();
        sites.forEach((site, i) => {
          const first = seen.get(site.id);
          if (first === undefined) seen.set(site.id, i);
          else
            ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `repeats the id of site ${first}; site ids are unique within a set` });
        });
        sites.forEach((site, i) => repeatedValues(site, i, ctx));
      }),
    tags: ObservationTags.optional(),
  })
  .meta({ id: 'ObservationSetInput' });
export type ObservationSetInput = z.infer<typeof ObservationSetInput>;

/** An observation set as read back by id: the submitted shape, exactly as sent (spec 2.9). */
export const ObservationSet = ObservationSetInput.meta({ id: 'ObservationSet' });

/** The stored summary (spec 2.9), returned by publishing and listing. */
export const ObservationSetSummary = z
  .object({
    id: Uuid,
    creationTime: Timestamp,
    earliestObservationTime: Timestamp,
    latestObservationTime: Timestamp,
    tags: z.record(z.string(), z.string()),
  })
  .meta({ id: 'ObservationSetSummary' });
export type ObservationSetSummary = z.infer<typeof ObservationSetSummary>;

/** An entry of GET /observation-sets/variables. */
export const ObservationVariable = z
  .object({ name: z.string(), unit: z.string(), description: z.string() })
  .meta({ id: 'ObservationVariable' });

/** The default and the largest page of GET /observation-sets (spec 4.8). */
export const OBSERVATION_SETS_DEFAULT_LIMIT = 100;
export const OBSERVATION_SETS_MAX_LIMIT = 1_000;

const PERIOD = 'an ISO 8601 timestamp with a zone (2026-05-01T12:00:00Z) or a date (2026-05-01)';

/** A bound of the period: a timestamp, or a date standing for its whole UTC day; refused by its name, as every query parameter. */
const PeriodBound = (name: 'start' | 'end', description: string) =>
  z
    .string({ error: `${name} must be given once, as ${PERIOD}` })
    .refine((v) => zonedTimestampMicros(v) !== null || calendarDateMicros(v) !== null, {
      error: (issue) => withPlusHint(`${name} must be ${PERIOD}`, issue.input),
    })
    .optional()
    .meta({ description });

/** GET /observation-sets (spec 4.8): the period, the page size and the keyset cursor. */
export const ObservationSetsQuery = z.object({
  start: PeriodBound('start', 'the period’s first instant: a timestamp with a zone, or a date (from its first instant, UTC)'),
  end: PeriodBound('end', 'the period’s last instant: a timestamp with a zone, or a date (to its last instant, UTC)'),
  limit: countParam({
    digits: 7,
    max: OBSERVATION_SETS_MAX_LIMIT,
    description: `most sets in the answer, 1 to ${OBSERVATION_SETS_MAX_LIMIT} (default ${OBSERVATION_SETS_DEFAULT_LIMIT})`,
  }).optional(),
  before: cursorParam({
    name: 'before',
    names: 'the id of an observation set',
    description:
      'the id of the last set of the previous page: continues with the sets created before it (the Link header rel="next" gives it)',
  }).optional(),
});
export type ObservationSetsQuery = z.infer<typeof ObservationSetsQuery>;
