// zod schemas of the platform area's requests and records (docs/interface.md §6, spec 2.4, 4.6;
// the frame and forecast records of the public record).
import { z } from 'zod';
import { LruCache } from '@fieldcast/caches';
import { crossesUncut, polygonFaults, type PolygonCoordinates } from '@fieldcast/geo';
import { boundMs, countParam, orderedRange, sentAs, timeText, Timestamp, Uuid, UuidInput } from './common.js';
import { DegreeDayLocationParams } from './growing-degree-days.js';
import { withPlusHint } from './query-time.js';

/** Frames and forecasts per page (public record: limit; docs/interface.md §6). */
export const PLATFORM_LIMIT_DEFAULT = 100;
export const PLATFORM_LIMIT_MAX = 1000;

/** A coverage geometry as its parts: it is contained where every point, line and polygon of it is. */
export interface CoverageQuery {
  points: [number, number][];
  lines: [number, number][][];
  polygons: PolygonCoordinates[];
}

const COVERAGE_HELP =
  'a URL-encoded WGS84 GeoJSON geometry (RFC 7946) of any type, or a Feature holding one, e.g. {"type":"Point","coordinates":[-93.6,42.0]}';

function positionFault(p: unknown): string | null {
  if (!Array.isArray(p) || p.length < 2 || p.length > 3 || !p.every((n) => typeof n === 'number' && Number.isFinite(n)))
    return 'a position is [longitude, latitude]';
  const [lon, lat] = p as [number, number];
  if (lon < -180 || lon > 180 || lat < -90 || lat > 90)
    return `position [${lon}, ${lat}] is out of range: longitude -180..180, latitude -90..90`;
  return null;
}

/**
 * Coverages read lately, by their text: a map client asks again and again with the area it shows,
 * and checking a polygon (polygonFaults) is most of the cost of a products request. At most
 * COVERAGE_MEMO_SIZE, the least recently used out; only valid ones (a fault is re-read, to name it).
 */
const COVERAGE_MEMO_SIZE = 256;
const coverageMemo = new LruCache<CoverageQuery>(COVERAGE_MEMO_SIZE);

/** Reads the coverage parameter (coverageMemo first); every fault is an issue at `path` (400 naming it). */
function readCoverage(text: string, ctx: z.RefinementCtx): CoverageQuery | typeof z.NEVER {
  const known = coverageMemo.get(text);
  if (known) return known;
  const read = readNewCoverage(text, ctx);
  if (read !== z.NEVER) coverageMemo.set(text, read);
  return read;
}

function readNewCoverage(text: string, ctx: z.RefinementCtx): CoverageQuery | typeof z.NEVER {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return coverageFault(ctx, 'it is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return coverageFault(ctx, 'it is not a GeoJSON object');
  let g = value as { type?: unknown; geometry?: unknown };
  if (g.type === 'Feature') {
    if (typeof g.geometry !== 'object' || g.geometry === null) return coverageFault(ctx, 'the Feature has no geometry');
    g = g.geometry as typeof g;
  }
  const parts: CoverageQuery = { points: [], lines: [], polygons: [] };
  const fault = addGeometry(g, parts, 0);
  return fault ? coverageFault(ctx, fault) : parts;
}

function coverageFault(ctx: z.RefinementCtx, message: string): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message: `coverage must be ${COVERAGE_HELP}: ${message}` });
  return z.NEVER;
}

/** What to send instead of a line across the antimeridian, as polygonFaults says of a polygon. */
const CUT_LINE_AT_ANTIMERIDIAN =
  'a line that crosses the antimeridian must be cut in two at longitude ±180 and sent as a MultiLineString (RFC 7946 section 3.1.9)';

/** How deep GeometryCollections may nest (RFC 7946 section 3.1.8 advises against nesting at all). */
const MAX_COLLECTION_DEPTH = 4;

/** A list of at least `min` positions, each valid (a MultiPoint's, a LineString's): its fault, or null. */
function positionsFault(list: unknown, min: number, what: string): string | null {
  if (!Array.isArray(list) || list.length < min) return `${what} needs ${min} or more positions`;
  for (const p of list) {
    const fault = positionFault(p);
    if (fault) return fault;
  }
  return null;
}

/** A valid position's longitude and latitude (an altitude is not a coverage's business). */
const lonLat = (p: unknown): [number, number] => [(p as number[])[0]!, (p as number[])[1]!];

