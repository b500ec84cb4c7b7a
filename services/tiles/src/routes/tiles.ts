import { answeredNotModified, type Api, ifNoneMatchHits, NotFoundError, parseAccept, refuseStaleIfMatch } from '@fieldcast/kit';
import { FramesQuery, ProductParams, TileFrame, TileParams, TileQuery } from '@fieldcast/schemas';
import type { Catalog, FrameIndex } from '@fieldcast/weather';
import { z } from 'zod';
import { recentFrames, tileFrameRecord } from '../domain/frames.js';
import { productVisible } from '../domain/access.js';
import type { GrantLookup } from '@fieldcast/runtime';
import type { TileProducts } from '../domain/products.js';
import type { TileRenderer } from '../domain/tiles.js';

export interface TileRouteDeps {
  catalog: Catalog;
  renderer: TileRenderer;
  frames: FrameIndex;
  /** the catalog's products and the synced sources' */
  products: TileProducts;
  grants: GrantLookup;
  now: () => Date;
}

/**
 * The style named among the parameters of the PNG media type in Accept (public record:
 * `Accept: image/png; style=<id or name>`), from the most preferred range that names one.
 */
export function styleFromAccept(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const named = parseAccept(header)
    .filter((r) => r.q > 0 && r.params.style !== undefined && ['image/png', 'image/*', '*/*'].includes(r.type))
    .sort((a, b) => b.q - a.q);
  const style = named[0]?.params.style?.trim();
  return style ? style : undefined;
}

/** PNG tiles of frames and a product's recent frames (docs/interface.md §4; public record, tiles). */
export function tileRoutes(api: Api, deps: TileRouteDeps): Api {
  const { renderer } = deps;
  return api
    .op({
      method: 'get',
      path: '/v2/frames/{frame}/tile/{z}/{x}/{y}.png',
      summary: 'A tile of a frame as a PNG',
      description: `A ${256} x 256 PNG (8-bit RGBA) of the frame in web mercator (EPSG:3857, XYZ tiling), drawn with the style named by \`style\` (id or name) in the query or as a \`style=\` parameter of the image/png media type in Accept, else the product’s default style. The grid is sampled at each pixel centre (bilinear for linear colorizers, the nearest grid point for discrete ones and for masks); transparent where there is no data or no colorizer applies. Zoom levels ${renderer.zoomLevels.minimum} to ${renderer.zoomLevels.maximum} (native ${renderer.zoomLevels.native}); x and y 0 to 2^z - 1, else 400. A strong ETag; a stale If-Match is 412 and If-None-Match is answered 304. Frames of the past are cacheable for a year with a default style (immutable), five minutes with a contributed one, and where synced stores are served a catalog product's frames of the last 24 hours five minutes too; forecast frames, and analysis frames whose period is not over everywhere (today's daily values), until the next hour. Unknown frame or style 404.`,
      tags: ['tiles'],
      params: TileParams,
      query: TileQuery,
      produces: ['image/png'],
      response: { status: 200, description: 'The tile', mediaType: 'image/png' },
      // 503 layer_not_drawable: the weather source lacks a variable the style's layer is made from
      errors: [404, 503],
      conditional: { tagged: true, ifMatch: true, ifNoneMatch: true },
      // Reading the grid under a tile is large work at low zooms: an account has only a few in flight.
      heavy: true,
      handle: async ({ account, params, query, req, res }) => {
        const style = query.style ?? styleFromAccept(req.headers.accept);
        const resolved = await renderer.resolve({
          accountId: account.id,
          frameId: params.frame,
          tile: { z: params.z, x: params.x, y: params.y },
          style,
        });
        // A stale If-Match is 412 before the tile's fields are set (RFC 9110 section 13.2.2).
        refuseStaleIfMatch(req, resolved.etag);
        // The answer differs by credentials and by the Accept's style parameter.
        res.setHeader('Vary', 'Accept, Authorization');
        // The tile's validators and lifetime go only on the tile or its 304: an error answered
        // instead (a layer not drawable, a fault) would be kept by a cache for as long (RFC 9111
        // §3) and revalidated by the tile's ETag into a 304.
        const png = ifNoneMatchHits(req.headers['if-none-match'], resolved.etag) ? null : await renderer.render(resolved);
        res.setHeader('ETag', resolved.etag);
        res.setHeader('Cache-Control', resolved.cacheControl);
        // The tile's own type, by which a 304 is given the Vary of the 200 it stands for.
        res.type('image/png');
        if (png === null) {
          answeredNotModified(req, res, resolved.etag);
          return;
        }
        res.status(200).type('image/png').send(png);
      },
    })
    .op({
      method: 'get',
      path: '/v2/products/{product}/frames.json',
      summary: 'A product’s recent frames',
      description:
        'The product’s newest frames first, the same records as the platform area’s frames (id, validTime, runTime, creationTime, expirationTime, zoomLevels, mediaTypes, tileSize, forecast, product), so a map client needs only this base address. `limit` 1 to 1000, default 100.',
      tags: ['tiles'],
      params: ProductParams,
      query: FramesQuery,
      response: { status: 200, description: 'The frames, newest first', schema: z.array(TileFrame) },
      errors: [404],
      handle: async ({ account, params, query }) => {
        const p = await deps.products.product(params.product);
        if (!p || !(await productVisible(deps.grants, account.id, p))) throw new NotFoundError('product', params.product);
        const limit = query.limit ?? 100;
        const frames =
          (await deps.products.syncedFrames(params.product, limit)) ?? recentFrames(p, deps.now().getTime(), limit, deps.frames);
        return frames.map((f) => tileFrameRecord(f, renderer.zoomLevels));
      },
    });
}
