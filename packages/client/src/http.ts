import { httpDateMs } from '@fieldcast/calendar';
import type { Area, BaseUrls } from './areas.js';

/** What a client is constructed with (spec 5: an application id and an application key). */
export interface ClientOptions {
  applicationId: string;
  applicationKey: string;
  /** one base URL per area; `embeddedBaseUrls()` gives those of a local fleet */
  baseUrls: BaseUrls;
  /** the media type's vendor token (FIELDCAST_VENDOR on the server); default `fieldcast` */
  vendor?: string;
  /** the fetch to use; the global one by default (it must honour `init.signal`, as every fetch does) */
  fetch?: typeof fetch;
  /**
   * How long a call may take, its body included, before it fails with a FieldcastTimeoutError;
   * `Infinity` for no limit. Default 30,000 ms.
   */
  timeoutMs?: number;
}

/**
 * What every method takes last. `signal` cancels the call: it rejects with the signal's reason (an
 * `AbortError` DOMException unless the caller gave another), nothing sent if it was already aborted.
 * `timeoutMs` replaces the client's for this call.
 */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * Fetch has no deadline of its own (Node's waits up to 300 s for the head and as long again
 * between body chunks), so a stalled connection would hold a call for minutes; half a minute is
 * room for a loaded fleet (a model area answer takes milliseconds) and within what a caller waits.
 */
const DEFAULT_TIMEOUT_MS = 30_000;

/** The longest delay setTimeout keeps: it is a WebIDL `long` (HTML §8.6 Timers), and Node fires a longer one after 1 ms. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

function checkedTimeout(timeoutMs: number): number {
  if (timeoutMs === Infinity || (Number.isInteger(timeoutMs) && timeoutMs >= 1 && timeoutMs <= MAX_TIMEOUT_MS)) return timeoutMs;
  throw new RangeError(`timeoutMs must be a whole number of ms from 1 to ${MAX_TIMEOUT_MS}, or Infinity, got ${timeoutMs}`);
}

/**
 * A query parameter's value: instants are sent as UTC ISO 8601; undefined and null (plain
 * JavaScript's "not given") leave the parameter out.
 */
export type QueryValue = string | number | Date | null | undefined;

/**
 * A problem body (RFC 9457, docs/interface.md §1 "Errors"): `id` is the stable code to branch
 * on, `errors` names each invalid member.
 */
export interface Problem {
  id: string;
  message: string;
  status?: number;
  title?: string;
  type?: string;
  detail?: string;
  errors?: { path: string; message: string }[];
  [member: string]: unknown;
}

/** A 4xx or 5xx answer, with its problem body. */
export class FieldcastApiError extends Error {
  override name = 'FieldcastApiError';
  constructor(
    readonly status: number,
    readonly problem: Problem,
    /** the request's method and URL */
    readonly request: string,
    /** the answer's header fields */
    readonly headers: Headers = new Headers(),
  ) {
    super(`${request}: ${status} ${problem.id}: ${problem.message}`);
  }

  /**
   * Seconds to wait before asking again, from `Retry-After` (delay-seconds or an HTTP-date,
   * RFC 9110 §10.2.3), as a 429 or 503 gives it (docs/interface.md §1 "Limits"); undefined without one.
   */
  get retryAfter(): number | undefined {
    const value = this.headers.get('retry-after')?.trim();
    if (!value) return undefined;
    if (/^\d+$/.test(value)) return Number(value);
    const date = httpDateMs(value);
    return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
  }
}

/**
 * A call that did not complete within its timeout: distinct from the caller's own abort, which
 * rejects with the caller's signal's reason. Named `TimeoutError` as `AbortSignal.timeout()`'s
 * DOMException is (WHATWG DOM, AbortSignal), so code that tells the two apart by name works too.
 */
export class FieldcastTimeoutError extends Error {
  override name = 'TimeoutError';
  constructor(
    /** the request's method and URL */
    readonly request: string,
    readonly timeoutMs: number,
  ) {
    super(`${request}: no complete answer within ${timeoutMs} ms`);
  }
}

/** What the typed helpers need of a response schema: a zod schema (packages/schemas) has it. */
export interface BodySchema<T> {
  parse(data: unknown): T;
}

/** The type a BodySchema parses to. */
export type Parsed<S> = S extends BodySchema<infer T> ? T : never;

