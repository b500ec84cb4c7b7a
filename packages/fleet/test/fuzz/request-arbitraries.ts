import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { BAD_STRINGS, invalidValue, KNOWN_TOKEN, validValue, type JsonSchema, type Resolve } from './schema-arbitraries.js';

/** One operation of an OpenAPI document, as the fuzzer needs it. */
export interface FuzzOperation {
  area: string;
  method: string;
  /** template, e.g. /fields/{id} */
  path: string;
  params: { name: string; in: 'path' | 'query'; required: boolean; schema: JsonSchema }[];
  body?: JsonSchema;
  /** the media type of its success response (the vendor type for JSON) */
  mediaType: string;
  /** the media types its failures are documented in: problem+json, or an area's own (the archive's, docs/interface.md §11) */
  failureTypes: string[];
  auth: boolean;
}

export function operationsOf(area: string, document: { paths: Record<string, Record<string, Record<string, unknown>>> }): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const responses = op.responses as Record<string, { content?: Record<string, unknown> }>;
      const success = Object.entries(responses).find(([status]) => status.startsWith('2'))?.[1];
      // the types every failure is documented in: the archive's 400 also lists the HTTP parser's
      // problem+json (docs/decisions/0433-parser-refusals-documented-as-problem-json.md), which faultOf allows anywhere
      const failures = Object.entries(responses).flatMap(([status, r]) => (status.startsWith('4') ? [Object.keys(r.content ?? {})] : []));
      const failureTypes = (failures[0] ?? ['application/problem+json']).filter((type) => failures.every((types) => types.includes(type)));
      const requestBody = op.requestBody as { content: Record<string, { schema: JsonSchema }> } | undefined;
      operations.push({
        area,
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []) as FuzzOperation['params'],
        ...(requestBody ? { body: Object.values(requestBody.content)[0]!.schema } : {}),
        mediaType: Object.keys(success?.content ?? {})[0] ?? 'application/json',
        failureTypes,
        auth: !(Array.isArray(op.security) && op.security.length === 0),
      });
    }
  }
  return operations;
}

/**
 * A text as it goes on the wire in a URL: `value` is percent-encoded as UTF-8 (an unpaired
 * surrogate as its generalised UTF-8 bytes, which no UTF-8 decoder accepts); `raw` is sent as
 * written (bad percent-encodings, overlong forms); `known` is an id or handle the fleet has
 * handed out, picked at send time, as given or in upper case (ids are case-insensitive).
 */
export type UrlText = { value: string } | { raw: string } | { known: number; upper: boolean };

/** Who the request claims to be. */
export type Caller = 'owner' | 'other' | 'anonymous' | 'wrong-key' | 'unknown-id' | 'malformed';

export type Body =
  | { json: unknown }
  /** JSON text written by hand: what JSON.stringify cannot produce */
  | { text: string }
  | { base64: string };

/** A generated request, before credentials and known ids are filled in. */
export interface FuzzRequest {
  method: string;
  path: UrlText[];
  query: [string, UrlText][];
  caller: Caller;
  accept?: string;
  contentType?: string;
  contentEncoding?: 'gzip' | 'gzip-not-gzip' | 'deflate-not-deflate' | 'br-not-br' | 'unknown';
  body?: Body;
}

/** Percent-encodes UTF-8, with lone surrogates as the bytes a lenient encoder would emit (WTF-8). */
export function percentEncode(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (/^[A-Za-z0-9\-._~]$/.test(ch)) out += ch;
    else if (code >= 0xd800 && code <= 0xdfff)
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    else out += encodeURIComponent(ch);
  }
  return out;
}

const BAD_URL_TEXT = [
  '%',
  '%f',
  '%ff',
  '%zz',
  '%c0%80',
  '%ed%a0%80',
  '%00',
  '%2F',
  '%2f..%2f',
  '.',
  '..',
  '%2e%2e',
  '%u0041',
  'a%',
  '%%',
  '%C3%28',
  '\u00ff',
];

