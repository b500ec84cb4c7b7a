import {
  answeredNotModified,
  type Api,
  BodyFault,
  entityTagOf,
  ifMatchCheck,
  JsonText,
  type Limits,
  type OperationContext,
  InvalidRequestError,
  NotAllowedError,
  NotFoundError,
  ValidationError,
} from '@fieldcast/kit';
import { ProductParams, Style, StyleInput, StyleListQuery, StyleParams, StyleReplacement } from '@fieldcast/schemas';
import type { ProductDef } from '@fieldcast/weather';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { checkStyleAgainstProduct, type DefaultStyles, nameTaken, styleRecord, type StyleRecord, styleView } from '../domain/styles.js';
import { productVisible } from '../domain/access.js';
import type { GrantLookup } from '@fieldcast/runtime';
import type { StyleStore } from '../store.js';
import type { TileProducts } from '../domain/products.js';

export interface StyleRouteDeps {
  /** the catalog's products and the synced sources' */
  products: TileProducts;
  styles: StyleStore;
  defaults: DefaultStyles;
  grants: GrantLookup;
}

const styleFault = BodyFault.semantic('invalid_style', 'The style is not valid');

/** Name and content faults are 422 with their path (spec 4.3); a description that is no string is a malformed body. */
const BODY_FAULTS = { name: styleFault, description: BodyFault.malformed, layerName: styleFault, colorizers: styleFault };

const RULES =
  'Rules (each fault 422 with its path, nothing stored): name unique among all styles, default styles included (those of synced sources’ products too, synced yet or not), compared case-insensitively (409 style_name_taken); layerName a styleable layer of the product; at least one colorizer, defaultMode linear or discrete, at least one stop, stop values strictly ascending; colours #rrggbb or rgba(r, g, b, a); a mask names a mask layer of the product and attributes of it, with a space or an underscore.';

/**
 * The members the service sets, sent back with a replacement: each must be the style's own, since
 * a replacement cannot move a style to another id or product, nor make it a default.
 */
function refuseOtherOwnMembers(body: StyleReplacement, own: { id: string; isDefault: boolean; productId: string }): void {
  const faults = (['id', 'isDefault', 'productId'] as const)
    .filter((k) => body[k] !== undefined && String(body[k]).toLowerCase() !== String(own[k]).toLowerCase())
    .map((k) => ({ path: k, message: `is set by the service: the style's own is ${String(own[k])}; leave it out or send that` }));
  if (faults.length > 0) throw new ValidationError('invalid_style', 'The style is not valid', faults);
}

/** The style's tag, that of the style as a read serves it (docs/decisions/0461-owned-resources-honour-if-match.md). */
const tagOf = (record: StyleRecord) => entityTagOf(styleView(record));

/** A style's answer with its ETag: 304 without a body for a read whose If-None-Match names it (RFC 9110 section 13.1.2). */
function tagged(
  { req, res }: Pick<OperationContext<unknown, unknown, unknown>, 'req' | 'res'>,
  style: Style,
  read = false,
): Style | undefined {
  const etag = entityTagOf(style);
  res.setHeader('ETag', etag);
  return read && answeredNotModified(req, res, etag) ? undefined : style;
}

