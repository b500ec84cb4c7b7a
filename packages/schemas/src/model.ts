import { z } from 'zod';
import { boundMs, coordinateParam, countParam, orderedRange, sentAs, timeText, Timestamp, UTC_ZONE, Uuid, UuidInput } from './common.js';
import { withPlusHint } from './query-time.js';

/**
 * The model area (docs/interface.md §7; spec 2.8, 4.7): models, forecast runs, their variables
 * and point time series with statistics. The records the specification leaves out follow the
 * public record's client (docs/decisions/0140-forecast-runs-and-their-life-cycle.md).
 */

/** A plain decimal number: no exponent, no hex, no Infinity, nothing after it. */

/** Forecast run statuses in life-cycle order (public record, model area). */
export const MODEL_FORECAST_STATUSES = ['INITIALIZING', 'INCOMPLETE', 'COMPLETE', 'EXPIRED'] as const;
export const ModelForecastStatus = z.enum(MODEL_FORECAST_STATUSES).meta({ id: 'ModelForecastStatus' });
export type ModelForecastStatus = z.infer<typeof ModelForecastStatus>;

export const MODEL_FORECAST_LIST_LIMIT_DEFAULT = 100;
export const MODEL_FORECAST_LIST_LIMIT_MAX = 1000;

export const ModelUnit = z
  .object({
    description: z.string().meta({ examples: ['degrees Celsius'] }),
    label: z.string().meta({ examples: ['°C'] }),
  })
  .meta({ id: 'ModelUnit' });

export const ModelRecord = z
  .object({
    id: Uuid,
    name: z.string(),
    description: z.string(),
    forecasts: z.string().meta({ description: 'relative path /models/<id>/forecasts' }),
  })
  .meta({ id: 'Model' });
export type ModelRecord = z.infer<typeof ModelRecord>;

export const ModelVariableRecord = z
  .object({ name: z.string(), description: z.string(), unit: ModelUnit })
  .meta({ id: 'ModelVariable', description: 'A variable every run of the model forecasts' });
export type ModelVariableRecord = z.infer<typeof ModelVariableRecord>;

export const ModelForecastRecord = z
  .object({
    id: Uuid,
    initTime: Timestamp.meta({ description: 'the analysis time the run starts from; its first valid time' }),
    creationTime: Timestamp.meta({ description: 'when the run is complete (published); later than now while it is produced' }),
    expirationTime: Timestamp.meta({ description: 'when the run expires' }),
    status: ModelForecastStatus,
    model: z.string().meta({ description: 'relative path /models/<id>' }),
    variables: z.string().meta({ description: 'relative path /forecasts/<id>/variables' }),
  })
  .meta({ id: 'ModelForecast' });
export type ModelForecastRecord = z.infer<typeof ModelForecastRecord>;

export const ModelForecastVariableRecord = z
  .object({
    id: Uuid,
    name: z.string(),
    description: z.string(),
    unit: ModelUnit,
    validTimes: z.array(Timestamp).meta({ description: 'the valid times produced so far, ascending' }),
    forecast: z.string().meta({ description: 'relative path /forecasts/<id>' }),
  })
  .meta({ id: 'ModelForecastVariable' });
export type ModelForecastVariableRecord = z.infer<typeof ModelForecastVariableRecord>;

const SeriesValue = z.object({ validTime: Timestamp, value: z.number().nullable() });
const Extreme = SeriesValue.extend({ value: z.number() })
  .nullable()
  .meta({ description: 'the value and its first validTime; null for an empty series' });

/** One variable's series at a point with its statistics (spec 2.8). */
export const ModelVariableTimeSeries = z
  .object({
    series: z.array(SeriesValue).meta({ description: 'values at two decimals, ascending validTime; null where the weather has none' }),
    mean: z.number().nullable(),
    median: z.number().nullable(),
    mode: z
      .number()
      .nullable()
      .meta({ description: 'the most frequent of the values, at their two decimals (docs/decisions/0009-statistics-mode.md)' }),
    minimum: Extreme,
    maximum: Extreme,
    unit: ModelUnit,
  })
  .meta({
    id: 'ModelVariableTimeSeries',
    examples: [
      {
        series: [
          { validTime: '2026-05-01T00:00:00.000Z', value: 12.3 },
          { validTime: '2026-05-01T01:00:00.000Z', value: 11.8 },
          { validTime: '2026-05-01T02:00:00.000Z', value: 11.8 },
        ],
        mean: 11.97,
        median: 11.8,
        mode: 11.8,
        minimum: { validTime: '2026-05-01T01:00:00.000Z', value: 11.8 },
        maximum: { validTime: '2026-05-01T00:00:00.000Z', value: 12.3 },
        unit: { description: 'degrees Celsius', label: '°C' },
      },
    ],
  });
export type ModelVariableTimeSeries = z.infer<typeof ModelVariableTimeSeries>;

/** Every variable of a model's latest complete run at a point (spec 2.8). */
export const ModelLatestForecastTimeSeries = z
  .object({
    forecast: z.string().meta({ description: 'relative path /forecasts/<id>' }),
    variables: z.record(z.string(), ModelVariableTimeSeries),
  })
  .meta({ id: 'ModelLatestForecastTimeSeries' });
