import { randomUUID } from 'node:crypto';
import { countParam, cursorParam, IdParams } from '@fieldcast/schemas';
import { z } from 'zod';
import { type Api, BodyFault, type BodyFaults } from './api.js';
import { answeredNotModified, entityTagOf, ifMatchCheck } from './conditional.js';
import { InvalidRequestError, NotFoundError, ValidationError } from './errors.js';
import { limitsOf, MAX_PAGE } from './limits.js';

/** What every owned resource's record has: its id and the account that owns it. */
export interface OwnedRecord {
  id: string;
  accountId: string;
}

/**
 * The store the routes work through (packages/db OwnedResourceStore): each method sees only the
 * given account's records, and null is an unknown id and another account's alike. A replace or
 * remove given a `precondition` runs it on the stored record, locked, in the change's transaction,
 * and writes nothing when it throws.
 */
export interface OwnedRecords<R extends OwnedRecord> {
  /** a page, oldest first, after the record `after`; null when `after` is no record of the account's */
  list(accountId: string, page: { limit: number; after?: string }): Promise<{ records: R[]; more: boolean } | null>;
  get(accountId: string, id: string): Promise<R | null>;
  /** null, and nothing written, when the account already owns `maxPerAccount` records of the kind */
  create(record: R, maxPerAccount: number): Promise<R | null>;
  replace(record: R, precondition?: (stored: R) => void): Promise<R | null>;
  remove(accountId: string, id: string, precondition?: (stored: R) => void): Promise<R | null>;
}

type OperationName = 'list' | 'read' | 'create' | 'replace' | 'remove';

/** What the HTTP side of an owned resource needs: its path, its schemas and how records are made and shown. */
export interface OwnedResourceRoutes<R extends OwnedRecord, In extends z.ZodType, V extends z.ZodType> {
  /** singular snake_case kind, as in the problem id `<kind>_does_not_exist` */
  kind: string;
  /** the collection, e.g. `/fields`; each record at `<path>/{id}` */
  path: string;
  tag: string;
  /** nouns for the summaries: `field`, `fields` */
  noun: { one: string; many: string };
  /** the body of create and replace */
  input: In;
  bodyFaults: BodyFaults<In>;
  /**
   * true when `build` or the store refuses a well-formed body's content with a ValidationError
   * (422, naming the path) beyond what the body's schema checks, so replace documents a 422 too
   */
  contentRules?: boolean;
  /** the resource as it is served */
  view: V;
  /** the record a body makes, under a new id (create) or the id it replaces */
  build(id: string, accountId: string, input: z.output<In>): R;
  present(record: R): z.output<V>;
  /** the operations served; all five by default (a resource that is never replaced leaves out `replace`) */
  operations?: readonly OperationName[];
  /** the created record as the create answer shows it, when it shows more than a read (a secret shown once) */
  created?: { view: z.ZodType; present(record: R): unknown };
  /** summaries and response descriptions where the generic ones say too little */
  docs?: Partial<Record<OperationName, { summary?: string; response?: string; description?: string }>>;
}

/**
 * The page a list asks for (docs/decisions/0061-bounded-lists.md): `limit` items, 1 to MAX_PAGE
 * (default MAX_PAGE), after the item whose id is `after`, the last one of the page before.
 */
export const ListQuery = z.object({
  limit: countParam({
    digits: 7,
    max: MAX_PAGE,
    description: `most items in the answer, 1 to ${MAX_PAGE} (default ${MAX_PAGE})`,
  }).optional(),
  after: cursorParam({
    name: 'after',
    names: 'the id of an item of the list',
    description: 'the id of the last item of the previous page (the Link header rel="next" gives it)',
  }).optional(),
});

function hasSemanticFaults(faults: BodyFaults<z.ZodType>): boolean {
  if (faults instanceof BodyFault) return faults.status === 422;
  return Object.values(faults as Record<string, BodyFault>).some((f) => f.status === 422);
}

/**
 * List, read, create, replace and delete of an owned resource: each account sees and changes
 * only its own records; another account's id gets the same 404 as an unknown one
 * (docs/interface.md, ownership); create is 201 with the record and its Location, replace and
 * delete 200 with it (after the change, and as it was). A record's read, create and replace
 * answers carry its ETag, and replace and delete honour If-Match (conditional.ts,
 * docs/decisions/0461-owned-resources-honour-if-match.md).
 */
