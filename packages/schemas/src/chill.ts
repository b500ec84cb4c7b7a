import { CHILL_MODELS, type ChillModel } from '@fieldcast/science';
import { z } from 'zod';
import { choiceError, rangeOrderFault } from './common.js';
import {
  acceptedDates,
  dailyValues,
  fieldDailyValues,
  dateMs,
  DEGREE_DAY_FIRST_DATE,
  DEGREE_DAY_FORECAST_DAYS,
  includeDailyParam,
  isoDate,
} from './growing-degree-days.js';

/**
 * Winter chill at a point (beyond the spec; docs/decisions/0241-chill-endpoint.md): the query of
 * GET /chill/{latitude}/{longitude} and its result, shaped as the degree-day location result.
 */

/** The science package's chill models. */
export const CHILL_MODEL_NAMES = CHILL_MODELS;
export type ChillModelName = ChillModel;
/** The model a query without one asks for: chill portions (docs/decisions/0241-chill-endpoint.md). */
export const DEFAULT_CHILL_MODEL: ChillModelName = 'dynamic';
/** The unit of each model's total, as the result names it. */
export const CHILL_UNITS: Record<ChillModelName, string> = {
  hours: 'chill hours',
  utah: 'Utah chill units',
  dynamic: 'chill portions',
};

const DAY_MS = 86_400_000;

/** The query as the domain sees it; start stays open when not given, since its default depends on the hemisphere. */
export interface ChillQuery {
  model: ChillModelName;
  /** YYYY-MM-DD, inclusive; absent: the season's start before end (chillSeasonStart) */
  start?: string;
  end: string;
  /** include=daily: each day's chill beside the total (docs/decisions/0244-daily-values.md) */
  daily?: boolean;
}

/**
 * The first day of the chill season that holds `end`: the latest 1 September (northern
 * hemisphere, latitude >= 0) or 1 March (southern) on or before it, the customary starts of
 * dormancy-season chill accounting (Luedeling, chillR's tempResponse examples start in autumn).
 */
export function chillSeasonStart(end: string, latitude: number): string {
  const month = latitude >= 0 ? 8 : 2; // 0-based: September, March
  const endMs = dateMs(end);
  const year = new Date(endMs).getUTCFullYear();
  const thisYear = Date.UTC(year, month, 1);
  return isoDate(thisYear <= endMs ? thisYear : Date.UTC(year - 1, month, 1));
}

/** Query of GET /chill/{latitude}/{longitude}; dates as the degree-day endpoints accept them (spec 4.1). */
export function chillQuerySchema(now: () => Date) {
  const { todayMs, range, dateParam } = acceptedDates(now);
  return z
    .object({
      model: z
        .enum(CHILL_MODEL_NAMES, { error: choiceError('model', `one of ${CHILL_MODEL_NAMES.join(', ')}`) })
        .meta({
          description:
            'hours (0-7.2 °C; Bennett 1949), utah (Richardson et al. 1974) or dynamic (default; chill portions, Fishman et al. 1987, as chillR computes them)',
          examples: [DEFAULT_CHILL_MODEL],
        })
        .optional(),
      start: dateParam(
        'start',
        'First day, inclusive. Default: the last 1 September (northern hemisphere) or 1 March (southern) on or before end.',
        '2024-09-01',
      ).optional(),
      end: dateParam(
        'end',
        'Last day, inclusive. Default today (UTC). Days after the current hour use forecast values.',
        '2025-02-28',
      ).optional(),
      include: includeDailyParam('chill'),
    })
    .transform((q, ctx): ChillQuery => {
      const fail = (path: string, message: string) => ctx.issues.push({ code: 'custom', path: [path], message, input: q });
      const firstMs = dateMs(DEGREE_DAY_FIRST_DATE);
      const lastMs = todayMs() + DEGREE_DAY_FORECAST_DAYS * DAY_MS;
      const day = (name: 'start' | 'end'): number | undefined => {
        const text = q[name];
        if (text === undefined) return undefined;
        const ms = dateMs(text);
        if (!(ms >= firstMs && ms <= lastMs)) {
          // One fault per value (docs/decisions/0005-problem-details.md): a date out of range is
          // not compared with the other as well, as the degree-day query does.
          fail(name, `${name} must be a date ${range()}; got ${text}`);
          return Number.NaN;
        }
        return ms;
      };
      const startMs = day('start');
      const endMs = day('end') ?? todayMs();
      const unordered = rangeOrderFault(startMs, endMs, { endGiven: q.end !== undefined });
      if (unordered) fail(unordered, `start (${q.start}) must be no later than end (${isoDate(endMs)})`);
      return {
        model: q.model ?? DEFAULT_CHILL_MODEL,
        ...(q.start === undefined ? {} : { start: q.start }),
        end: isoDate(Number.isFinite(endMs) ? endMs : todayMs()),
        daily: q.include === 'daily',
      };
    });
}

export const ChillLocationResult = z
  .object({
    latitude: z.number(),
    longitude: z.number(),
    startDate: z.string().meta({ description: 'YYYY-MM-DD, inclusive, 00:00Z' }),
    endDate: z.string().meta({ description: 'YYYY-MM-DD, inclusive, to 23:00Z' }),
    model: z.enum(CHILL_MODEL_NAMES),
    units: z.string().meta({ description: 'chill hours, Utah chill units or chill portions' }),
    chill: z.number().meta({ description: 'chill accumulated over the hours from startDate to endDate; one decimal' }),
    daily: dailyValues('chill', 'chill'),
  })
  .meta({
    id: 'ChillLocation',
    description: 'Chill at a location, shaped as the degree-day location result',
    examples: [
      {
        latitude: 38.5,
        longitude: -121.8,
        startDate: '2024-09-01',
        endDate: '2025-02-28',
        model: 'dynamic',
        units: 'chill portions',
        chill: 58.3,
      },
    ],
  });
export type ChillLocationResult = z.infer<typeof ChillLocationResult>;

export const ChillFieldResult = z
  .object({
    field: z.string().meta({ description: 'relative path /fields/<uuid>' }),
    startDate: z.string().meta({ description: "YYYY-MM-DD, inclusive, 00:00Z; by default the season's start at the centroid's latitude" }),
    endDate: z.string().meta({ description: 'YYYY-MM-DD, inclusive, to 23:00Z' }),
    model: z.enum(CHILL_MODEL_NAMES),
    units: z.string().meta({ description: 'chill hours, Utah chill units or chill portions' }),
    chill: z.number().meta({ description: 'value at the field centroid (bilinear, as the location result); one decimal' }),
    fieldMean: z
      .number()
      .meta({ description: 'area-weighted mean over the grid cells the field covers; weights are the areas of cell ∩ field; one decimal' }),
    fieldMaximum: z.number().meta({ description: 'largest cell value among the covered cells; one decimal' }),
    fieldMinimum: z.number().meta({ description: 'smallest cell value among the covered cells; one decimal' }),
    daily: fieldDailyValues('chill', 'chill'),
  })
  .meta({
    id: 'ChillField',
    description: 'Chill over a field, shaped as the degree-day field result',
    examples: [
      {
        field: '/fields/0b7f2c3e-5a8d-4c21-9f1e-2d6a7b8c9d01',
        startDate: '2024-09-01',
        endDate: '2025-02-28',
        model: 'dynamic',
        units: 'chill portions',
        chill: 58.3,
        fieldMean: 58.1,
        fieldMaximum: 58.9,
        fieldMinimum: 57.6,
      },
    ],
  });
export type ChillFieldResult = z.infer<typeof ChillFieldResult>;
