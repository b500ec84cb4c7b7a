import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { Problem } from '@fieldcast/schemas';
import { ABSENT_BODY, type AnyOperation, createsResource, type MediaContent } from './api.js';
import { createdReadPath } from './created-location.js';
import { IDEMPOTENCY_KEY, MAX_IDEMPOTENCY_KEY, REPLAYED } from './idempotency.js';

type JsonSchema = Record<string, unknown>;

/**
 * The licence every document states (OpenAPI 3.1 `info.license`,
 * docs/decisions/0213-openapi-documents-for-generators.md). The project grants none (it is private
 * and carries no licence file), so the documents name no public licence: an SPDX `LicenseRef-`
 * identifier (SPDX 2.3 annex D) stands for its own terms.
 */
const LICENSE = { name: 'Proprietary, all rights reserved', identifier: 'LicenseRef-Fieldcast-Proprietary' };

/**
 * The 400 of an operation whose failures have bodies of their area's own (the archive's): a request
 * Node's HTTP parser refuses reaches no route, so it is answered as problem+json whatever the area
 * (client-error.ts, docs/decisions/0433-parser-refusals-documented-as-problem-json.md).
 */
const HTTP_REFUSAL =
  'Bad Request, in the format asked for; as application/problem+json when the request is not valid HTTP/1.1 (RFC 9112), such as a path holding a byte that must be percent-encoded (RFC 3986 section 2.1), which no operation reads';

/**
 * An operation's `operationId`, derived from its method and path, so it is stable while the route
 * is and needs no name written beside each of them: the method, then each path segment in
 * camel case, a `{parameter}` as `By<Parameter>`; only letters and digits, as code generators
 * take them for method names. GET /fields/{id}/degree-days is `getFieldsByIdDegreeDays`.
 */
export function operationIdOf(method: string, path: string): string {
  const words: string[] = [];
  for (const [, parameter, word] of path.matchAll(/\{([^}]+)\}|([A-Za-z0-9]+)/g)) {
    if (parameter !== undefined) words.push('by', ...(parameter.match(/[A-Za-z0-9]+/g) ?? []));
    else words.push(word!);
  }
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

/**
 * OpenAPI 3.1 from the operations' zod schemas (docs/architecture.md §1: the schemas are the single
 * source of truth). Named schemas (`.meta({ id })`) become components.
 */
