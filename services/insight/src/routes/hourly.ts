import { answerBatch, type Api, BodyFault, csvForm, JsonResults, JsonText, NotFoundError } from '@fieldcast/kit';
import { batchBody, batchResult, HourlyLocationParams, HourlySeries, hourlyQuerySchema, IdParams } from '@fieldcast/schemas';
import type { GridSource } from '@fieldcast/weather';
import type { AssetRecord } from '../domain/assets.js';
import {
  assetSeriesWork,
  checkWork,
  type HourlyQuantity,
  hourlySeriesJson,
  MAX_SERIES_CELL_HOURS,
  pointSeriesWork,
} from '../domain/hourly-series.js';
import { type SeriesTextCache, seriesTextKey } from '../series-cache.js';
import type { SeriesComputer } from '../series-compute.js';
import type { AssetStore } from '../store.js';

export interface HourlyRouteDeps {
  assets: AssetStore;
  weather: GridSource;
  now: () => Date;
  /** asset series, off the event loop */
  computer: SeriesComputer;
  /** point series already written (docs/decisions/0112-insight-point-series-speed.md) */
  pointTexts: SeriesTextCache;
}

const QUERY = `Query: start and end (both or neither): a UTC timestamp or a date (00:00Z for start, 23:00Z for end), from one year before the current hour (a date: from the date one year back) to the previous hour, start no later than end; the series holds the hours whose start lies between them. Without them, the next 24 hours from the next whole hour (forecast values). Each entry's validTime is the start of the hour its value covers. Unknown parameters are ignored.`;
const BATCH = `Up to 1,000 entries in locations, each [longitude, latitude] or the id of one of your assets, all with the same query; one series per entry, in their order. The work limit counts the whole batch: 4 cells per point, an asset as its own request counts it, times the hours read; a batch over it, or of more than 1,000 entries, gets 422 request_too_large before anything is computed. An invalid entry is 400 naming its index (errors[].path locations.<index>); an asset id that is not yours is 404.`;
const CSV = 'Accept: text/csv answers CSV.';

/** An operation's description from its sentences, an empty one left out. */
const sentences = (...parts: string[]) => parts.filter(Boolean).join(' ');
const WORK = `At most ${MAX_SERIES_CELL_HOURS.toLocaleString('en')} cell-hours (weather grid cells x hours read, 24 hours before start included for ET); a larger request gets 422 request_too_large before anything is computed.`;

const SERIES = {
  'relative-humidity': {
    path: '/hourly-relative-humidity',
    tag: 'relative humidity',
    title: 'Hourly relative humidity',
    what: 'Hourly relative humidity (%, Bolton 1980) from the hour’s mean air temperature and dewpoint',
    notes: '',
    withUnit: false,
  },
  evapotranspiration: {
    path: '/hourly-evapotranspiration-short-crop',
    tag: 'evapotranspiration',
    title: 'Hourly short-crop reference evapotranspiration',
    what: 'Hourly ASCE-EWRI 2005 standardized short-crop reference evapotranspiration (ETos: Cn 37, Cd 0.24 day / 0.96 night, G 0.1 / 0.5 Rn)',
    notes: 'Negative hours (dew) as computed. unit: millimeters (default, mm/hr) or inches (in/hr).',
    withUnit: true,
  },
} as const;

/** The column of each quantity's values in CSV, its unit in the header (docs/decisions/0243-csv-answers.md). */
const CSV_VALUE = { 'relative-humidity': 'relativeHumidity', evapotranspiration: 'evapotranspiration' } as const;

const HourlyBatchResult = batchResult(HourlySeries, HourlySeries, 'HourlySeriesBatch');

/** One row per place and hour: latitude, longitude, asset (for an asset's series), validTime, the value with its unit, and the hour's products. */
function seriesCsv(quantity: HourlyQuantity) {
  return csvForm<HourlySeries | { results: Iterable<HourlySeries> }>(
    `One row per place and hour: latitude, longitude, asset (an asset's series; its centroid's latitude and longitude), validTime, ${CSV_VALUE[quantity]} with its unit in the header, products (separated by ;)`,
    (result) => {
      // A batch's series are read one at a time as the rows are written (JsonResults); the first
      // names the unit, which every series of one query shares.
      const series = ('results' in result ? result.results : [result])[Symbol.iterator]();
      const first = series.next();
      function* rows() {
        for (let s = first; !s.done; s = series.next())
          for (const e of s.value.series)
            yield [s.value.latitude, s.value.longitude, s.value.asset ?? '', e.validTime, e.value, e.products.join(';')];
      }
      return {
        columns: [
          'latitude',
          'longitude',
          'asset',
          'validTime',
          `${CSV_VALUE[quantity]} (${first.done ? '' : first.value.unit.label})`,
          'products',
        ],
        rows: rows(),
      };
    },
  );
}