export function ownedResourceRoutes<R extends OwnedRecord, In extends z.ZodType, V extends z.ZodType>(
  api: Api,
  store: OwnedRecords<R>,
  spec: OwnedResourceRoutes<R, In, V>,
): Api {
  const { one, many } = spec.noun;
  const found = (id: string, record: R | null): R => {
    if (!record) throw new NotFoundError(spec.kind, id);
    return record;
  };
  /** The record's tag: that of its view as a read serves it. */
  const tagOf = (record: R) => entityTagOf(spec.present(record));
  const item = `${spec.path}/{id}`;
  /** An operation's summary and description, and its response's description: the spec's, or generic ones. */
  const docs = (name: OperationName, summary: string, response: string) => {
    const given = spec.docs?.[name] ?? {};
    return {
      head: { summary: given.summary ?? summary, ...(given.description ? { description: given.description } : {}) },
      response: given.response ?? response,
    };
  };
  const semantic = spec.contentRules === true || hasSemanticFaults(spec.bodyFaults as BodyFaults<z.ZodType>);
  const tags = [spec.tag];
  const list = docs('list', `List the calling account’s ${many}`, `The ${many}, oldest first`);
  const read = docs('read', `Read a ${one}`, `The ${one}`);
  const create = docs('create', `Create a ${one}`, `The created ${one}`);
  const replace = docs('replace', `Replace a ${one}`, `The updated ${one}`);
  const remove = docs('remove', `Delete a ${one}`, `The removed ${one}`);
  const served = new Set<OperationName>(spec.operations ?? ['list', 'read', 'create', 'replace', 'remove']);
  const serve = (name: OperationName, add: () => Api): Api => (served.has(name) ? add() : api);
  serve('list', () =>
    api.op({
      method: 'get',
      path: spec.path,
      ...list.head,
      tags,
      query: ListQuery,
      pages: true,
      response: { status: 200, description: list.response, schema: z.array(spec.view) },
      handle: async ({ account, query, req, res }) => {
        const limit = query.limit ?? MAX_PAGE;
        const page = await store.list(account.id, { limit, ...(query.after ? { after: query.after } : {}) });
        if (!page) {
          throw new InvalidRequestError('unknown_cursor', `after: no ${one} ${query.after} of this account to continue from`, [
            { path: 'after', message: `must be the id of one of the account's ${many}` },
          ]);
        }
        const last = page.records[page.records.length - 1];
        if (page.more && last) {
          // RFC 8288: the next page, a reference relative to this request's own path.
          const next = new URLSearchParams({ limit: String(limit), after: last.id });
          res.setHeader('Link', `<${req.baseUrl}${req.path}?${next}>; rel="next"`);
        }
        return page.records.map((r) => spec.present(r));
      },
    }),
  );
  serve('read', () =>
    api.op({
      method: 'get',
      path: item,
      ...read.head,
      tags,
      params: IdParams,
      response: { status: 200, description: read.response, schema: spec.view },
      errors: [404],
      conditional: { tagged: true, ifMatch: true, ifNoneMatch: true },
      handle: async ({ account, params, req, res }) => {
        const view = spec.present(found(params.id, await store.get(account.id, params.id)));
        const etag = entityTagOf(view);
        res.setHeader('ETag', etag);
        if (answeredNotModified(req, res, etag)) return undefined;
        return view;
      },
    }),
  );
  serve('create', () =>
    api.op({
      method: 'post',
      path: spec.path,
      ...create.head,
      tags,
      body: spec.input,
      bodyFaults: spec.bodyFaults,
      response: { status: 201, description: create.response, schema: spec.created?.view ?? spec.view },
      // Location names the read at `<path>/{id}` (created-location.ts), when it is served.
      ...(served.has('read') ? {} : { location: false as const }),
      errors: [422],
      conditional: { tagged: true },
      handle: async ({ account, body, req, res }) => {
        const { ownedPerKind } = limitsOf(req);
        const created = await store.create(spec.build(randomUUID(), account.id, body), ownedPerKind);
        if (!created)
          throw new ValidationError(
            'too_many_resources',
            `This account already has ${ownedPerKind.toLocaleString('en')} ${many}, the most it may have; delete some to create more`,
          );
        res.setHeader('ETag', tagOf(created));
        return spec.created ? spec.created.present(created) : spec.present(created);
      },
    }),
  );
  serve('replace', () =>
    api.op({
      method: 'put',
      path: item,
      ...replace.head,
      tags,
      params: IdParams,
      body: spec.input,
      bodyFaults: spec.bodyFaults,
      response: { status: 200, description: replace.response, schema: spec.view },
      errors: semantic ? [404, 422] : [404],
      conditional: { tagged: true, ifMatch: true },
      handle: async ({ account, params, body, req, res }) => {
        const replaced = found(params.id, await store.replace(spec.build(params.id, account.id, body), ifMatchCheck(req, tagOf)));
        const view = spec.present(replaced);
        res.setHeader('ETag', entityTagOf(view));
        return view;
      },
    }),
  );
  serve('remove', () =>
    api.op({
      method: 'delete',
      path: item,
      ...remove.head,
      tags,
      params: IdParams,
      response: { status: 200, description: remove.response, schema: spec.view },
      errors: [404],
      conditional: { ifMatch: true },
      handle: async ({ account, params, req }) =>
        spec.present(found(params.id, await store.remove(account.id, params.id, ifMatchCheck(req, tagOf)))),
    }),
  );
  return api;
}