/** Styles (spec 2.3, 4.3; docs/interface.md §4). */
export function styleRoutes(api: Api, deps: StyleRouteDeps): Api {
  const { products, styles, defaults, grants } = deps;
  /** The product the account names and may see (a restricted one once granted); 404 otherwise. */
  const product = async (accountId: string, ref: string): Promise<ProductDef> => {
    const p = await products.product(ref);
    if (!p || !(await productVisible(grants, accountId, p))) throw new NotFoundError('product', ref);
    return p;
  };
  /** Whether the account may not see a catalog product (restricted, not granted to it): its styles are 404 like missing ones. */
  const hidden = async (accountId: string, productId: string): Promise<boolean> => {
    const p = await products.product(productId);
    return p !== undefined && !(await productVisible(grants, accountId, p));
  };
  const checkName = (name: string) => {
    if (defaults.holdsName(name)) throw nameTaken(name, 'default');
  };
  const refuseDefault = async (accountId: string, id: string) => {
    const builtIn = defaults.byId.get(id);
    if (!builtIn) return;
    if (await hidden(accountId, builtIn.productId)) throw new NotFoundError('style', id);
    throw new NotAllowedError(
      'style_is_default',
      `Style ${id} is a default style of its product: it can be read but not changed or removed`,
    );
  };
  return api
    .op({
      method: 'get',
      path: '/v2/products/{product}/styles.json',
      summary: 'List a product’s styles',
      description:
        'The product’s default styles (isDefault true), then the calling account’s contributed styles for it, oldest first; never another account’s. `limit` and `after` page through the contributed styles (Link rel="next" while more remain).',
      tags: ['styles'],
      params: ProductParams,
      query: StyleListQuery,
      pages: true,
      response: { status: 200, description: 'The styles', schema: z.array(Style) },
      errors: [404],
      handle: async ({ account, params, query, req, res }) => {
        const p = await product(account.id, params.product);
        const limit = query.limit ?? 1000;
        const page = await styles.listForProduct(account.id, p.id, { limit, ...(query.after ? { after: query.after } : {}) });
        if (!page) {
          throw new InvalidRequestError('unknown_cursor', `after: no style ${query.after} of this account for ${p.name} to continue from`, [
            { path: 'after', message: 'must be the id of one of the account’s styles of this product' },
          ]);
        }
        if (page.more && page.last) {
          // RFC 8288: the next page, a reference relative to this request's own path.
          const next = new URLSearchParams({ limit: String(limit), after: page.last });
          res.setHeader('Link', `<${req.baseUrl}${req.path}?${next}>; rel="next"`);
        }
        // The defaults lead the first page; the contributed records come as the database wrote them.
        defaults.of(p);
        const parts = query.after ? [] : [defaults.jsonByProduct.get(p.id)!];
        if (page.json) parts.push(page.json);
        return new JsonText(`[${parts.join(',')}]`);
      },
    })
    .op({
      method: 'post',
      path: '/v2/products/{product}/styles',
      summary: 'Contribute a style for a product',
      description: RULES,
      tags: ['styles'],
      params: ProductParams,
      body: StyleInput,
      bodyFaults: BODY_FAULTS,
      response: { status: 201, description: 'The created style (isDefault false)', schema: Style },
      location: '/v2/styles/{id}.json',
      errors: [404, 409, 422],
      conditional: { tagged: true },
      handle: async ({ account, params, body, req, res }) => {
        const p = await product(account.id, params.product);
        checkStyleAgainstProduct(p, body);
        checkName(body.name);
        // The cap on resources of one kind per account (docs/decisions/0061-bounded-lists.md), as the kit resolved it.
        const max = (req.app.locals.limits as Limits).ownedPerKind;
        const created = await styles.create(styleRecord(randomUUID(), account.id, p.id, body), max);
        if (!created) {
          throw new ValidationError(
            'too_many_resources',
            `This account already has ${max.toLocaleString('en')} styles, the most it may have; delete some to create more`,
          );
        }
        return tagged({ req, res }, styleView(created));
      },
    })
    .op({
      method: 'get',
      path: '/v2/styles/{id}.json',
      summary: 'Read a style',
      description:
        'A default style (any account may read it) or one of the caller’s contributed styles; another account’s style is 404 like a missing one.',
      tags: ['styles'],
      params: StyleParams,
      response: { status: 200, description: 'The style', schema: Style },
      errors: [404],
      conditional: { tagged: true, ifMatch: true, ifNoneMatch: true },
      handle: async ({ account, params, req, res }) => {
        const builtIn = defaults.byId.get(params.id);
        if (builtIn && !(await hidden(account.id, builtIn.productId))) return tagged({ req, res }, builtIn, true);
        const record = builtIn ? null : await styles.get(account.id, params.id);
        if (!record || (await hidden(account.id, record.productId))) throw new NotFoundError('style', params.id);
        return tagged({ req, res }, styleView(record), true);
      },
    })
    .op({
      method: 'put',
      path: '/v2/styles/{id}.json',
      summary: 'Replace a style',
      description: `Replaces the caller’s style whole (same body as creation; its product stays). The style as read may be sent back edited: its id, isDefault and productId are taken when they are its own (422 invalid_style naming one that is not). A default style is 403 style_is_default. ${RULES}`,
      tags: ['styles'],
      params: StyleParams,
      body: StyleReplacement,
      bodyFaults: { ...BODY_FAULTS, id: styleFault, isDefault: styleFault, productId: styleFault },
      response: { status: 200, description: 'The style after replacement', schema: Style },
      errors: [403, 404, 409, 422],
      conditional: { tagged: true, ifMatch: true },
      handle: async ({ account, params, body, req, res }) => {
        await refuseDefault(account.id, params.id);
        const current = await styles.get(account.id, params.id);
        if (!current) throw new NotFoundError('style', params.id);
        const p = await products.product(current.productId);
        if (!p || (await hidden(account.id, p.id))) throw new NotFoundError('style', params.id);
        refuseOtherOwnMembers(body, { id: params.id, isDefault: false, productId: current.productId });
        checkStyleAgainstProduct(p, body);
        checkName(body.name);
        const replaced = await styles.replace(styleRecord(params.id, account.id, p.id, body), ifMatchCheck(req, tagOf));
        if (!replaced) throw new NotFoundError('style', params.id);
        return tagged({ req, res }, styleView(replaced));
      },
    })
    .op({
      method: 'delete',
      path: '/v2/styles/{id}.json',
      summary: 'Delete a style',
      description: 'Removes the caller’s style and returns it as it was. A default style is 403 style_is_default.',
      tags: ['styles'],
      params: StyleParams,
      response: { status: 200, description: 'The removed style', schema: Style },
      errors: [403, 404],
      conditional: { ifMatch: true },
      handle: async ({ account, params, req }) => {
        await refuseDefault(account.id, params.id);
        const current = await styles.get(account.id, params.id);
        if (!current || (await hidden(account.id, current.productId))) throw new NotFoundError('style', params.id);
        const removed = await styles.remove(account.id, params.id, ifMatchCheck(req, tagOf));
        if (!removed) throw new NotFoundError('style', params.id);
        return styleView(removed);
      },
    });
}