function urlText(schema: JsonSchema, resolve: Resolve, knownWeight: number): fc.Arbitrary<UrlText> {
  const asText = (v: unknown) => ({ value: typeof v === 'string' ? v : JSON.stringify(v) });
  return fc.oneof(
    { arbitrary: validValue(schema, resolve).map(asText), weight: 10 },
    { arbitrary: fc.record({ known: fc.nat(50), upper: fc.boolean() }), weight: knownWeight },
    { arbitrary: invalidValue(schema, resolve).map(asText), weight: 3 },
    { arbitrary: fc.constantFrom(...BAD_STRINGS).map((value) => ({ value })), weight: 2 },
    { arbitrary: fc.constantFrom(...BAD_URL_TEXT).map((raw) => ({ raw })), weight: 2 },
  );
}

const CALLERS = fc.oneof(
  { arbitrary: fc.constant<Caller>('owner'), weight: 20 },
  { arbitrary: fc.constant<Caller>('other'), weight: 2 },
  { arbitrary: fc.constant<Caller>('anonymous'), weight: 4 },
  // scrypt runs for a wrong key of a real id: kept rare so a run stays short
  { arbitrary: fc.constant<Caller>('wrong-key'), weight: 1 },
  { arbitrary: fc.constant<Caller>('unknown-id'), weight: 1 },
  { arbitrary: fc.constant<Caller>('malformed'), weight: 1 },
);

function accepts(mediaType: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(mediaType, 'application/json', '*/*', undefined), weight: 12 },
    {
      arbitrary: fc.constantFrom('application/vnd.fieldcast.v2+json', 'text/html', 'image/png;q=0', ';;;', 'application/*;q=x', '\u00ff'),
      weight: 1,
    },
  );
}

const CONTENT_TYPES = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 12 },
  {
    arbitrary: fc.constantFrom('application/json; charset=utf-8', 'application/vnd.fieldcast.v1+json', 'application/problem+json'),
    weight: 2,
  },
  {
    arbitrary: fc.constantFrom(
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/json; charset=nope',
      'application/xml',
      '%%%',
    ),
    weight: 3,
  },
);

const ENCODINGS = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 16 },
  {
    arbitrary: fc.constantFrom<FuzzRequest['contentEncoding']>('gzip', 'gzip-not-gzip', 'deflate-not-deflate', 'br-not-br', 'unknown'),
    weight: 1,
  },
);

/** JSON texts with what a JSON serialiser never writes: numbers past doubles, lone surrogate escapes, deep nesting, duplicates. */
const HAND_WRITTEN_JSON = [
  '',
  '{',
  'null',
  '[]',
  '"text"',
  '0',
  '{"type":1e400}',
  '{"a":123456789012345678901234567890123456789}',
  '{"description":"\\ud800","message":"\\udfff"}',
  '{"description":"\\u0000","message":"a\\u0000b"}',
  '['.repeat(5000) + ']'.repeat(5000),
  '{"a":1,"a":2}',
  '\ufeff{}',
  '{"__proto__":{"polluted":true}}',
  '{"type":"GeometryCollection","geometries":[{"type":"Polygon","coordinates":[[[1e400,0],[0,1e400],[0,0],[1e400,0]]]}]}',
];

function bodies(schema: JsonSchema, resolve: Resolve): fc.Arbitrary<Body> {
  return fc.oneof(
    { arbitrary: validValue(schema, resolve).map((json) => ({ json })), weight: 4 },
    { arbitrary: invalidValue(schema, resolve).map((json) => ({ json })), weight: 6 },
    { arbitrary: fc.constantFrom(...HAND_WRITTEN_JSON).map((text) => ({ text })), weight: 2 },
    // bytes that are not UTF-8 at all
    { arbitrary: fc.uint8Array({ maxLength: 40 }).map((b) => ({ base64: Buffer.from(b).toString('base64') })), weight: 1 },
  );
}

