import { calendarMs } from '@fieldcast/calendar';
import { z } from 'zod';
import { anyCase, boundMs, LatLon, rangeOrderFault, timeText, Uuid } from './common.js';
import { MAX_FIELD_POSITIONS } from './fields.js';
import { AMES_SQUARE, MultiPolygon, polygonInput } from './geojson.js';
import { DegreeDayLocationParams } from './growing-degree-days.js';
import { withPlusHint } from './query-time.js';
import { stringMap, text } from './text.js';

/**
 * The insight area (docs/interface.md §5): assets, one Polygon each with a tag map, and hourly
 * relative humidity and short-crop evapotranspiration at a point or over an asset.
 */

/** Most tags of one asset, and most characters of a tag's key or value (spec 4.4). */
export const MAX_ASSET_TAGS = 100;
export const MAX_ASSET_TAG_LENGTH = 1000;
/** Largest asset, km² of spherical area (@turf/area, the mean Earth radius), holes subtracted (spec 4.4). */
export const MAX_ASSET_AREA_KM2 = 65_000;

const tagText = (what: 'key' | 'value') =>
  text({ error: `a tag ${what} must be a string` }).max(MAX_ASSET_TAG_LENGTH, {
    error: `a tag ${what} has at most ${MAX_ASSET_TAG_LENGTH.toLocaleString('en')} characters`,
  });

/** The Feature's properties: a map of string to string; null or {} for no tags. */
const Tags = stringMap(tagText('key'), tagText('value'))
  .nullable()
  .optional()
  .superRefine((tags, ctx) => {
    const n = tags ? Object.keys(tags).length : 0;
    if (n > MAX_ASSET_TAGS) ctx.addIssue({ code: 'custom', input: tags, message: `an asset has at most ${MAX_ASSET_TAGS} tags; got ${n}` });
  })
  .transform((tags) => tags ?? {})
  .meta({
    description: `the asset's tags: string to string, at most ${MAX_ASSET_TAGS}, keys and values of at most ${MAX_ASSET_TAG_LENGTH} characters; null or {} for none`,
  });

/**
 * An asset is a single Polygon (spec 8), so it cannot be sent cut at the antimeridian as RFC 7946
 * section 3.1.9 asks of one that crosses it: what is on either side is an asset of its own.
 */
const ONE_POLYGON_AT_ANTIMERIDIAN =
  'an asset is one Polygon, so it cannot cross the antimeridian (RFC 7946 section 3.1.9 cuts such a polygon in two): make one asset on each side of longitude ±180';

/**
 * The Polygon, its positions counted before any ring is checked, as a field's are (fields.ts,
 * docs/decisions/0034-geometry-checks-bounded.md): the same checks and the same bound, and the
 * asset's own advice for a polygon across the antimeridian.
 */
const AssetPolygon = z.preprocess((geometry, ctx) => {
  const rings = (geometry as { coordinates?: unknown } | null)?.coordinates;
  let count = 0;
  if (Array.isArray(rings)) for (const ring of rings) if (Array.isArray(ring)) count += ring.length;
  if (count > MAX_FIELD_POSITIONS) {
    ctx.addIssue({
      code: 'custom',
      input: geometry,
      message: `an asset's polygon has at most ${MAX_FIELD_POSITIONS.toLocaleString('en')} positions; got ${count.toLocaleString('en')}`,
    });
  }
  return geometry;
}, polygonInput(ONE_POLYGON_AT_ANTIMERIDIAN));

const AssetFeature = z.object({
  type: z.literal('Feature', { error: 'each feature must be a GeoJSON Feature' }),
  geometry: AssetPolygon,
  properties: Tags,
});

const ONE_FEATURE = 'an asset is a FeatureCollection of exactly one Feature';

/** Body of POST /assets and PUT /assets/{id} (spec 2.2, 4.4): a FeatureCollection of one Polygon Feature. */
export const AssetInput = z
  .object({
    type: z.literal('FeatureCollection', { error: 'type must be FeatureCollection' }),
    features: z
      .array(AssetFeature, { error: ONE_FEATURE })
      .length(1, { error: ONE_FEATURE })
      .meta({ description: 'exactly one Feature whose geometry is one Polygon; its properties are the tags' }),
  })
  .meta({
    id: 'AssetInput',
    examples: [
      {
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', geometry: { type: 'Polygon', coordinates: [AMES_SQUARE] }, properties: { farm: 'Ames North', crop: 'corn' } },
        ],
      },
    ],
  });
export type AssetInput = z.infer<typeof AssetInput>;

export const Asset = z
  .object({
    id: Uuid,
    type: z.literal('GeometryCollection'),
    geometries: z.array(MultiPolygon).meta({ description: 'the Polygon as a MultiPolygon holding it (its rings one level deeper)' }),
    centroid: LatLon,
    description: z.record(z.string(), z.string()).meta({ description: 'the tags of the Feature' }),
  })
  .meta({ id: 'Asset' });
export type Asset = z.infer<typeof Asset>;

