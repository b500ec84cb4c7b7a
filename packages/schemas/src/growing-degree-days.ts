import { calendarMs } from '@fieldcast/calendar';
import {
  CURVE_DEGREE_DAY_METHODS,
  DEGREE_DAY_CUTOFFS,
  DEGREE_DAY_METHODS,
  DEGREE_DAY_SCALES,
  type DegreeDayCutoff,
  type DegreeDayMethod,
  type DegreeDayScale,
  celsiusToFahrenheit,
  DEGREE_DAY_SCALE_SYMBOLS,
  usesNextMinimum,
} from '@fieldcast/science';
import { z } from 'zod';
import { anyCase, choiceError, coordinateParam, DECIMAL, rangeOrderFault } from './common.js';

/**
 * Growing degree days (spec 2.6, 4.1; public record "Agronomy defaults"): the query every GDD
 * endpoint accepts, its path parameters and the three result shapes.
 */

/** First date the degree-day endpoints accept (spec 4.1, 8). */
export const DEGREE_DAY_FIRST_DATE = '2015-01-01';
/** How many days past today (UTC) the endpoints accept: the forecast days (spec 4.1, 8). */
export const DEGREE_DAY_FORECAST_DAYS = 7;
/** The science package's scales, which the console offers too. */
export { DEGREE_DAY_SCALES, type DegreeDayScale };
/** Default base per scale: 10 °C (spec 4.1) and its Fahrenheit equivalent 50 °F (docs/decisions/0010-degree-day-methods-and-scales.md). */
export const DEFAULT_DEGREE_DAY_BASE: Record<DegreeDayScale, number> = { celsius: 10, fahrenheit: 50 };
/**
 * The thresholds, base and cap, a degree-day request may name, per scale: the air temperatures on
 * Earth with a margin. The WMO's records are -89.2 °C (Vostok, 21 July 1983) and 56.7 °C (Death
 * Valley, 10 July 1913; WMO Archive of Weather and Climate Extremes); -100 to 100 °C holds both and
 * is -148 to 212 °F exactly, so a threshold converted between the scales stays inside. Past it a
 * threshold is a typo or another unit (283.15, 10 °C in kelvin), whose answer (0 degree days, or
 * every day's whole mean) answers no question anyone asked
 * (docs/decisions/0485-limits-count-characters-and-thresholds-are-earthly.md).
 */
const THRESHOLD_RANGE_C = [-100, 100] as const;
export const DEGREE_DAY_THRESHOLD_RANGE: Record<DegreeDayScale, readonly [number, number]> = {
  celsius: THRESHOLD_RANGE_C,
  fahrenheit: [celsiusToFahrenheit(THRESHOLD_RANGE_C[0]), celsiusToFahrenheit(THRESHOLD_RANGE_C[1])],
};
/** The range in words, each scale's: "-100 to 100 °C or -148 to 212 °F". */
export const DEGREE_DAY_THRESHOLD_WORDS = DEGREE_DAY_SCALES.map(
  (scale) => `${DEGREE_DAY_THRESHOLD_RANGE[scale].join(' to ')} ${DEGREE_DAY_SCALE_SYMBOLS[scale]}`,
).join(' or ');
/** Why a base or cap is no threshold in `scale` (DEGREE_DAY_THRESHOLD_RANGE); undefined when it is one. */
export function degreeDayThresholdFault(name: 'base' | 'cap', value: number, scale: DegreeDayScale): string | undefined {
  const [low, high] = DEGREE_DAY_THRESHOLD_RANGE[scale];
  if (value >= low && value <= high) return undefined;
  return `${name} must be from ${low} to ${high} ${DEGREE_DAY_SCALE_SYMBOLS[scale]} (scale ${scale}): the air temperatures on Earth, with a margin`;
}
/** The science package's methods (beyond the spec's average). */
export const DEGREE_DAY_METHOD_NAMES = DEGREE_DAY_METHODS;
export type DegreeDayMethodName = DegreeDayMethod;
/** The science package's cutoffs (docs/decisions/0240-degree-day-cutoffs.md). */
export const DEGREE_DAY_CUTOFF_NAMES = DEGREE_DAY_CUTOFFS;
export type DegreeDayCutoffName = DegreeDayCutoff;
/** `cap` as a cutoff names the horizontal one, which an upper threshold alone applies: a client that sends `cap` for the threshold may send it for its cutoff too (0240). */
const CUTOFF_ALIAS = 'cap';
/** What a `cutoff` may be given as: a name or its alias (cutoffNamed). */
export const DEGREE_DAY_CUTOFF_INPUTS = [...DEGREE_DAY_CUTOFF_NAMES, CUTOFF_ALIAS] as const;
export type DegreeDayCutoffInput = (typeof DEGREE_DAY_CUTOFF_INPUTS)[number];
/** The cutoff a given one names; horizontal where none is given. */
export function cutoffNamed(given: DegreeDayCutoffInput | undefined): DegreeDayCutoffName {
  return given === undefined || given === CUTOFF_ALIAS ? 'horizontal' : given;
}