/** Requests for one operation: mostly well-formed with one thing wrong, some entirely wrong. */
export function requestsFor(op: FuzzOperation, resolve: Resolve): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const path = fc.tuple(...pathParams.map((p) => urlText(p.schema, resolve, 3)));
  const query = fc
    .tuple(
      fc.tuple(...queryParams.map((p) => fc.option(urlText(p.schema, resolve, 0), { nil: undefined, freq: 2 }))),
      fc.option(
        fc.tuple(fc.constantFrom('extra', '__proto__', '', ...queryParams.map((p) => p.name)), urlText({ type: 'string' }, resolve, 0)),
        { nil: undefined, freq: 4 },
      ),
    )
    .map(([values, extra]) => {
      const pairs: [string, UrlText][] = [];
      values.forEach((v, i) => v !== undefined && pairs.push([queryParams[i]!.name, v]));
      if (extra) pairs.push(extra);
      return pairs;
    });
  return fc.record({
    method: fc.constant(op.method),
    path,
    query,
    caller: op.auth ? CALLERS : fc.constantFrom<Caller>('anonymous', 'owner'),
    accept: accepts(op.mediaType),
    ...(op.body ? { contentType: CONTENT_TYPES, contentEncoding: ENCODINGS, body: bodies(op.body, resolve) } : {}),
  }) as fc.Arbitrary<FuzzRequest>;
}

/** What goes on the wire, once credentials and known ids are known. */
export interface WireRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface Credentials {
  owner: string;
  other: string;
  wrongKey: string;
  unknownId: string;
}

function knownText(text: string, upper: boolean): string {
  return upper ? text.toUpperCase() : text;
}

export function toWire(op: FuzzOperation, req: FuzzRequest, credentials: Credentials, known: readonly string[]): WireRequest {
  const encode = (t: UrlText): string =>
    'raw' in t ? t.raw : 'known' in t ? percentEncode(knownText(known[t.known % known.length]!, t.upper)) : percentEncode(t.value);
  let i = 0;
  const path = op.path.replace(/\{[^}]+\}/g, () => encode(req.path[i++]!));
  const query = req.query.map(([k, v]) => `${percentEncode(k)}=${encode(v)}`).join('&');
  const headers: Record<string, string> = {};
  const authorization: Record<Caller, string | undefined> = {
    owner: credentials.owner,
    other: credentials.other,
    anonymous: undefined,
    'wrong-key': credentials.wrongKey,
    'unknown-id': credentials.unknownId,
    malformed: 'Basic !!not base64!!',
  };
  if (authorization[req.caller]) headers.authorization = authorization[req.caller]!;
  if (req.accept !== undefined) headers.accept = req.accept;
  let body: Buffer | undefined;
  if (req.body) {
    body =
      'json' in req.body
        ? Buffer.from((JSON.stringify(req.body.json) ?? 'null').replace(KNOWN_TOKEN, (_, n: string) => known[Number(n) % known.length]!))
        : 'text' in req.body
          ? Buffer.from(req.body.text)
          : Buffer.from(req.body.base64, 'base64');
    if (req.contentType !== undefined) headers['content-type'] = req.contentType;
    switch (req.contentEncoding) {
      case 'gzip':
        body = gzipSync(body);
        headers['content-encoding'] = 'gzip';
        break;
      case 'gzip-not-gzip':
        headers['content-encoding'] = 'gzip';
        break;
      case 'deflate-not-deflate':
        headers['content-encoding'] = 'deflate';
        break;
      case 'br-not-br':
        headers['content-encoding'] = 'br';
        break;
      case 'unknown':
        headers['content-encoding'] = 'x-unknown';
        break;
      default:
    }
  }
  return { method: req.method, path: query ? `${path}?${query}` : path, headers, ...(body ? { body } : {}) };
}
