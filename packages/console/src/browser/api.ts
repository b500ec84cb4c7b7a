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

/**
 * Calls the areas with HTTP Basic (docs/interface.md §1, Credentials). The key lives in this
 * object and in sessionStorage (gone with the tab), never in a URL or a cookie (decision 0191).
 */
export class Api {
  private credentials: Credentials | null = null;

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

  signOut(): void {
    this.credentials = null;
    sessionStorage.removeItem(SESSION_KEY);
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
  async json<T>(
    area: string,
    path: string,
    init: { method?: string; body?: unknown; anonymous?: boolean; signal?: AbortSignal } = {},
  ): Promise<T> {
    return withProgress(async () => {
      const response = await this.send(area, path, init);
      const text = await response.text();
      const body: unknown = text ? safeParse(text) : null;
      if (!response.ok) throw problem(area, response, body);
      return body as T;
    });
  }

  /** A binary answer (a tile): its bytes, or an ApiError. */
  async blob(area: string, path: string, signal?: AbortSignal): Promise<Blob> {
    const response = await this.send(area, path, { signal });
    if (!response.ok) throw problem(area, response, safeParse(await response.text()));
    return response.blob();
  }

  private async send(
    area: string,
    path: string,
    init: { method?: string; body?: unknown; signal?: AbortSignal; anonymous?: boolean },
  ): Promise<Response> {
    const hasBody = init.body !== undefined;
    try {
      return await fetch(this.url(area, path), {
        method: init.method ?? 'GET',
        headers: init.anonymous ? {} : this.headers(hasBody ? { 'Content-Type': 'application/json' } : {}),
        body: hasBody ? JSON.stringify(init.body) : undefined,
        signal: init.signal,
      });
    } catch (err) {
      if (err instanceof ApiError || (err instanceof DOMException && err.name === 'AbortError')) throw err;
      throw new ApiError(`The ${area} area did not answer (${this.config.areas[area] ?? 'no address'})`, 0, 'unreachable', []);
    }
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The area's error answer as an ApiError (problemOf). */
function problem(area: string, response: Response, body: unknown): ApiError {
  const { message, code, faults } = problemOf(area, response.status, body, response.headers.get('Retry-After'));
  return new ApiError(message, response.status, code, faults);
}
