import { type CsvCell, csvForm, type CsvTable } from '@fieldcast/kit';
import type {
  ChillFieldResult,
  ChillLocationResult,
  DegreeDayFieldResult,
  DegreeDayLocationResult,
  DegreeDayQuery,
} from '@fieldcast/schemas';

/**
 * The CSV forms of the degree-day and chill results (docs/decisions/0243-csv-answers.md): one
 * row per place, or with include=daily one row per place and day, each with its query's settings
 * (dates, base or model) so that the files of two queries cannot be taken for each other. A
 * field's row names the field and leaves latitude and longitude empty, a point's leaves field
 * empty. The unit is in each value column's header.
 */

type Located = { latitude: number; longitude: number } | { field: string };
/** A field's days also carry the running statistics over the field (docs/decisions/0510-field-daily-statistics.md). */
const FIELD_RUNNING = ['accumulatedFieldMean', 'accumulatedFieldMaximum', 'accumulatedFieldMinimum'] as const;
type Day<K extends string> = { date: string; accumulated: number } & Record<K, number> &
  Partial<Record<(typeof FIELD_RUNNING)[number], number>>;
type WithDaily<K extends string> = { daily?: Day<K>[] };

const batchOf = <R>(result: R | { results: R[] }): R[] =>
  typeof result === 'object' && result !== null && 'results' in result ? result.results : [result];

const place = (r: Located): CsvCell[] => ('field' in r ? ['', '', r.field] : [r.latitude, r.longitude, '']);

/** A table of totals or daily rows of results that each hold `key` in `unit`; `extra` the totals' further columns. */
function table<K extends 'degreeDays' | 'chill', R extends Located & WithDaily<K> & Record<K, number>>(
  key: K,
  results: R[],
  unit: string,
  settings: { names: string[]; of(r: R): CsvCell[] },
): CsvTable {
  const stats = (r: R): CsvCell[] => {
    if (!('fieldMean' in r)) return ['', '', ''];
    const f = r as unknown as { fieldMean: number; fieldMaximum: number; fieldMinimum: number };
    return [f.fieldMean, f.fieldMaximum, f.fieldMinimum];
  };
  if (results.some((r) => r.daily !== undefined)) {
    return {
      columns: [
        'latitude',
        'longitude',
        'field',
        ...settings.names,
        'date',
        `${key} (${unit})`,
        `accumulated (${unit})`,
        ...FIELD_RUNNING.map((name) => `${name} (${unit})`),
      ],
      rows: (function* () {
        for (const r of results)
          for (const d of r.daily ?? [])
            yield [...place(r), ...settings.of(r), d.date, d[key], d.accumulated, ...FIELD_RUNNING.map((name) => d[name])];
      })(),
    };
  }
  return {
    columns: [
      'latitude',
      'longitude',
      'field',
      ...settings.names,
      `${key} (${unit})`,
      `fieldMean (${unit})`,
      `fieldMaximum (${unit})`,
      `fieldMinimum (${unit})`,
    ],
    rows: results.map((r) => [...place(r), ...settings.of(r), r[key], ...stats(r)]),
  };
}

type DegreeDays = DegreeDayLocationResult | DegreeDayFieldResult;
/** The method's settings, which the JSON result leaves to the query: the upper threshold and its cutoff only where cap is given. */
export const degreeDayCsv = csvForm<DegreeDays | { results: DegreeDays[] }, unknown, DegreeDayQuery>(
  'One row per place (latitude, longitude or field; startDate, endDate, baseTemperature, method, upperThreshold, cutoff, degreeDays and, for a field, fieldMean, fieldMaximum, fieldMinimum), or with include=daily one row per place and day (startDate, endDate, baseTemperature, method, upperThreshold, cutoff, date, degreeDays, accumulated: the centroid for a field; and for a field accumulatedFieldMean, accumulatedFieldMaximum, accumulatedFieldMinimum); upperThreshold and cutoff empty without cap; units in the header',
  (result, _params, query) => {
    const results = batchOf(result);
    const scale = results[0]?.scale ?? 'Celsius';
    const method = [query.method, query.cap ?? '', query.cap === undefined ? '' : (query.cutoff ?? 'horizontal')];
    return table('degreeDays', results, `${scale} degree days`, {
      names: ['startDate', 'endDate', `baseTemperature (°${scale[0]})`, 'method', `upperThreshold (°${scale[0]})`, 'cutoff'],
      of: (r) => [r.startDate, r.endDate, r.baseTemperature, ...method],
    });
  },
);

type Chill = ChillLocationResult | ChillFieldResult;
export const chillCsv = csvForm<Chill | { results: Chill[] }>(
  'One row per place (latitude, longitude or field; startDate, endDate, model, chill and, for a field, fieldMean, fieldMaximum, fieldMinimum), or with include=daily one row per place and day (startDate, endDate, model, date, chill, accumulated: the centroid for a field; and for a field accumulatedFieldMean, accumulatedFieldMaximum, accumulatedFieldMinimum); units in the header',
  (result) => {
    const results = batchOf(result);
    return table('chill', results, results[0]?.units ?? '', {
      names: ['startDate', 'endDate', 'model'],
      of: (r) => [r.startDate, r.endDate, r.model],
    });
  },
);