/** Adds a GeoJSON geometry's points, lines and polygons to `parts`; its fault, or null. */
function addGeometry(value: unknown, parts: CoverageQuery, depth: number): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'a geometry is not a GeoJSON object';
  const g = value as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  const c = g.coordinates;
  switch (g.type) {
    case 'Point': {
      const fault = positionFault(c);
      if (fault) return fault;
      parts.points.push(lonLat(c));
      return null;
    }
    case 'MultiPoint': {
      const fault = positionsFault(c, 1, 'a MultiPoint');
      if (fault) return fault;
      parts.points.push(...(c as unknown[]).map(lonLat));
      return null;
    }
    case 'LineString':
    case 'MultiLineString': {
      const lines = (g.type === 'LineString' ? [c] : c) as unknown;
      if (!Array.isArray(lines) || lines.length === 0) return `the ${g.type} has no coordinates`;
      for (const [i, line] of lines.entries()) {
        const fault = positionsFault(line, 2, g.type === 'LineString' ? 'a LineString' : `line ${i}`);
        if (fault) return fault;
        const positions = (line as unknown[]).map(lonLat);
        const k = positions.findIndex((p, j) => j > 0 && crossesUncut(positions[j - 1]!, p));
        if (k > 0)
          return `${g.type === 'LineString' ? '' : `line ${i}: `}the edge to position ${k} spans more than 180 degrees of longitude; ${CUT_LINE_AT_ANTIMERIDIAN}`;
        parts.lines.push(positions);
      }
      return null;
    }
    case 'Polygon':
    case 'MultiPolygon': {
      const polygons = (g.type === 'Polygon' ? [c] : c) as unknown;
      if (!Array.isArray(polygons) || polygons.length === 0) return `the ${g.type} has no coordinates`;
      for (const [i, polygon] of polygons.entries()) {
        if (!Array.isArray(polygon) || !polygon.every((ring) => Array.isArray(ring))) return `polygon ${i} is not an array of linear rings`;
        for (const ring of polygon as unknown[][]) {
          for (const p of ring) {
            const fault = positionFault(p);
            if (fault) return fault;
          }
        }
        const faults = polygonFaults(polygon as PolygonCoordinates);
        if (faults.length > 0) return `polygon ${i}: ${faults[0]!.message}`;
        parts.polygons.push(polygon as PolygonCoordinates);
      }
      return null;
    }
    case 'GeometryCollection': {
      if (!Array.isArray(g.geometries) || g.geometries.length === 0) return 'the GeometryCollection has no geometries';
      if (depth >= MAX_COLLECTION_DEPTH) return `GeometryCollections nest at most ${MAX_COLLECTION_DEPTH} deep`;
      for (const member of g.geometries) {
        const fault = addGeometry(member, parts, depth + 1);
        if (fault) return fault;
      }
      return null;
    }
    default:
      return `type ${JSON.stringify(g.type)} is not a GeoJSON geometry or a Feature`;
  }
}

const ISO_INSTANT = z.iso.datetime({ offset: true });

/** An instant in ISO 8601 with a zone (`Z` or an offset), read as epoch milliseconds, an inclusive bound (boundMs). */
const instant = (name: 'start' | 'end') =>
  sentAs(
    z.string({ error: `${name} must be given once, as an ISO 8601 timestamp such as 2025-06-01T00:00:00Z` }),
    `${name}: ISO 8601 timestamp with Z or an offset (seconds optional)`,
    ['2025-06-01T00:00:00Z'],
  )
    // Seconds optional, as the model and insight areas' times (docs/decisions/0488-times-without-seconds.md).
    .transform(timeText)
    .refine((s) => ISO_INSTANT.safeParse(s).success && Number.isFinite(Date.parse(s)), {
      error: (issue) => withPlusHint(`${name} must be an ISO 8601 timestamp with a zone, such as 2025-06-01T00:00:00Z`, issue.input),
      abort: true,
    })
    .transform((s) => boundMs(s, name));

/**
 * Filters of GET /products (spec 4.6), all combined. Unknown parameters are ignored. No
 * `.meta({ id })`: OpenAPI lists a query's properties as parameters.
 */