export function openApiDocument(input: {
  title: string;
  version: string;
  description: string;
  mediaType: string;
  operations: AnyOperation[];
  /** whether the area keeps its creates' answers, so each create takes an Idempotency-Key */
  idempotencyKeys?: boolean;
}) {
  const operationIds = new Map<string, string>();
  const components: Record<string, JsonSchema> = {};

  const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    delete json.$schema;
    const rewrite = (s: JsonSchema): JsonSchema => JSON.parse(JSON.stringify(s).replaceAll('"#/$defs/', '"#/components/schemas/'));
    // zod leaves a named schema's examples out of its input side when a member preprocesses
    // (FieldInput's geometries); a request body's examples are inputs, so they are given back.
    const meta = io === 'input' ? z.globalRegistry.get(schema) : undefined;
    const named = meta?.id === undefined ? undefined : defs[meta.id];
    if (named && Array.isArray(meta?.examples) && !('examples' in named)) named.examples = meta.examples;
    for (const [name, def] of Object.entries(defs)) components[name] = rewrite(def);
    const id = json.id as string | undefined;
    if (id) {
      delete json.id;
      components[id] = rewrite(json);
      return { $ref: `#/components/schemas/${id}` };
    }
    return rewrite(json);
  };

  const parametersOf = (schema: z.ZodType | undefined, where: 'path' | 'query') => {
    if (!schema) return [];
    const json = toSchema(schema, 'input');
    const props = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required as string[] | undefined) ?? []);
    return Object.entries(props).map(([name, s]) => ({
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(s.description ? { description: s.description } : {}),
      schema: s,
    }));
  };

  // The problem body is a component only where an operation answers with it (the archive has its own).
  let problemSchema: JsonSchema | undefined;
  const problemRef = () => (problemSchema ??= toSchema(Problem, 'output'));
  const problemContent = () => ({ 'application/problem+json': { schema: problemRef() } });
  // The response headers every client may read (service.ts exposes them to browsers too).
  const text = (description: string) => ({ description, schema: { type: 'string' } });
  const requestId = { 'X-Request-Id': text('The request’s id, as the service logged it (docs/architecture.md §3)') };
  const rateLimit = {
    RateLimit: text(
      'The account’s remaining requests r and seconds to a full bucket t (draft-ietf-httpapi-ratelimit-headers), when limits are on',
    ),
    'RateLimit-Policy': text(
      'The account’s bucket: burst q over window w seconds (draft-ietf-httpapi-ratelimit-headers), when limits are on',
    ),
  };
  const retryAfter = { 'Retry-After': text('Seconds to wait before trying again (RFC 9110 section 10.2.3)') };
  const link = { Link: text('The next page, rel="next" (RFC 8288), while more remain') };
  const csvFile = {
    'Content-Disposition': text(
      'With text/csv: attachment; filename="<the path’s segments joined by _>.csv" (RFC 6266), such as growing-degree-days_42.03_-93.6.csv',
    ),
  };
  const replayed = {
    [REPLAYED]: text(
      `true when this is the answer kept for the request's ${IDEMPOTENCY_KEY}, sent again; nothing was created by this request`,
    ),
  };
  // draft-ietf-httpapi-idempotency-key-header section 2.1: an Item Structured Field whose value is an sf-string.
  const idempotencyKey = {
    name: IDEMPOTENCY_KEY,
    in: 'header',
    required: false,
    description: `A key the client chose for this create (draft-ietf-httpapi-idempotency-key-header), as a quoted string (RFC 8941 sf-string, printable ASCII) of 1 to ${MAX_IDEMPOTENCY_KEY} characters, such as "8e03978e-40d5-43e8-bc93-6894a57f9324". The same request sent again by the same account with the same key within 24 hours creates nothing and gets the first answer again (status, Location, body), marked ${REPLAYED}: true; another request under the key is 422 idempotency_key_reused, one sent while the first is still under way 409 idempotency_key_in_progress, a key of another form 400 invalid_idempotency_key, and one from an account that keeps as many answers as it may own resources of one kind 429 idempotency_keys_exhausted until the first expires (docs/interface.md §1).`,
    schema: { type: 'string', pattern: '^ *"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\["\\\\])+" *$' },
  };
  // RFC 9110 sections 8.8.3 and 13.1 (conditional.ts; docs/decisions/0461-owned-resources-honour-if-match.md).
  const etag = {
    ETag: text(
      'The resource’s strong entity tag (RFC 9110 section 8.8.3): it changes whenever the resource as read changes; name it in If-Match to replace or delete only that version',
    ),
  };
  const ifMatch = {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'Proceed only if the resource is still the version named (RFC 9110 section 13.1.1): the ETag of a read, or several separated by commas, compared strongly; `*` names any version. Another version is 412 precondition_failed: nothing changes, and a read serves nothing. Left out, the request is answered whatever the version.',
    schema: { type: 'string' },
  };
  const ifNoneMatch = {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'The ETag of a version the client holds (RFC 9110 section 13.1.2): while it is still current the answer is 304 with no body.',
    schema: { type: 'string' },
  };
  // A replace or delete that honours If-Match honours If-None-Match too (ifMatchCheck; docs/decisions/0517-changes-honour-if-none-match.md).
  const ifNoneMatchOfChange = {
    ...ifNoneMatch,
    description:
      'Proceed only if the resource is not the version named (RFC 9110 section 13.1.2): an ETag, several separated by commas, or `*` for any version. Naming the current version, or `*` while the resource exists, is 412 precondition_failed and nothing changes.',
  };
  const keyed = (op: AnyOperation) => input.idempotencyKeys === true && createsResource(op);
  const located = (readPath: string) => ({
    description: `Where the created resource is read, GET ${readPath} (RFC 9110 section 10.2.2): a path on this area`,
    schema: { type: 'string', format: 'uri-reference' },
  });
  const headersOf = (op: AnyOperation, status: number) => {
    const readPath = status === op.response.status ? createdReadPath(op, input.operations) : undefined;
    return {
      ...requestId,
      // The account's bucket is spent once it is known, so a 401 carries no RateLimit fields.
      ...(op.auth !== false && status !== 401 ? rateLimit : {}),
      ...(status === 429 ? retryAfter : {}),
      ...(op.pages && status === op.response.status ? link : {}),
      ...(op.csv && status === op.response.status ? csvFile : {}),
      ...(readPath ? { Location: located(readPath) } : {}),
      ...(keyed(op) && status === op.response.status ? replayed : {}),
      ...(op.conditional?.tagged && (status === op.response.status || status === 304) ? etag : {}),
    };
  };
  // A request without a body is read as ABSENT_BODY: where the schema takes that, the body may be
  // left out, and a generated client need not send `{}` (OpenAPI 3.1 section 4.8.13, `required`;
  // docs/decisions/0432-bodies-that-may-be-left-out-are-not-required.md).
  const requestBodyOf = (body: z.ZodType) => ({
    required: !body.safeParse(ABSENT_BODY).success,
    content: { 'application/json': { schema: toSchema(body, 'input') } },
  });
  const paths: Record<string, Record<string, unknown>> = {};
  const contentOf = (media: readonly MediaContent[]) =>
    Object.fromEntries(media.map((m) => [m.mediaType, m.schema ? { schema: toSchema(m.schema, 'output') } : {}]));
  for (const op of input.operations) {
    const responses: Record<string, unknown> = {
      [op.response.status]: {
        description: op.response.description,
        headers: headersOf(op, op.response.status),
        content: op.produces
          ? Object.fromEntries(op.produces.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]))
          : contentOf([
              { mediaType: op.response.mediaType ?? input.mediaType, ...(op.response.schema ? { schema: op.response.schema } : {}) },
              ...(op.response.alternatives ?? []),
              ...(op.csv ? [{ mediaType: 'text/csv', schema: z.string().meta({ description: op.csv.description }) }] : []),
            ]),
      },
    };
    const failureContent = op.failureBodies ? contentOf(op.failureBodies) : problemContent();
    const failures = new Set([
      ...(op.auth === false ? [] : [401, 429]),
      406,
      ...(op.params || op.query ? [400] : []),
      ...(op.body ? [400, 413, 415] : []),
      ...(op.errors ?? []),
      ...(keyed(op) ? [400, 409, 422] : []),
      ...(op.conditional?.ifMatch ? [412] : []),
    ]);
    for (const status of [...failures].sort()) {
      responses[status] =
        status === 400 && op.failureBodies
          ? { description: HTTP_REFUSAL, headers: headersOf(op, status), content: { ...failureContent, ...problemContent() } }
          : { description: STATUS_CODES[status] ?? 'Error', headers: headersOf(op, status), content: failureContent };
    }
    if (op.conditional?.ifNoneMatch)
      responses[304] = { description: 'Not Modified: the version If-None-Match names is still current', headers: headersOf(op, 304) };
    const operationId = operationIdOf(op.method, op.path);
    const taken = operationIds.get(operationId);
    if (taken) throw new Error(`${op.method.toUpperCase()} ${op.path} and ${taken} would share the operationId ${operationId}`);
    operationIds.set(operationId, `${op.method.toUpperCase()} ${op.path}`);
    (paths[op.path] ??= {})[op.method] = {
      operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(op.tags ? { tags: op.tags } : {}),
      ...(op.auth === false ? { security: [] } : {}),
      // A signed URL (Operation.credential) stands in for HTTP Basic: either one will do.
      ...(op.auth !== false && op.credential ? { security: [{ basic: [] }, {}] } : {}),
      parameters: [
        ...parametersOf(op.params, 'path'),
        ...parametersOf(op.query, 'query'),
        ...(keyed(op) ? [idempotencyKey] : []),
        ...(op.conditional?.ifMatch ? [ifMatch] : []),
        ...(op.conditional?.ifNoneMatch ? [ifNoneMatch] : op.conditional?.ifMatch ? [ifNoneMatchOfChange] : []),
      ],
      ...(op.body ? { requestBody: requestBodyOf(op.body) } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: input.title, version: input.version, description: input.description, license: LICENSE },
    // Relative: the area's own address, wherever it is served from (OpenAPI 3.1 section 4.8.5).
    servers: [{ url: '/', description: 'This area: the address this document is served from' }],
    security: [{ basic: [] }],
    paths,
    components: {
      schemas: components,
      securitySchemes: { basic: { type: 'http', scheme: 'basic', description: 'application id : application key' } },
    },
  };
}