/** A date YYYY-MM-DD, its year, month and day captured. */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

export const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Epoch ms of a real calendar date YYYY-MM-DD, or NaN (2025-02-30 is not one). */
export function dateMs(text: string): number {
  const m = DATE.exec(text);
  const ms = m ? calendarMs(Number(m[1]), Number(m[2]), Number(m[3])) : null;
  return ms ?? Number.NaN;
}

function decimalParam(name: string, accepted: string, description: string, example: string) {
  return z
    .string({ error: `${name} must be given once, as a decimal number (${accepted})` })
    .regex(DECIMAL, { error: `${name} must be a decimal number (${accepted}), such as ${example}` })
    .meta({ description, examples: [example] });
}

/**
 * A number given as a plain decimal, as a link carries it over: the shortest form when String
 * writes it without an exponent ("41.0" as "41"), else the caller's own digits, which the
 * parameter accepted as a plain decimal. String writes magnitudes below 1e-6 and from 1e21 with
 * an exponent, which the parameter refuses (DECIMAL), so such a link would not be followed.
 */
function linkDecimal(value: number, text: string): string {
  const shortest = String(value);
  return DECIMAL.test(shortest) ? shortest : text;
}

/** The query as the domain sees it: defaults resolved, dates checked against today. */
export interface DegreeDayQuery {
  base: number;
  scale: DegreeDayScale;
  /** YYYY-MM-DD, inclusive */
  start: string;
  end: string;
  method: DegreeDayMethodName;
  cap?: number;
  /** how cap applies (default horizontal); vertical and intermediate only with cap and a curve method */
  cutoff?: DegreeDayCutoffName;
  /** include=daily: each day's degree days beside the total (docs/decisions/0244-daily-values.md) */
  daily?: boolean;
  /** the parameters the caller gave, normalised, for links that carry them over (spec 2.6 contours) */
  given: Partial<Record<'base' | 'scale' | 'start' | 'end' | 'method' | 'cap' | 'cutoff', string>>;
}

/** include=daily, the daily values beside the total of degree days and chill (docs/decisions/0244-daily-values.md). */
export const includeDailyParam = (what: string) =>
  z
    .enum(['daily'], { error: choiceError('include', 'daily') })
    .meta({ description: `daily: also each day's ${what} and the running total, in date order`, examples: ['daily'] })
    .optional();

/**
 * The dates the degree-day and chill endpoints accept (spec 4.1, 8): today by the service's
 * clock, the range's words for messages, and the start/end parameter.
 */
export function acceptedDates(now: () => Date) {
  const todayMs = () => Math.floor(now().getTime() / DAY_MS) * DAY_MS;
  const range = () =>
    `from ${DEGREE_DAY_FIRST_DATE} to ${isoDate(todayMs() + DEGREE_DAY_FORECAST_DAYS * DAY_MS)} (today + ${DEGREE_DAY_FORECAST_DAYS} days, UTC)`;
  const dateParam = (name: 'start' | 'end', description: string, example = '2025-04-15') =>
    z
      .string({ error: () => `${name} must be given once, as a date YYYY-MM-DD ${range()}` })
      .regex(DATE, { error: () => `${name} must be a date YYYY-MM-DD ${range()}` })
      .meta({ description, examples: [example] });
  return { todayMs, range, dateParam };
}

/**
 * Query of the three GDD endpoints (spec 4.1). The accepted dates move with the clock, so the
 * schema is built with it: `now` is the service's clock (deps.now). Unknown parameters are
 * stripped, i.e. ignored. No `.meta({ id })` on purpose: OpenAPI lists a query's properties as
 * parameters, which a $ref to a component would hide.
 */