export const ProductsQuery = z
  .object({
    contentType: z
      .string({ error: 'contentType must be given once' })
      .meta({ description: 'exact match on contentType', examples: ['temperature'] })
      .optional(),
    source: z
      .string({ error: 'source must be given once' })
      .meta({ description: 'exact match on source', examples: ['synthetic'] })
      .optional(),
    aggregation: sentAs(
      z
        .string({ error: 'aggregation must be given once, as a nonnegative integer of minutes' })
        // Spec 4.6: any nonnegative integer, however many digits; one beyond every product's period matches none.
        .regex(/^\d+$/, { error: 'aggregation must be a nonnegative integer of minutes (a day is 1440)' }),
      'aggregation period in minutes, a nonnegative integer (a day is 1440, an hour 60)',
      ['1440'],
    )
      .transform(Number)
      .optional(),
    start: instant('start').optional(),
    end: instant('end').optional(),
    coverage: sentAs(
      z.string({ error: `coverage must be given once, as ${COVERAGE_HELP}` }),
      `products whose coverage contains this geometry: ${COVERAGE_HELP}`,
      ['{"type":"Point","coordinates":[-93.6,42.0]}'],
    )
      .transform(readCoverage)
      .optional(),
  })
  .refine((q) => (q.start === undefined) === (q.end === undefined), {
    error: 'start and end go together: give both or neither',
    path: ['end'],
  })
  .superRefine(orderedRange('start must not be after end'));
export type ProductsQuery = z.output<typeof ProductsQuery>;

/** start, end, limit and sort of the frame and forecast lists (public record). */
export const TimeListQuery = z
  .object({
    start: instant('start').optional(),
    end: instant('end').optional(),
    limit: countParam({
      digits: 4,
      max: PLATFORM_LIMIT_MAX,
      description: `items per list, 1 to ${PLATFORM_LIMIT_MAX}, default ${PLATFORM_LIMIT_DEFAULT}`,
      examples: ['100'],
    }).optional(),
    sort: z
      .enum(['asc', 'desc'], { error: 'sort must be asc or desc' })
      .meta({ description: 'by time: desc (newest first, the default) or asc' })
      .optional(),
  })
  .superRefine(orderedRange('start must not be after end'));
export type TimeListQuery = z.output<typeof TimeListQuery>;

/** A product named in a path by id or name (spec 2.4: the name is usable in place of the id). */
export const ProductRefParams = z.object({
  product: z
    .string()
    .min(1)
    .max(200)
    .meta({ description: 'the product id or name', examples: ['air-temperature'] }),
});

export const DatapointParams = DegreeDayLocationParams.extend({ id: UuidInput });

const Unit = z.object({ description: z.string(), label: z.string() });

/** Spec 2.4 product record. */
export const Product = z
  .object({
    id: Uuid,
    name: z.string(),
    description: z.string(),
    contentType: z.string(),
    source: z.string(),
    startTime: Timestamp,
    endTime: Timestamp,
    aggregationPeriodInMinutes: z.number().int().nonnegative(),
    coverage: z.object({
      type: z.literal('Feature'),
      properties: z.record(z.string(), z.unknown()).nullable(),
      geometry: z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(z.array(z.array(z.number())))) }),
    }),
    frames: z.string().nullable(),
    forecasts: z.string().nullable(),
    styles: z.string(),
    styleableLayers: z.array(
      z.object({
        name: z.string(),
        type: z.string(),
        unit: Unit.nullable(),
        attributes: z.array(z.object({ name: z.string(), value: z.number().int(), unit: z.null() })),
      }),
    ),
  })
  .meta({ id: 'Product' });

/** Frame record (public record, platform area). */
export const Frame = z
  .object({
    id: Uuid,
    validTime: Timestamp,
    runTime: Timestamp,
    creationTime: Timestamp,
    expirationTime: Timestamp.nullable(),
    zoomLevels: z.object({ minimum: z.number().int(), native: z.number().int(), maximum: z.number().int() }),
    mediaTypes: z.array(z.string()),
    tileSize: z.number().int(),
    forecast: z.string().nullable(),
    product: z.string(),
  })
  .meta({ id: 'Frame' });

/** Platform forecast record (public record, platform area). */
export const PlatformForecast = z
  .object({
    id: Uuid,
    initTime: Timestamp,
    creationTime: Timestamp,
    expirationTime: Timestamp,
    frames: z.string(),
    product: z.string(),
  })
  .meta({ id: 'PlatformForecast' });

/** GET /frames/{id}/datapoint/{latitude}/{longitude}: the value and where the point falls in the frame's native-zoom tile. */
export const Datapoint = z
  .object({
    value: z.number().nullable().meta({ description: 'the frame value at the point, null where the frame has no data' }),
    unit: Unit.nullable(),
    tile: z.object({ z: z.number().int(), x: z.number().int(), y: z.number().int() }),
    pixel: z.object({ row: z.number().int(), column: z.number().int() }),
  })
  .meta({ id: 'Datapoint' });
