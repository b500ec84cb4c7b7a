// zod schemas of the archive area's requests and records (docs/interface.md §11,
// docs/decisions/0170-archive-requests.md). The archive parses its own path and query (it answers
// faults in its own formats); these schemas document them in its OpenAPI document.
import { z } from 'zod';
import { anyCase, countParam } from './common.js';

const Time = z.string().describe('ISO 8601 UTC with Z, to the millisecond');
const Latitude = z.number().min(-90).max(90);
const Longitude = z.number().min(-180).max(180);

/** What every record has. */
const RecordBase = {
  id: z.string().describe('UUID v5 of the event (stable across processes and restarts)'),
  time: Time.describe('when the event happened (a tornado: touchdown)'),
  latitude: Latitude,
  longitude: Longitude,
  distance: z.number().min(0).optional().describe('point queries: distance from the point, in the query units (a tornado: from its track)'),
};

export const HailSizeRecord = z
  .object({
    ...RecordBase,
    maxSizeMm: z.number().describe('maximum estimated hail diameter, mm'),
    maxSizeIn: z.number().describe('the same, inches, two decimals'),
  })
  .meta({ id: 'ArchiveHailSizeRecord', description: 'hailsize: a hail swath point with its maximum estimated hail size' });

export const HailProbRecord = z
  .object({
    ...RecordBase,
    probability: z.number().min(0).max(1).describe('probability of hail of at least 25.4 mm (1 in) at the place, 0..1'),
    maxSizeMm: z.number().describe('maximum estimated hail diameter, mm'),
  })
  .meta({ id: 'ArchiveHailProbRecord', description: 'hailprob: the probability of severe hail at a hail swath point' });

export const TornadoRecord = z
  .object({
    ...RecordBase,
    endTime: Time.describe('lift-off'),
    rating: z.string().describe('Enhanced Fujita rating, EF0..EF5'),
    efScale: z.number().int().min(0).max(5),
    lengthKm: z.number().describe('path length, km'),
    widthM: z.number().describe('path width, m'),
  })
  .meta({
    id: 'ArchiveTornadoRecord',
    description:
      'tornado: a tornado track; its Feature geometry is the track as a LineString from touchdown (latitude, longitude) to lift-off',
  });

export const GustDurationRecord = z
  .object({
    ...RecordBase,
    peakGustMs: z.number().describe('peak gust, m/s'),
    peakGustKt: z.number().describe('peak gust, knots'),
    durationMinutes: z.number().describe('minutes the gusts stayed above thresholdMs'),
    thresholdMs: z.number().describe('damaging gust threshold, m/s (18)'),
  })
  .meta({ id: 'ArchiveGustDurationRecord', description: 'gustdur: the duration of damaging wind gusts at a place' });

export const LightningRecord = z
  .object({
    ...RecordBase,
    strokeType: z.enum(['cloud', 'ground']),
    peakCurrentKa: z.number().describe('absolute peak current, kA'),
  })
  .meta({ id: 'ArchiveLightningRecord', description: 'lightning: one stroke (types=cloud|ground, default ground)' });

export const StormReportRecord = z
  .object({
    ...RecordBase,
    reportType: z.enum(['hail', 'wind', 'tornado']),
    magnitude: z
      .number()
      .nullable()
      .describe('hail: diameter (mm); wind: gust (m/s); tornado: EF rating; null where an ingested report gave none (UNK)'),
    unit: z.string().describe('mm, m s-1 or EF'),
    place: z.string().optional().describe('ingested reports: where it was reported, "Location, County, State"'),
    remarks: z.string().describe('the report text'),
    source: z
      .enum(['synthetic', 'ingested'])
      .describe('synthetic: the synthetic world’s; ingested: a row of a storm report file (fieldcast archive ingest-reports)'),
  })
  .meta({
    id: 'ArchiveStormReportRecord',
    description:
      'stormreports: a report of severe hail (>= 1 in), wind (>= 50 kt) or a tornado (US NWS criteria), with its text; the synthetic world’s and ingested ones',
  });

export const ARCHIVE_RECORDS = {
  hailsize: HailSizeRecord,
  hailprob: HailProbRecord,
  tornado: TornadoRecord,
  gustdur: GustDurationRecord,
  lightning: LightningRecord,
  stormreports: StormReportRecord,
} as const;

export const ArchiveQueryEcho = z
  .object({
    type: z.enum(['hailsize', 'hailprob', 'tornado', 'gustdur', 'lightning', 'stormreports']),
    request: z.enum(['summary', 'latest', 'history']),
    location: z.string().optional().describe('a point query: ISO 6709'),
    region: z.object({ northEast: z.string(), southWest: z.string() }).optional().describe('a region query: its corners, ISO 6709'),
    radius: z.number().optional(),
    units: z.enum(['miles', 'km']).optional(),
    begin: Time,
    end: Time,
    date: z.string().optional().describe('the event day the path named (YYYY-MM-DD, the 24 h from 06:00Z)'),
    types: z.string().optional().describe('lightning: the stroke types'),
    sort: z.enum(['time', 'distance']).optional().describe('lightning history: the order'),
  })
  .meta({ id: 'ArchiveQuery', description: 'the request as the archive understood it, defaults applied' });