export function degreeDayQuerySchema(now: () => Date, options: { daily?: boolean } = {}) {
  const { todayMs, range, dateParam } = acceptedDates(now);
  const params = z.object({
    base: decimalParam(
      'base',
      DEGREE_DAY_THRESHOLD_WORDS,
      `Base temperature in the requested scale, ${DEGREE_DAY_THRESHOLD_WORDS}. Default 10 (celsius) or 50 (fahrenheit).`,
      '10',
    ).optional(),
    scale: z
      .string({ error: 'scale must be given once: celsius or fahrenheit' })
      .regex(anyCase(DEGREE_DAY_SCALES), { error: 'scale must be celsius or fahrenheit (any case)' })
      .meta({ description: 'celsius (default) or fahrenheit, case-insensitive; returned capitalised', examples: ['celsius'] })
      .optional(),
    start: dateParam(
      'start',
      `First day, inclusive, from ${DEGREE_DAY_FIRST_DATE} to ${DEGREE_DAY_FORECAST_DAYS} days after today (UTC). Default today.`,
    ).optional(),
    end: dateParam(
      'end',
      `Last day, inclusive, same range, not before start. Default today. Days after the current hour use forecast values.`,
    ).optional(),
    method: z
      .enum(DEGREE_DAY_METHOD_NAMES, { error: choiceError('method', `one of ${DEGREE_DAY_METHOD_NAMES.join(', ')}`) })
      .meta({
        description:
          "Degree-day method (beyond the spec): average (default, McMaster & Wilhelm 1997 method 1), modified-average, single-sine, single-triangle, double-sine, double-triangle (Zalom et al. 1983; UC IPM). The double methods use the next day's minimum, so end is at most 6 days after today.",
        examples: ['single-sine'],
      })
      .optional(),
    cap: decimalParam(
      'cap',
      'not below base',
      `Upper threshold in the requested scale, not below base, ${DEGREE_DAY_THRESHOLD_WORDS}; with any method but average (beyond the spec). Applied as a horizontal cutoff unless cutoff says otherwise.`,
      '30',
    ).optional(),
    cutoff: z
      .enum(DEGREE_DAY_CUTOFF_INPUTS, {
        error: choiceError(
          'cutoff',
          `one of ${DEGREE_DAY_CUTOFF_NAMES.join(', ')} (or ${CUTOFF_ALIAS}, the horizontal cutoff's other name)`,
        ),
      })
      .meta({
        description: `How development responds above cap (UC IPM; Zalom et al. 1983): horizontal (default, constant rate; also named ${CUTOFF_ALIAS}), vertical (stops) or intermediate (slows by the excess). vertical and intermediate need cap and a sine or triangle method.`,
        examples: ['vertical'],
      })
      .optional(),
    include: includeDailyParam('degree days'),
  });
  // The contours take no include (they have no daily values): it is ignored there, as unknown parameters are.
  return (options.daily === false ? params.omit({ include: true }) : params).transform(
    (q: z.output<typeof params>, ctx): DegreeDayQuery => {
      const scale = (q.scale?.toLowerCase() ?? 'celsius') as DegreeDayScale;
      const today = todayMs();
      const firstMs = dateMs(DEGREE_DAY_FIRST_DATE);
      const lastMs = today + DEGREE_DAY_FORECAST_DAYS * DAY_MS;
      const fail = (path: string, message: string) => ctx.issues.push({ code: 'custom', path: [path], message, input: q });
      const day = (name: 'start' | 'end'): number => {
        const text = q[name];
        if (text === undefined) return today;
        const ms = dateMs(text);
        if (!(ms >= firstMs && ms <= lastMs)) {
          fail(name, `${name} must be a date ${range()}; got ${text}`);
          return Number.NaN;
        }
        return ms;
      };
      const startMs = day('start');
      const endMs = day('end');
      // Name what the caller gave; a defaulted side is "today".
      const unordered = rangeOrderFault(startMs, endMs, { endGiven: q.end !== undefined });
      if (unordered) {
        fail(
          unordered,
          `start (${q.start ?? `today, ${isoDate(startMs)}`}) must be no later than end (${q.end ?? `today, ${isoDate(endMs)}`}); dates run ${range()}`,
        );
      }
      const base = q.base === undefined ? DEFAULT_DEGREE_DAY_BASE[scale] : Number(q.base);
      // Digits past Number.MAX_VALUE read as Infinity, which no range holds.
      const baseFault = degreeDayThresholdFault('base', base, scale);
      if (baseFault) fail('base', baseFault);
      const method = q.method ?? 'average';
      let cap: number | undefined;
      if (q.cap !== undefined) {
        cap = Number(q.cap);
        const capFault = degreeDayThresholdFault('cap', cap, scale);
        if (method === 'average') {
          fail('cap', 'cap needs a method other than average: the average method has no upper threshold');
        } else if (capFault) {
          fail('cap', capFault);
        } else if (!baseFault && cap < base) {
          // Measured against a base the caller could mean only: one fault per value (docs/decisions/0005-problem-details.md).
          fail('cap', `cap must be a number not below base (${base})`);
        }
      }
      const cutoff = cutoffNamed(q.cutoff);
      if (cutoff !== 'horizontal') {
        if (!CURVE_DEGREE_DAY_METHODS.includes(method)) {
          fail('cutoff', `cutoff ${cutoff} needs method ${CURVE_DEGREE_DAY_METHODS.join(', ')}`);
        } else if (q.cap === undefined) {
          fail('cutoff', `cutoff ${cutoff} needs cap, the upper threshold it applies at`);
        }
      }
      if (usesNextMinimum(method) && endMs === lastMs) {
        fail(
          q.end !== undefined ? 'end' : 'method',
          `method ${method} uses the next day's minimum, so end must be at most ${isoDate(lastMs - DAY_MS)} (today + ${DEGREE_DAY_FORECAST_DAYS - 1} days, UTC)`,
        );
      }
      const given: DegreeDayQuery['given'] = {};
      if (q.base !== undefined) given.base = linkDecimal(base, q.base);
      if (q.scale !== undefined) given.scale = scale;
      if (q.start !== undefined) given.start = q.start;
      if (q.end !== undefined) given.end = q.end;
      if (q.method !== undefined) given.method = method;
      if (q.cap !== undefined && cap !== undefined) given.cap = linkDecimal(cap, q.cap);
      if (q.cutoff !== undefined) given.cutoff = cutoff;
      return {
        base,
        scale,
        start: isoDate(startMs || today),
        end: isoDate(endMs || today),
        method,
        ...(cap === undefined ? {} : { cap }),
        ...(q.cutoff === undefined ? {} : { cutoff }),
        daily: q.include === 'daily',
        given,
      };
    },
  );
}