/**
 * The hourly series (spec 2.7, 4.5), each at a point and over an asset. The asset form has one
 * segment, the point form two, so the paths never overlap.
 */
export function hourlyRoutes(api: Api, deps: HourlyRouteDeps): Api {
  const loadAsset = async (accountId: string, id: string) => {
    // Ownership as for assets (spec 4.4): another account's asset is "does not exist".
    const asset = await deps.assets.get(accountId, id);
    if (!asset) throw new NotFoundError('asset', id);
    return asset;
  };
  for (const quantity of Object.keys(SERIES) as HourlyQuantity[]) {
    const s = SERIES[quantity];
    const query = hourlyQuerySchema(deps.now, s.withUnit);
    const csv = seriesCsv(quantity);
    api
      .op({
        method: 'post',
        path: `${s.path}/batch`,
        summary: `${s.title} at many places`,
        description: sentences(
          `${s.what}, at each point (bilinear between grid points) or over each asset (the area-weighted mean of its cells).`,
          s.notes,
          BATCH,
          QUERY,
          WORK,
          CSV,
        ),
        tags: [s.tag],
        query,
        body: batchBody('asset'),
        bodyFaults: BodyFault.malformed,
        response: { status: 200, description: 'One series per entry, in order (spec 2.7)', schema: HourlyBatchResult },
        errors: [404, 422, 503],
        csv,
        // Many series (docs/architecture.md §3, limits): an account has only a few in flight.
        heavy: true,
        handle: async ({ account, body, query: q }) => {
          const texts = await answerBatch<AssetRecord, string>(body.locations, {
            owned: (id) => loadAsset(account.id, id),
            work: (entry) => ('point' in entry ? pointSeriesWork(quantity, q) : assetSeriesWork(deps.weather, entry.resource, quantity, q)),
            checkWork: (total) => checkWork(total, 'batch'),
            points: (points) => deps.computer.points(points, quantity, q),
            resource: (asset) => deps.computer.asset(asset, quantity, q),
          });
          return new JsonResults(texts);
        },
      })
      .op({
        method: 'get',
        path: `${s.path}/{id}`,
        summary: `${s.title} over an asset`,
        description: sentences(
          `${s.what}, as the mean of the grid cells the asset covers weighted by the area of each cell inside it; latitude and longitude are the asset's centroid.`,
          s.notes,
          QUERY,
          WORK,
          CSV,
        ),
        tags: [s.tag],
        params: IdParams,
        query,
        response: { status: 200, description: 'The series (spec 2.7) with `asset`', schema: HourlySeries },
        errors: [404, 422, 503],
        csv,
        // Grids over many hours (docs/architecture.md §3, limits): an account has only a few in flight.
        heavy: true,
        handle: async ({ account, params, query: q }) =>
          new JsonText(await deps.computer.asset(await loadAsset(account.id, params.id), quantity, q)),
      })
      .op({
        method: 'get',
        path: `${s.path}/{latitude}/{longitude}`,
        summary: `${s.title} at a location`,
        description: sentences(`${s.what}, from hourly weather interpolated bilinearly between grid points.`, s.notes, QUERY, WORK, CSV),
        tags: [s.tag],
        params: HourlyLocationParams,
        query,
        response: { status: 200, description: 'The series (spec 2.7)', schema: HourlySeries },
        errors: [422, 503],
        csv,
        handle: async ({ params, query: q }) => {
          const key = seriesTextKey(deps.weather, quantity, params.latitude, params.longitude, q, deps.now().getTime());
          return new JsonText(await deps.pointTexts.get(key, () => hourlySeriesJson(deps.weather, quantity, params, q)));
        },
      });
  }
  return api;
}