export type ModelLatestForecastTimeSeries = z.infer<typeof ModelLatestForecastTimeSeries>;

// ---- Requests ----

const modelRef = z
  .string()
  .min(1)
  .max(200, { error: 'a model id or name is at most 200 characters' })
  .meta({ description: 'a model id (UUID) or name', examples: ['synthetic-global'] });

export const ModelParams = z.object({ id: modelRef });
export const ModelForecastParams = z.object({ id: UuidInput });
export const ModelForecastVariableParams = z.object({ id: UuidInput });

const variableName = z
  .string()
  .min(1)
  .max(100, { error: 'a variable name is at most 100 characters' })
  .meta({ description: 'a variable name of the run’s model', examples: ['temperature'] });

export const ModelTimeSeriesParams = z.object({
  id: UuidInput,
  variable: variableName,
  latitude: coordinateParam('latitude', 90, '42.0308'),
  longitude: coordinateParam('longitude', 180, '-93.6319'),
});

export const ModelLatestTimeSeriesParams = z.object({
  id: modelRef,
  latitude: coordinateParam('latitude', 90, '42.0308'),
  longitude: coordinateParam('longitude', 180, '-93.6319'),
});

/**
 * A time parameter as epoch milliseconds: ISO 8601 in UTC (spec: "Timestamps are ISO 8601
 * strings in UTC"), with `Z` or `+00:00` (sent as `%2B00:00` in a query string, where `+` is a
 * space). The bound is inclusive at the millisecond the service keeps: a start between two
 * milliseconds begins at the later one.
 */
const instant = (name: string, description: string, bound: 'start' | 'end') =>
  sentAs(z.string({ error: `${name} must be given once, as a UTC ISO 8601 timestamp such as 2026-05-01T12:00:00Z` }), description, [
    '2026-05-01T12:00:00Z',
  ])
    // Seconds optional, as the insight area's times (docs/decisions/0488-times-without-seconds.md).
    .transform(timeText)
    .pipe(
      z.iso
        .datetime({
          offset: true,
          abort: true,
          error: (issue) => withPlusHint(`${name} must be a UTC ISO 8601 timestamp such as 2026-05-01T12:00:00Z`, issue.input),
        })
        // Aborts: a refused start or end is not compared with the other (its text is no instant to order).
        .refine((s) => UTC_ZONE.test(s), { error: `${name} must be in UTC: end it with Z or +00:00 (sent as %2B00:00)`, abort: true })
        .transform((s) => boundMs(s, bound)),
    );

const positiveInteger = (name: string, description: string, max?: number) =>
  countParam({
    name,
    ...(max === undefined ? {} : { max }),
    description,
    examples: ['24'],
  });

/** start and end, when both are given, in order. */
const ORDERED = orderedRange('start must be no later than end');

/** Query of GET /models/{id}/forecasts (public record: start, end, limit, sort). */
export const ModelForecastListQuery = z
  .object({
    start: instant('start', 'earliest initTime, inclusive', 'start').optional(),
    end: instant('end', 'latest initTime, inclusive', 'end').optional(),
    limit: positiveInteger(
      'limit',
      `at most this many runs, ${MODEL_FORECAST_LIST_LIMIT_DEFAULT} by default, at most ${MODEL_FORECAST_LIST_LIMIT_MAX}`,
      MODEL_FORECAST_LIST_LIMIT_MAX,
    ).optional(),
    sort: z
      .enum(['asc', 'desc'], { error: 'sort must be asc or desc' })
      .meta({ description: 'by initTime: desc (newest first, the default) or asc' })
      .optional(),
  })
  .superRefine(ORDERED);
export type ModelForecastListQuery = z.infer<typeof ModelForecastListQuery>;

/** Query of the time-series operations (spec 4.7): start, end, limit. */
export const ModelTimeSeriesQuery = z
  .object({
    start: instant('start', 'earliest validTime, inclusive; default the run’s first', 'start').optional(),
    end: instant('end', 'latest validTime, inclusive; default the run’s last', 'end').optional(),
    limit: positiveInteger('limit', 'at most this many values: the first ones from start').optional(),
  })
  .superRefine(ORDERED);
export type ModelTimeSeriesQuery = z.infer<typeof ModelTimeSeriesQuery>;

/**
 * The response schemas by the client method that reads them, for the client's typed helpers
 * (packages/client): `new FieldcastClient(...).model.typed(modelSchemas)`.
 */
export const modelSchemas = {
  models: z.array(ModelRecord),
  model: ModelRecord,
  modelVariables: z.array(ModelVariableRecord),
  forecasts: z.array(ModelForecastRecord),
  forecast: ModelForecastRecord,
  forecastVariables: z.array(ModelForecastVariableRecord),
  forecastVariable: ModelForecastVariableRecord,
  timeSeries: ModelVariableTimeSeries,
  latestTimeSeries: ModelLatestForecastTimeSeries,
};