/** Path of GET /growing-degree-days/{latitude}/{longitude}: a UUID is not a latitude. */
export const DegreeDayLocationParams = z.object({
  latitude: coordinateParam('latitude', 90, '42.0308'),
  longitude: coordinateParam('longitude', 180, '-93.6319'),
});

const settings = {
  startDate: z.string().meta({ description: 'YYYY-MM-DD, inclusive' }),
  endDate: z.string().meta({ description: 'YYYY-MM-DD, inclusive' }),
  baseTemperature: z.number().meta({ description: 'in the scale' }),
  scale: z.enum(['Celsius', 'Fahrenheit']),
};
const degreeDays = (description: string) => z.number().meta({ description: `${description}; one decimal` });

/** One day of include=daily: its value and the running total. */
function dailyEntry<K extends string>(key: K, unit: string) {
  return z.object({
    date: z.string().meta({ description: 'YYYY-MM-DD' }),
    ...({ [key]: z.number().meta({ description: `the day's ${unit}; one decimal` }) } as Record<K, z.ZodNumber>),
    accumulated: z.number().meta({ description: `${unit} from the first day to this one, inclusive; one decimal` }),
  });
}

const DAILY = { description: 'with include=daily: every day from startDate to endDate' };

/** The daily values beside a total (include=daily): each day's value and the total so far, in date order. */
export function dailyValues<K extends string>(key: K, unit: string) {
  return z.array(dailyEntry(key, unit)).meta(DAILY).optional();
}

/**
 * A field's days: the centroid's (dailyValues) and the running statistics over the field
 * (docs/decisions/0510-field-daily-statistics.md); `what` names the field's values.
 */
