import { type Account, type Api, JsonText } from '@fieldcast/kit';
import {
  Datapoint,
  DatapointParams,
  Frame,
  IdParams,
  PLATFORM_LIMIT_DEFAULT,
  PlatformForecast,
  Product,
  ProductRefParams,
  ProductsQuery,
  TimeListQuery,
} from '@fieldcast/schemas';
import { z } from 'zod';
import type { Platform, TimeWindow } from '../domain/platform.js';
import type { FramePageCache } from '../frame-page-cache.js';
import { framesJson } from './frame-json.js';

export interface PlatformRouteDeps {
  platform: Platform;
  /** pages of product frames already written */
  framePages: FramePageCache;
  /** ids of the restricted products granted to the account */
  granted(account: Account): Promise<ReadonlySet<string>>;
  now: () => Date;
}

const LIST = `start and end (ISO 8601) bound the times, limit is 1 to 1,000 (default ${PLATFORM_LIMIT_DEFAULT}), sort is desc (default) or asc.`;
const ACCESS = 'A restricted product the account has not been granted, and its frames and forecasts, do not exist for it (404).';

const windowOf = (q: z.output<typeof TimeListQuery>): TimeWindow => ({
  ...(q.start === undefined ? {} : { start: q.start }),
  ...(q.end === undefined ? {} : { end: q.end }),
  limit: q.limit ?? PLATFORM_LIMIT_DEFAULT,
  sort: q.sort ?? 'desc',
});

/** Products, frames, forecasts and datapoints (spec 2.4, 4.6; docs/interface.md §6). */
export function platformRoutes(api: Api, deps: PlatformRouteDeps): Api {
  const { platform } = deps;
  const nowMs = () => deps.now().getTime();
  return api
    .op({
      method: 'get',
      path: '/products',
      summary: 'The products the account is authorized for, filtered',
      description:
        'Filters, all combined (spec 4.6): contentType and source (exact), aggregation (minutes, a nonnegative integer), start and end (both or neither: products with a frame in the range), coverage (a URL-encoded GeoJSON geometry of any type, or a Feature of one, that the product coverage must contain, its boundary counting as inside). A bad value is 400 naming the parameter.',
      tags: ['products'],
      query: ProductsQuery,
      response: { status: 200, description: 'Spec 2.4 products, in catalog order', schema: z.array(Product) },
      handle: async ({ account, query }) => platform.list(await deps.granted(account), query, nowMs()),
    })
    .op({
      method: 'get',
      path: '/products/{product}',
      summary: 'A product by id or name',
      description: ACCESS,
      tags: ['products'],
      params: ProductRefParams,
      response: { status: 200, description: 'The spec 2.4 product', schema: Product },
      errors: [404],
      handle: async ({ account, params }) => platform.product(params.product, await deps.granted(account), nowMs()),
    })
    .op({
      method: 'get',
      path: '/products/{product}/frames',
      summary: 'A product’s frames',
      description: `One frame per valid time on the product’s cadence: analysis frames up to the current hour, then the latest forecast run’s. ${LIST} ${ACCESS}`,
      tags: ['frames'],
      params: ProductRefParams,
      query: TimeListQuery,
      response: { status: 200, description: 'Frames, by valid time', schema: z.array(Frame) },
      errors: [404],
      handle: async ({ account, params, query }) => {
        const [granted, w, now] = [await deps.granted(account), windowOf(query), nowMs()];
        const key = await platform.productFramesKey(params.product, granted, w, now);
        const kept = deps.framePages.peek(key);
        if (kept) return new JsonText(kept);
        const frames = await platform.productFrames(params.product, granted, w, now);
        return new JsonText(deps.framePages.get(key, () => framesJson(frames)));
      },
    })
    .op({
      method: 'get',
      path: '/products/{product}/forecasts',
      summary: 'A product’s forecast runs',
      description: `Published runs that have not expired, by init time. ${LIST} ${ACCESS}`,
      tags: ['forecasts'],
      params: ProductRefParams,
      query: TimeListQuery,
      response: { status: 200, description: 'Platform forecasts, by init time', schema: z.array(PlatformForecast) },
      errors: [404],
      handle: async ({ account, params, query }) =>
        platform.productForecasts(params.product, await deps.granted(account), windowOf(query), nowMs()),
    })
    .op({
      method: 'get',
      path: '/forecasts/{id}',
      summary: 'A forecast run',
      description: `A published run that has not expired. ${ACCESS}`,
      tags: ['forecasts'],
      params: IdParams,
      response: { status: 200, description: 'The platform forecast', schema: PlatformForecast },
      errors: [404],
      handle: async ({ account, params }) => platform.forecast(params.id, await deps.granted(account), nowMs()),
    })
    .op({
      method: 'get',
      path: '/forecasts/{id}/frames',
      summary: 'A forecast run’s frames',
      description: `The run’s valid times from its init time to its horizon. ${LIST}`,
      tags: ['forecasts'],
      params: IdParams,
      query: TimeListQuery,
      response: { status: 200, description: 'Frames, by valid time', schema: z.array(Frame) },
      errors: [404],
      handle: async ({ account, params, query }) =>
        new JsonText(framesJson(await platform.forecastFrames(params.id, await deps.granted(account), windowOf(query), nowMs()))),
    })
    .op({
      method: 'get',
      path: '/frames/{id}',
      summary: 'A frame',
      description: ACCESS,
      tags: ['frames'],
      params: IdParams,
      response: { status: 200, description: 'The frame', schema: Frame },
      errors: [404],
      handle: async ({ account, params }) => platform.frame(params.id, await deps.granted(account), nowMs()),
    })
    .op({
      method: 'get',
      path: '/frames/{id}/datapoint/{latitude}/{longitude}',
      summary: 'A frame’s value at a point',
      description:
        'The value of the product’s first styleable layer at the frame’s valid time, bilinear between the four surrounding grid points (null where there is no data), its unit, and the tile (native zoom, web mercator XYZ) and pixel (row from the top, column from the left, of 256) the point falls in; a point beyond ±85.0511°, on no tile, names the nearest drawn pixel, in the first or last row.',
      tags: ['frames'],
      params: DatapointParams,
      response: { status: 200, description: 'The datapoint', schema: Datapoint },
      errors: [404],
      handle: async ({ account, params }) =>
        platform.datapoint(params.id, params.latitude, params.longitude, await deps.granted(account), nowMs()),
    });
}