/** Path of the hourly series at a point: the same plain decimals as the degree days' (spec 2.7). */
export const HourlyLocationParams = DegreeDayLocationParams;

const HOUR_MS = 3_600_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/**
 * ISO 8601 in UTC: a date and time with `Z` or UTC's offset, `+00:00` or `-00:00` (spec 2:
 * "Timestamps are ISO 8601 strings in UTC"; the model area's start and end take the same), a
 * fraction of any length optional; read by `timeText`, which adds seconds left out and reads `t`
 * and `z` in either case.
 */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):\d{2}(\.\d+)?(Z|[+-]00:00)$/;
const DAY_MS = 86_400_000;

/** An hour's start, in the form every timestamp is served (docs/interface.md §1, values). */
export const isoTime = (ms: number) => new Date(ms).toISOString();

/**
 * Epoch ms of a start or end given as a timestamp or a date (spec 4.5): a date is 00:00Z for the
 * start and the day's last hour, 23:00Z, for the end. A timestamp between two milliseconds is
 * taken at the millisecond inside its bound, as the model area's are (common.ts boundMs): a start
 * at the later one, an end at the earlier. NaN for anything else (no real date or time).
 */
export function hourlyTimeMs(text: string, side: 'start' | 'end'): number {
  if (DATE.test(text)) {
    const ms = Date.parse(`${text}T00:00:00Z`);
    if (!Number.isFinite(ms) || isoTime(ms).slice(0, 10) !== text) return Number.NaN;
    return side === 'start' ? ms : ms + DAY_MS - HOUR_MS;
  }
  const full = timeText(text);
  const m = TIMESTAMP.exec(full);
  if (!m) return Number.NaN;
  const ms = boundMs(full, side);
  // Date.parse rolls 2025-02-30 over to March and takes hour 24: both are not times.
  if (!Number.isFinite(ms) || isoTime(Date.parse(full)).slice(0, 10) !== m[1] || Number(m[2]) > 23 || Number(m[3]) > 59) return Number.NaN;
  return ms;
}

/**
 * The hour one year before `hourMs`: the same month, day and hour of the year before, and 28
 * February for 29 February, as a calendar counts a year back (docs/decisions/0387-one-year-before-29-february.md).
 */
function yearBefore(hourMs: number): number {
  const d = new Date(hourMs);
  const [year, month, day, hour] = [d.getUTCFullYear() - 1, d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours()];
  return calendarMs(year, month, day, hour) ?? (calendarMs(year, month, day - 1, hour) as number);
}

export const ET_UNITS = ['millimeters', 'inches'] as const;
export type EtUnit = (typeof ET_UNITS)[number];

/** The hours a series covers and how the caller wrote them. */
export interface HourlyQuery {
  /** validTime of the first and last hour, epoch ms, whole hours */
  firstMs: number;
  lastMs: number;
  /** startTime and endTime as the caller wrote them, else the first and last hour's timestamps */
  startTime: string;
  endTime: string;
  /** true when the caller gave no start and end (the next 24 hours, forecast) */
  defaulted: boolean;
  unit: EtUnit;
}

/** Hours of the default series: the next 24 (spec 4.5, public record "Agronomy defaults"). */
export const DEFAULT_SERIES_HOURS = 24;

/**
 * Query of the hourly series (spec 4.5). start and end are both given or both left out; each is a
 * UTC timestamp or a date, between one year before the current hour and the previous hour (the
 * last hour that has ended), start no later than end; the series holds the hours whose validTime
 * (their start, docs/decisions/0111-hourly-series.md) lies from start to end inclusive. Without
 * them: the next 24 hours from the next whole hour. `withUnit` adds ET's `unit`. The accepted
 * range moves with the clock, so the schema is built with it (`now`, the service's clock). No
 * `.meta({ id })`: OpenAPI lists a query's properties as parameters.
 */