export const ArchiveSummaryDay = z
  .object({
    date: z.string().describe('the date the event day starts on (06:00Z)'),
    begin: Time,
    end: Time,
    count: z.number().int(),
    firstTime: Time,
    lastTime: Time,
    maxSizeMm: z.number().optional().describe('hailsize'),
    maxSizeIn: z.number().optional().describe('hailsize'),
    maxProbability: z.number().optional().describe('hailprob'),
    maxEfScale: z.number().optional().describe('tornado'),
    maxRating: z.string().optional().describe('tornado'),
    totalLengthKm: z.number().optional().describe('tornado'),
    maxPeakGustMs: z.number().optional().describe('gustdur'),
    maxPeakGustKt: z.number().optional().describe('gustdur: the same, whole knots'),
    maxDurationMinutes: z.number().optional().describe('gustdur'),
    maxPeakCurrentKa: z.number().optional().describe('lightning'),
    cloud: z.number().int().optional().describe('lightning: cloud strokes'),
    ground: z.number().int().optional().describe('lightning: ground strokes'),
    hail: z.number().int().optional().describe('stormreports'),
    wind: z.number().int().optional().describe('stormreports'),
    tornado: z.number().int().optional().describe('stormreports'),
  })
  .meta({ id: 'ArchiveSummaryDay', description: 'one event day with events: counts, first and last times, the type’s maxima' });

const ArchiveSummaryData = z
  .object({ query: ArchiveQueryEcho, totalItems: z.number().int(), items: z.array(ArchiveSummaryDay).describe('newest first') })
  .meta({ id: 'ArchiveSummary' });

/** history and latest of one type: a GeoJSON FeatureCollection with the records in properties. */
export function archiveFeatureCollection(type: keyof typeof ARCHIVE_RECORDS) {
  const record = ARCHIVE_RECORDS[type];
  const geometry =
    type === 'tornado'
      ? z.object({ type: z.literal('LineString'), coordinates: z.array(z.tuple([Longitude, Latitude])).min(2) })
      : z.object({ type: z.literal('Point'), coordinates: z.tuple([Longitude, Latitude]) });
  return z
    .object({
      type: z.literal('FeatureCollection'),
      query: ArchiveQueryEcho,
      totalItems: z.number().int().describe('records in the range; history lists at most itemsPerPage of them'),
      itemsPerPage: z.number().int(),
      features: z.array(z.object({ type: z.literal('Feature'), id: z.string(), geometry, properties: record })).describe('newest first'),
    })
    .meta({ id: `Archive${type.charAt(0).toUpperCase()}${type.slice(1)}Features` });
}

/** The JSON body of a successful answer of one type. */
export function archiveBody(type: keyof typeof ARCHIVE_RECORDS) {
  return z.object({
    apiVersion: z.string().describe('the release, 2.minor.micro'),
    data: z
      .union([ArchiveSummaryData, archiveFeatureCollection(type)])
      .describe('summary: days; latest and history: a GeoJSON FeatureCollection'),
  });
}

export const ArchiveError = z
  .object({
    apiVersion: z.string(),
    error: z.object({
      code: z.number().int().describe('the HTTP status'),
      message: z.string(),
      errors: z.array(
        z.object({
          reason: z.string().describe('stable snake_case id, e.g. invalid_parameter, unauthorized'),
          message: z.string(),
          location: z.string().optional(),
          locationType: z.enum(['parameter', 'path']).optional(),
        }),
      ),
    }),
  })
  .meta({ id: 'ArchiveError', description: 'an archive failure in the Google JSON style; XML and KML carry the same members' });

const text = (description: string) => z.string().describe(description);

/** Path parameters of an archive request. */
export const ArchivePath = z.object({
  request: z
    .enum(['summary', 'latest', 'history'])
    .describe('summary: per event day; latest: the most recent event; history: every event, newest first'),
  location: text(
    'ISO 6709 point ±DD.ddd±DDD.ddd (e.g. +39.7392-104.9903), or a region: north-east corner then south-west corner, adjacent or comma-separated; may end in .json, .xml or .kml when no date follows',
  ),
});

export const ArchivePathWithDate = ArchivePath.extend({
  date: text(
    'one event day (the 24 h from 06:00Z): YYYY-MM-DD, an RFC 3339 time or POSIX seconds within it; may end in .json, .xml or .kml',
  ),
});

/** History's `limit`: records an answer holds (docs/decisions/0170-archive-requests.md). */
export const ARCHIVE_HISTORY_LIMIT = { default: 100, max: 1_000 };

/** `limit` as every list of the API reads it; the archive's domain parses it with this too. */
export const ArchiveLimit = countParam({
  digits: 7,
  max: ARCHIVE_HISTORY_LIMIT.max,
  description: `history: most records, 1 to ${ARCHIVE_HISTORY_LIMIT.max}, default ${ARCHIVE_HISTORY_LIMIT.default}`,
});

/** Query parameters; `types` and `sort` are lightning's only. */
export function archiveQueryParameters(lightning: boolean) {
  return z.object({
    u: text('user name (fieldcast archive register)'),
    t: text('token'),
    begin: text('RFC 3339 or POSIX seconds; default 90 days before end').optional(),
    end: text('RFC 3339 or POSIX seconds; default now').optional(),
    radius: text('points: search radius, default 1, at most 20 miles (32.187 km)').optional(),
    units: z
      .string()
      .regex(anyCase(['miles', 'km']))
      .describe('points: units of radius and distances, miles (default) or km, any case')
      .optional(),
    limit: ArchiveLimit.optional(),
    ...(lightning
      ? {
          types: z.enum(['ground', 'cloud', 'cloud,ground', 'ground,cloud']).describe('stroke types, default ground').optional(),
          sort: z.enum(['time', 'distance']).describe('history order: newest first (time, default) or nearest first').optional(),
        }
      : {}),
  });
}
