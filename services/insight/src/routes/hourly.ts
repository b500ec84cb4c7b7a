import { type Api, JsonText, NotFoundError } from '@fieldcast/kit';
import { HourlyLocationParams, HourlySeries, hourlyQuerySchema, IdParams } from '@fieldcast/schemas';
import type { GridSource } from '@fieldcast/weather';
import { type HourlyQuantity, hourlySeriesJson, MAX_SERIES_CELL_HOURS } from '../domain/hourly-series.js';
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

const QUERY = `Query: start and end (both or neither): a UTC timestamp or a date (00:00Z for start, 23:00Z for end), from one year before the current hour to the previous hour, start no later than end; the series holds the hours whose start lies between them. Without them, the next 24 hours from the next whole hour (forecast values). Each entry's validTime is the start of the hour its value covers. Unknown parameters are ignored.`;
const WORK = `At most ${MAX_SERIES_CELL_HOURS.toLocaleString('en')} cell-hours (weather grid cells x hours read, 24 hours before start included for ET); a larger request gets 422 request_too_large before anything is computed.`;

const SERIES = {
  'relative-humidity': {
    path: '/hourly-relative-humidity',
    tag: 'relative humidity',
    title: 'Hourly relative humidity',
    what: 'Hourly relative humidity (%, Bolton 1980) from the hour’s mean air temperature and dewpoint',
    withUnit: false,
  },
  evapotranspiration: {
    path: '/hourly-evapotranspiration-short-crop',
    tag: 'evapotranspiration',
    title: 'Hourly short-crop reference evapotranspiration',
    what: 'Hourly ASCE-EWRI 2005 standardized short-crop reference evapotranspiration (ETos: Cn 37, Cd 0.24 day / 0.96 night, G 0.1 / 0.5 Rn); negative hours (dew) as computed. unit: millimeters (default, mm/hr) or inches (in/hr).',
    withUnit: true,
  },
} as const;

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
    api
      .op({
        method: 'get',
        path: `${s.path}/{id}`,
        summary: `${s.title} over an asset`,
        description: `${s.what}, as the mean of the grid cells the asset covers weighted by the area of each cell inside it; latitude and longitude are the asset's centroid. ${QUERY} ${WORK}`,
        tags: [s.tag],
        params: IdParams,
        query,
        response: { status: 200, description: 'The series (spec 2.7) with `asset`', schema: HourlySeries },
        errors: [404, 422],
        // Grids over many hours (docs/architecture.md §3, limits): an account has only a few in flight.
        heavy: true,
        handle: async ({ account, params, query: q }) =>
          new JsonText(await deps.computer.asset(await loadAsset(account.id, params.id), quantity, q)),
      })
      .op({
        method: 'get',
        path: `${s.path}/{latitude}/{longitude}`,
        summary: `${s.title} at a location`,
        description: `${s.what}, from hourly weather interpolated bilinearly between grid points. ${QUERY} ${WORK}`,
        tags: [s.tag],
        params: HourlyLocationParams,
        query,
        response: { status: 200, description: 'The series (spec 2.7)', schema: HourlySeries },
        errors: [422],
        handle: async ({ params, query: q }) => {
          const key = seriesTextKey(quantity, params.latitude, params.longitude, q, deps.now().getTime());
          return new JsonText(await deps.pointTexts.get(key, () => hourlySeriesJson(deps.weather, quantity, params, q)));
        },
      });
  }
  return api;
}