export function fieldDailyValues<K extends string>(key: K, what: string) {
  const running = (statistic: string) =>
    z.number().meta({
      description: `the ${statistic} of the covered cells' ${what} from the first day to this one, inclusive, as the field result through this day gives it; one decimal`,
    });
  return z
    .array(
      dailyEntry(key, `${what} at the centroid`).extend({
        accumulatedFieldMean: running('area-weighted mean'),
        accumulatedFieldMaximum: running('largest'),
        accumulatedFieldMinimum: running('smallest'),
      }),
    )
    .meta(DAILY)
    .optional();
}
const dailyDegreeDays = dailyValues('degreeDays', 'degree days');

export const DegreeDayLocationResult = z
  .object({
    latitude: z.number(),
    longitude: z.number(),
    ...settings,
    degreeDays: degreeDays('degree days accumulated from startDate to endDate, inclusive'),
    daily: dailyDegreeDays,
  })
  .meta({
    id: 'GrowingDegreeDayLocation',
    description: 'Location result (spec 2.6)',
    examples: [
      {
        latitude: 42.0308,
        longitude: -93.6319,
        startDate: '2025-04-15',
        endDate: '2025-10-01',
        baseTemperature: 10,
        scale: 'Celsius',
        degreeDays: 1512.3,
      },
    ],
  });
export type DegreeDayLocationResult = z.infer<typeof DegreeDayLocationResult>;

export const DegreeDayFieldResult = z
  .object({
    field: z.string().meta({ description: 'relative path /fields/<uuid>' }),
    ...settings,
    degreeDays: degreeDays('value at the field centroid (bilinear, as the location result)'),
    fieldMean: degreeDays('area-weighted mean over the grid cells the field covers; weights are the areas of cell ∩ field'),
    fieldMaximum: degreeDays('largest cell value among the covered cells'),
    fieldMinimum: degreeDays('smallest cell value among the covered cells'),
    contours: z
      .string()
      .meta({ description: 'relative path of the contours, with start, end and every other given parameter carried over' }),
    daily: fieldDailyValues('degreeDays', 'degree days'),
  })
  .meta({
    id: 'GrowingDegreeDayField',
    description: 'Field result (spec 2.6)',
    examples: [
      {
        field: '/fields/0b7f2c3e-5a8d-4c21-9f1e-2d6a7b8c9d01',
        startDate: '2025-04-15',
        endDate: '2025-10-01',
        baseTemperature: 10,
        scale: 'Celsius',
        degreeDays: 1512.3,
        fieldMean: 1511.8,
        fieldMaximum: 1514.0,
        fieldMinimum: 1509.6,
        contours: '/growing-degree-days/0b7f2c3e-5a8d-4c21-9f1e-2d6a7b8c9d01/contours?start=2025-04-15&end=2025-10-01',
      },
    ],
  });
export type DegreeDayFieldResult = z.infer<typeof DegreeDayFieldResult>;

const Ring = z.array(z.array(z.number()));
export const DegreeDayContourFeature = z
  .object({
    type: z.literal('Feature'),
    geometry: z.object({ type: z.literal('Polygon'), coordinates: z.array(Ring) }),
    properties: z.object({
      degreeDays: z.number().meta({
        description:
          'lower edge of the band: the feature covers the part of the field where degree days are at least this and below the next band edge',
      }),
    }),
  })
  .meta({ id: 'GrowingDegreeDayContour' });

export const DegreeDayContourResult = z
  .object({
    field: z.string(),
    ...settings,
    type: z.literal('FeatureCollection'),
    features: z.array(DegreeDayContourFeature),
  })
  .meta({
    id: 'GrowingDegreeDayContours',
    description:
      'Contour result (spec 2.6): isobands of the cell values, clipped to the field, one Polygon per feature; together they cover the field once. Band edges are round numbers (1, 2, 2.5 or 5 x 10^n wide, at most 10 bands over the range); properties.degreeDays is the band lower edge.',
    examples: [
      {
        field: '/fields/0b7f2c3e-5a8d-4c21-9f1e-2d6a7b8c9d01',
        startDate: '2025-04-15',
        endDate: '2025-10-01',
        baseTemperature: 10,
        scale: 'Celsius',
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [-93.5, 42.0],
                  [-93.4935, 42.0],
                  [-93.4921, 42.01],
                  [-93.5, 42.01],
                  [-93.5, 42.0],
                ],
              ],
            },
            properties: { degreeDays: 1510 },
          },
        ],
      },
    ],
  });
export type DegreeDayContourResult = z.infer<typeof DegreeDayContourResult>;