export function hourlyQuerySchema(now: () => Date, withUnit: boolean) {
  const bounds = () => {
    const current = Math.floor(now().getTime() / HOUR_MS) * HOUR_MS;
    return { current, minMs: yearBefore(current), maxMs: current - HOUR_MS };
  };
  const range = () => {
    const { minMs, maxMs } = bounds();
    return `from ${isoTime(minMs)} (one year before the current hour), or its date ${isoTime(minMs).slice(0, 10)}, to ${isoTime(maxMs)} (the previous hour)`;
  };
  const timeParam = (name: 'start' | 'end', description: string) =>
    z
      .string({ error: () => `${name} must be given once, as a UTC timestamp or a date, ${range()}` })
      .meta({ description, examples: [name === 'start' ? '2026-05-01T00:00:00Z' : '2026-05-01'] })
      .optional();
  const shape = {
    start: timeParam(
      'start',
      'First hour: an ISO 8601 UTC timestamp (2026-05-01T06:00:00Z) or a date (its 00:00Z), from one year before the current hour (a date: from the date one year back) to the previous hour. With end; without both, the next 24 hours.',
    ),
    end: timeParam(
      'end',
      'Last hour, inclusive: a UTC timestamp or a date (its last hour, 23:00Z), in the same range and not before start. With start.',
    ),
    ...(withUnit
      ? {
          unit: z
            .string({ error: 'unit must be given once: millimeters or inches' })
            .regex(anyCase(['millimeters', 'inches']), { error: 'unit must be millimeters or inches (any case)' })
            .meta({ description: 'millimeters (default, mm/hr) or inches (in/hr), case-insensitive', examples: ['inches'] })
            .optional(),
        }
      : {}),
  };
  return z.object(shape).transform((q, ctx): HourlyQuery => {
    const fail = (path: string, message: string) => ctx.issues.push({ code: 'custom', path: [path], message, input: q });
    const unit = ((q as { unit?: string }).unit?.toLowerCase() ?? 'millimeters') as EtUnit;
    if (q.start === undefined && q.end === undefined) {
      const first = bounds().current + HOUR_MS;
      const last = first + (DEFAULT_SERIES_HOURS - 1) * HOUR_MS;
      return { firstMs: first, lastMs: last, startTime: isoTime(first), endTime: isoTime(last), defaulted: true, unit };
    }
    if (q.start === undefined || q.end === undefined) {
      const missing = q.start === undefined ? 'start' : 'end';
      fail(missing, `start and end go together: give both (${range()}) or neither (the next 24 hours)`);
      return z.NEVER;
    }
    const { minMs, maxMs } = bounds();
    // A date is a day, and spec 4.5's "1 year ago" of a day is the date a year back: compared with
    // the instant, the date a year back would be refused after its first hour
    // (docs/decisions/0425-a-date-a-year-back-compared-as-a-date.md).
    const minDayMs = minMs - (minMs % DAY_MS);
    const at = (name: 'start' | 'end', text: string): number => {
      const ms = hourlyTimeMs(text, name);
      const lowest = DATE.test(text) ? minDayMs : minMs;
      if (Number.isNaN(ms)) {
        fail(
          name,
          withPlusHint(
            `${name} must be a UTC timestamp such as 2026-05-01T06:00:00Z, ending in Z or +00:00 (sent as %2B00:00), or a date such as 2026-05-01, ${range()}; got ${text}`,
            text,
          ),
        );
      } else if (ms < lowest || ms > maxMs) {
        fail(name, `${name} must lie ${range()}; got ${text}`);
        return Number.NaN;
      }
      return ms;
    };
    const startMs = at('start', q.start);
    const endMs = at('end', q.end);
    if (Number.isNaN(startMs) || Number.isNaN(endMs)) return z.NEVER;
    const unordered = rangeOrderFault(startMs, endMs);
    if (unordered) {
      fail(unordered, `start (${q.start}) must be no later than end (${q.end}); both lie ${range()}`);
      return z.NEVER;
    }
    const first = Math.ceil(startMs / HOUR_MS) * HOUR_MS;
    const last = Math.floor(endMs / HOUR_MS) * HOUR_MS;
    if (first > last) {
      fail(
        'end',
        `no whole hour starts from start (${q.start}) to end (${q.end}); the series holds the hours whose start lies between them`,
      );
      return z.NEVER;
    }
    return { firstMs: first, lastMs: last, startTime: q.start, endTime: q.end, defaulted: false, unit };
  });
}

const SeriesEntry = z.object({
  validTime: z.string().meta({ description: 'start of the hour the value covers, ISO 8601 UTC (docs/decisions/0111-hourly-series.md)' }),
  value: z.number(),
  products: z.array(z.string()).meta({
    description:
      "the weather's products that supplied the inputs of this value: its analysis up to the current hour, its forecast after it (synthetic-analysis, synthetic-forecast, or a synced store's own names)",
  }),
});

const Unit = z.object({ description: z.string(), label: z.string() });

/** Hourly series (spec 2.7): at a point, or over an asset with `asset` (its centroid as latitude/longitude). */
export const HourlySeries = z
  .object({
    latitude: z.number(),
    longitude: z.number(),
    startTime: z.string().meta({ description: 'start as given, else the first hour' }),
    endTime: z.string().meta({ description: 'end as given, else the last hour' }),
    unit: Unit,
    series: z.array(SeriesEntry).meta({ description: 'one entry per hour, in time order' }),
    asset: z.string().meta({ description: 'relative path /assets/<uuid>, for a series over an asset' }).optional(),
  })
  .meta({
    id: 'HourlySeries',
    examples: [
      {
        latitude: 42.0308,
        longitude: -93.6319,
        startTime: '2026-05-01T06:00:00Z',
        endTime: '2026-05-01T07:00:00Z',
        unit: { description: 'millimeters per hour', label: 'mm/hr' },
        series: [
          { validTime: '2026-05-01T06:00:00.000Z', value: 0.012, products: ['synthetic-analysis'] },
          { validTime: '2026-05-01T07:00:00.000Z', value: 0.046, products: ['synthetic-analysis'] },
        ],
      },
    ],
  });
export type HourlySeries = z.infer<typeof HourlySeries>;
