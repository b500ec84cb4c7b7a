/// <reference lib="dom" />
import { type Fault, problemOf } from './problems.js';
import { withProgress } from './status.js';

/** What /config.json says: the areas' base URLs and, in embedded mode, the demo account. */
export interface Config {
  areas: Record<string, string>;
  demo: { applicationId: string; applicationKey: string } | null;
  /** the embedded fleet's demo archive user (docs/interface.md §11), else null */
  archive: { user: string; token: string } | null;
}

/** An area answered with an error: its problem message, code and faults. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly faults: Fault[],
  ) {
    super(message);
  }
}

export interface Credentials {
  applicationId: string;
  applicationKey: string;
}

const SESSION_KEY = 'fieldcast.credentials';

/** Why the key was refused while the console was open, for the sign-in form the page loads into. */
const REFUSAL_KEY = 'fieldcast.refusal';

/** What a request may say beyond its method and body. */
interface RequestOptions {
  method?: string;
  body?: unknown;
  anonymous?: boolean;
  signal?: AbortSignal;
  /** the ETag of the version read: the change is made only on that version (docs/interface.md §1, Concurrent changes) */
  ifMatch?: string;
  accept?: string;
}

/**
 * Calls the areas with HTTP Basic (docs/interface.md §1, Credentials). The key lives in this
 * object and in sessionStorage (gone with the tab), never in a URL or a cookie (decision 0191).
 */
export class Api {
  private credentials: Credentials | null = null;
  private refused: ((err: ApiError) => void) | null = null;

  constructor(readonly config: Config) {
    const saved = sessionStorage.getItem(SESSION_KEY);
    if (saved) this.credentials = JSON.parse(saved) as Credentials;
  }

  get signedIn(): Credentials | null {
    return this.credentials;
  }

  signIn(credentials: Credentials): void {
    this.credentials = credentials;
    sessionStorage.setItem(SESSION_KEY, JSON.stringify(credentials));
  }

  /** Forgets the key; `refusal`, the area's words for refusing it, waits for takeRefusal. */
  signOut(refusal?: string): void {
    this.credentials = null;
    sessionStorage.removeItem(SESSION_KEY);
    if (refusal !== undefined) sessionStorage.setItem(REFUSAL_KEY, refusal);
  }

  /** The refusal signOut kept, once: the next call answers null. */
  takeRefusal(): string | null {
    const refusal = sessionStorage.getItem(REFUSAL_KEY);
    sessionStorage.removeItem(REFUSAL_KEY);
    return refusal;
  }

  /**
   * Calls `listener` with the first 401 an area answers to the key (docs/interface.md §1,
   * Credentials: a key revoked with `fieldcast keys` while the console is open). Every request
   * after it would be refused alike, each panel with a message of its own.
   */
  onRefused(listener: (err: ApiError) => void): void {
    this.refused = listener;
  }

  url(area: string, path: string): string {
    const base = this.config.areas[area];
    if (!base) throw new ApiError(`The ${area} area is not configured for this console`, 0, 'not_configured', []);
    return `${base}${path}`;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const c = this.credentials;
    const auth: Record<string, string> = c ? { Authorization: `Basic ${btoa(`${c.applicationId}:${c.applicationKey}`)}` } : {};
    return { ...auth, ...extra };
  }

  /**
   * A request answered with JSON; an error answer becomes an ApiError with the problem's message.
   * An aborted request (`signal`) rejects with the browser's AbortError.
   */
  async json<T>(area: string, path: string, init: Omit<RequestOptions, 'accept'> = {}): Promise<T> {
    return (await this.versioned<T>(area, path, init)).body;
  }

  /** A JSON answer with its ETag (null when it has none), to be sent back in `ifMatch`. */
  async versioned<T>(area: string, path: string, init: Omit<RequestOptions, 'accept'> = {}): Promise<{ body: T; etag: string | null }> {
    return withProgress(async () => {
      const response = await this.send(area, path, init);
      const text = await response.text();
      const body: unknown = text ? safeParse(text) : null;
      if (!response.ok) throw this.problem(area, response, body, init);
      return { body: body as T, etag: response.headers.get('ETag') };
    });
  }

  /** A binary answer (a tile), or text in the type `accept` names (a CSV file): its bytes, or an ApiError. */
  async blob(area: string, path: string, signal?: AbortSignal, accept?: string): Promise<Blob> {
    const init = { signal, accept };
    const response = await this.send(area, path, init);
    if (!response.ok) throw this.problem(area, response, safeParse(await response.text()), init);
    return response.blob();
  }

  /** The area's error answer as an ApiError (problemOf); a refused key is told to onRefused's listener. */
  private problem(area: string, response: Response, body: unknown, init: RequestOptions): ApiError {
    const { message, code, faults } = problemOf(area, response.status, body, response.headers.get('Retry-After'));
    const err = new ApiError(message, response.status, code, faults);
    if (response.status === 401 && !init.anonymous) this.refused?.(err);
    return err;
  }

  private async send(area: string, path: string, init: RequestOptions): Promise<Response> {
    const hasBody = init.body !== undefined;
    const extra: Record<string, string> = {};
    if (hasBody) extra['Content-Type'] = 'application/json';
    if (init.ifMatch !== undefined) extra['If-Match'] = init.ifMatch;
    if (init.accept !== undefined) extra.Accept = init.accept;
    try {
      return await fetch(this.url(area, path), {
        method: init.method ?? 'GET',
        headers: init.anonymous ? {} : this.headers(extra),
        body: hasBody ? JSON.stringify(init.body) : undefined,
        signal: init.signal,
      });
    } catch (err) {
      if (err instanceof ApiError || (err instanceof DOMException && err.name === 'AbortError')) throw err;
      throw new ApiError(`The ${area} area did not answer (${this.config.areas[area] ?? 'no address'})`, 0, 'unreachable', []);
    }
  }
}

/**
 * Whether a change was refused because the resource changed since the version its `If-Match`
 * named was read: 412 `precondition_failed`, and nothing changed (docs/interface.md §1,
 * Concurrent changes).
 */
export function changedMeanwhile(err: unknown): boolean {
  return err instanceof ApiError && err.status === 412;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