/**
 * An application id or key that HTTP Basic can carry (RFC 7617 §2): a non-empty string without
 * control characters, and an id without a colon, since the first colon ends the user-id. Anything
 * else (an unset variable, a key read from a file with its newline) would be a 401 on every call
 * that does not say why.
 */
function checkedCredential(name: 'applicationId' | 'applicationKey', value: unknown): string {
  const isId = name === 'applicationId';
  if (typeof value === 'string' && value !== '' && !/[\u0000-\u001f\u007f]/.test(value) && !(isId && value.includes(':'))) {
    return value;
  }
  // The key is a secret: it is not shown.
  const got = typeof value !== 'string' ? String(value) : isId || value === '' ? JSON.stringify(value) : 'a key with a control character';
  throw new TypeError(
    `${name} must be a non-empty string without control characters${isId ? ' or ":"' : ''} (HTTP Basic, RFC 7617 §2), got ${got}`,
  );
}

function basic(id: string, key: string): string {
  // HTTP Basic (RFC 7617) over the UTF-8 bytes, without Node's Buffer, so browsers can use it.
  const bytes = new TextEncoder().encode(`${id}:${key}`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}

function problemOf(status: number, text: string): Problem {
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: described below
  }
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const members = body as Partial<Problem>;
    if (typeof members.id === 'string' && typeof members.message === 'string') return members as Problem;
    // A problem body from something in front of the area (a gateway, a proxy) has only the
    // RFC 9457 members: its detail or title is the message.
    const message = [members.detail, members.title].find((m) => typeof m === 'string' && m !== '');
    if (message !== undefined) return { status, ...members, id: `http_${status}`, message } as Problem;
  }
  return { id: `http_${status}`, message: text.slice(0, 500) || `HTTP ${status}`, status };
}

/**
 * The request (method and URL, as the client built them) that each Response of `AreaHttp.get`
 * answers, for the errors read from it: a Response's own `url` is the one a redirect ended at, and
 * is empty in a Response a given fetch built itself (a mock, a cache).
 */
const requests = new WeakMap<Response, string>();

/** The method and URL a Response answers: as requested for the client's own, else the Response's `url`. */
function requestOf(response: Response): string {
  return requests.get(response) ?? response.url;
}

/**
 * The body of a response parsed with a schema, or a FieldcastApiError carrying the problem body
 * of a 4xx or 5xx answer.
 */
export async function readBody<T>(response: Response, schema: BodySchema<T>, request = requestOf(response)): Promise<T> {
  return schema.parse(JSON.parse(await readText(response, request)));
}

/** The body of a response as text, or a FieldcastApiError carrying the problem body of a 4xx or 5xx answer. */
export async function readText(response: Response, request = requestOf(response)): Promise<string> {
  const text = await response.text();
  if (!response.ok) throw new FieldcastApiError(response.status, problemOf(response.status, text), request, response.headers);
  return text;
}

