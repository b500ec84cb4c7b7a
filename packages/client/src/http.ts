import type { Area, BaseUrls } from './areas.js';

/** What a client is constructed with (spec 5: an application id and an application key). */
export interface ClientOptions {
  applicationId: string;
  applicationKey: string;
  /** one base URL per area; `embeddedBaseUrls()` gives those of a local fleet */
  baseUrls: BaseUrls;
  /** the media type's vendor token (FIELDCAST_VENDOR on the server); default `fieldcast` */
  vendor?: string;
  /** the fetch to use; the global one by default */
  fetch?: typeof fetch;
}

/** A query parameter's value: instants are sent as UTC ISO 8601. */
export type QueryValue = string | number | Date | undefined;

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
  ) {
    super(`${request}: ${status} ${problem.id}: ${problem.message}`);
  }
}

/** What the typed helpers need of a response schema: a zod schema (packages/schemas) has it. */
export interface BodySchema<T> {
  parse(data: unknown): T;
}

/** The type a BodySchema parses to. */
export type Parsed<S> = S extends BodySchema<infer T> ? T : never;

function basic(id: string, key: string): string {
  // HTTP Basic (RFC 7617) over the UTF-8 bytes, without Node's Buffer, so browsers can use it.
  const bytes = new TextEncoder().encode(`${id}:${key}`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}

function problemOf(status: number, text: string): Problem {
  try {
    const body = JSON.parse(text) as Partial<Problem> | null;
    if (body && typeof body === 'object' && typeof body.id === 'string' && typeof body.message === 'string') return body as Problem;
  } catch {
    // not JSON: described below
  }
  return { id: `http_${status}`, message: text.slice(0, 500) || `HTTP ${status}` };
}

/**
 * The body of a response parsed with a schema, or a FieldcastApiError carrying the problem body
 * of a 4xx or 5xx answer.
 */
export async function readBody<T>(response: Response, schema: BodySchema<T>, request = response.url): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new FieldcastApiError(response.status, problemOf(response.status, text), request);
  return schema.parse(JSON.parse(text));
}

/** Sends GETs to one area with the client's credentials, asking for version 1. */
export class AreaHttp {
  private readonly base: string;
  private readonly headers: Record<string, string>;
  private readonly fetch: typeof fetch;

  constructor(
    readonly area: Area,
    options: ClientOptions,
  ) {
    const base = options.baseUrls[area];
    if (!base) throw new Error(`no base URL for the ${area} area: give baseUrls.${area}`);
    this.base = base.replace(/\/+$/, '');
    this.headers = {
      Authorization: basic(options.applicationId, options.applicationKey),
      Accept: `application/vnd.${options.vendor ?? 'fieldcast'}+json; version=1`,
    };
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** The URL of a path made of segments (each percent-encoded) and a query. */
  url(segments: readonly (string | number)[], query: Record<string, QueryValue> = {}): string {
    const path = segments.map((s) => encodeURIComponent(String(s))).join('/');
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      params.append(name, value instanceof Date ? value.toISOString() : String(value));
    }
    const search = params.toString();
    return `${this.base}/${path}${search ? `?${search}` : ''}`;
  }

  get(segments: readonly (string | number)[], query?: Record<string, QueryValue>): Promise<Response> {
    return this.fetch(this.url(segments, query), { method: 'GET', headers: this.headers });
  }
}