/** Sends GETs to one area with the client's credentials, asking for version 1 (or for CSV). */
export class AreaHttp {
  private readonly base: string;
  private readonly authorization: string;
  private readonly json: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(
    readonly area: Area,
    options: ClientOptions,
  ) {
    const configured: unknown = options.baseUrls[area];
    if (!configured) throw new Error(`no base URL for the ${area} area: give baseUrls.${area}`);
    const base = baseUrlText(area, configured);
    // Each path is appended to the base URL, so a query or fragment in it would swallow the path.
    if (/[?#]/.test(base)) throw new TypeError(`baseUrls.${area} must not have a query or a fragment: each path is appended to it`);
    this.base = base.replace(/\/+$/, '');
    this.authorization = basic(
      checkedCredential('applicationId', options.applicationId),
      checkedCredential('applicationKey', options.applicationKey),
    );
    this.json = `application/vnd.${options.vendor ?? 'fieldcast'}+json; version=1`;
    // Called as a plain function, never as a method of this object: a browser's fetch throws
    // "Illegal invocation" when its `this` is not the global object (WebIDL operations of Window),
    // so `fetch: window.fetch` works; the global one is looked up at each call.
    const given = options.fetch;
    this.fetch = given ? (input, init) => given(input, init) : (input, init) => fetch(input, init);
    this.timeoutMs = checkedTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  }

  /** The URL of a path made of segments (each percent-encoded) and a query. */
  url(segments: readonly (string | number)[], query: Record<string, QueryValue> = {}): string {
    const path = segments.map(pathSegment).join('/');
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      params.append(name, queryText(name, value));
    }
    const search = params.toString();
    return `${this.base}/${path}${search ? `?${search}` : ''}`;
  }

  /**
   * GET a path, within the call's timeout and until its signal aborts. The Response is returned
   * with its body already received (held in it, read as usual), so the timeout bounds the whole
   * answer and its timer is cleared before the call returns, whether or not the caller reads it.
   */
  async get(
    segments: readonly (string | number)[],
    query: Record<string, QueryValue> = {},
    call: CallOptions = {},
    accept: 'json' | 'csv' = 'json',
  ): Promise<Response> {
    const url = this.url(segments, query);
    const request = `GET ${url}`;
    const timeoutMs = checkedTimeout(call.timeoutMs ?? this.timeoutMs);
    const caller = call.signal;
    caller?.throwIfAborted();
    // One signal for fetch, aborted with the reason that ends the call: the caller's or the timeout.
    const controller = new AbortController();
    const onAbort = () => controller.abort(caller?.reason);
    caller?.addEventListener('abort', onAbort, { once: true });
    const timer =
      timeoutMs === Infinity ? undefined : setTimeout(() => controller.abort(new FieldcastTimeoutError(request, timeoutMs)), timeoutMs);
    try {
      const response = await this.fetch(url, {
        method: 'GET',
        headers: { Authorization: this.authorization, Accept: accept === 'csv' ? 'text/csv' : this.json },
        signal: controller.signal,
      });
      // Reading a clone to its end keeps every chunk queued in the original (a tee, WHATWG
      // Streams), which the caller then reads without the network.
      await response.clone().arrayBuffer();
      requests.set(response, request);
      return response;
    } catch (err) {
      // The Fetch standard rejects with the signal's reason, but a fetch given in the options may
      // reject with an error of its own (node-fetch 2 does): the signal says which ended the call.
      throw controller.signal.aborted ? controller.signal.reason : err;
    } finally {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    }
  }
}

/**
 * A base URL as text: a string as given, or a URL object (WHATWG URL, which plain JavaScript
 * passes as readily) by its href. Recognised by its tag as well, so a URL of another realm (a
 * jsdom window, a vm context) is one too.
 */
function baseUrlText(area: Area, value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof URL || Object.prototype.toString.call(value) === '[object URL]') return String(value);
  throw new TypeError(
    `baseUrls.${area} must be a URL, as text or a URL object, got ${typeof value === 'object' ? 'an object' : String(value)}`,
  );
}

/**
 * A query parameter's value as text. An invalid Date (`new Date('')`, a failed parse) is refused
 * naming the parameter, before anything is sent: it has no ISO 8601 form.
 */
function queryText(name: string, value: string | number | Date): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError(`${name} must be a valid Date or an ISO 8601 string, got an invalid Date`);
    return value.toISOString();
  }
  return typeof value === 'number' ? plainDecimal(value) : value;
}

/**
 * One path segment, percent-encoded. An empty, `.` or `..` segment is refused: URL parsing
 * removes dot segments even percent-encoded (WHATWG URL, path state; RFC 3986 §5.2.4) and an
 * empty one names the collection (`/models/` is the list), so each would ask for another resource.
 */
function pathSegment(segment: string | number): string {
  const text = typeof segment === 'number' ? plainDecimal(segment) : String(segment);
  if (text === '' || text === '.' || text === '..') {
    throw new RangeError(`a path segment (an id, name or variable) must not be empty, "." or "..", got "${text}"`);
  }
  return encodeURIComponent(text);
}

/**
 * A number as a plain decimal, never in exponent notation (`1e-7` is `0.0000001`): coordinates in
 * paths and numbers in queries are plain decimals (docs/interface.md §1 "Values"), and JavaScript
 * writes numbers below 1e-6 or from 1e21 with an exponent. The digits are the shortest that
 * read back as the same number, as String gives them.
 */
function plainDecimal(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, lead, fraction = '', exp] = match;
  const digits = `${lead}${fraction}`;
  const exponent = Number(exp);
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  return `${sign}${digits}${'0'.repeat(exponent - fraction.length)}`;
}
