/**
 * Fetching an upstream archive's inventories and the byte ranges of the messages a sync needs
 * (docs/decisions/0230-sync-sources-and-variables.md), through Node's fetch: HTTP Range requests (RFC 9110 §14) with adjacent
 * ranges merged into one request, a timeout per request (AbortSignal.timeout), and retries with
 * exponential backoff on what may pass (network errors, timeouts, 408, 429 and 5xx). Only URLs
 * below the configured base URL are requested.
 */
import type { ByteRange } from '@fieldcast/grib2';
import { FileShortError, MessageRangeError, SyncConfigError, UpstreamError } from './errors.js';

export interface HttpOptions {
  /** The source's base URL; any other URL is refused before a request is made. */
  baseUrl: string;
  /** Attempts after the first; default 4. */
  retries?: number;
  /** Delay before the first retry, doubled before each next one up to `maxBackoffMs`; default 1 s. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Time allowed for one request, headers and body; default 60 s. */
  timeoutMs?: number;
  /** Aborted when the sync stops: a request under way ends at once, with this signal's reason, and is not retried. */
  signal?: AbortSignal;
}

export interface HttpStats {
  requests: number;
  bytes: number;
}

const RETRIED_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** A failed attempt: whether another may succeed, and what to say if none does. */
class Attempt extends Error {
  constructor(
    readonly status: number | null,
    readonly retryable: boolean,
    message: string,
  ) {
    super(message);
  }
}

/** A wait that ends early, rejecting with the signal's reason, when `signal` aborts. */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => (signal?.removeEventListener('abort', stop), resolve()), ms);
    const stop = () => (clearTimeout(timer), reject(signal!.reason));
    signal?.addEventListener('abort', stop, { once: true });
  });

/** A message's bytes in a file, and what it holds (a quantity) to name it by in an error. */
export type NamedRange = ByteRange & { name?: string };

/** Ranges that follow each other without a gap, fetched in one request. */
export function mergeAdjacent<R extends ByteRange>(ranges: readonly R[]): R[][] {
  const sorted = [...new Map(ranges.map((r) => [`${r.offset}:${r.length}`, r])).values()].sort((a, b) => a.offset - b.offset);
  const groups: R[][] = [];
  for (const r of sorted) {
    const group = groups.at(-1);
    const last = group?.at(-1);
    if (group && last && last.length !== null && last.offset + last.length === r.offset) group.push(r);
    else groups.push([r]);
  }
  return groups;
}

const GRIB = [0x47, 0x52, 0x49, 0x42];
const END = [0x37, 0x37, 0x37, 0x37];

/**
 * The message's bytes if they are one whole GRIB2 message of the range's length (section 0 and
 * section 8, regulation 92.1.3). Fewer bytes than asked for, in a 206, are a file that ends there
 * (RFC 9110 §14.1.2), as are fewer than section 0 gives a message running to the end of the file:
 * FileShortError.
 */
function checkMessage(url: string, range: NamedRange, bytes: Uint8Array): Uint8Array {
  const named = (detail: string) => (range.name ? `${range.name}: ${detail}` : detail);
  const fail = (detail: string) => new MessageRangeError(url, range.offset, range.length, named(detail));
  const short = (detail: string) => new FileShortError(url, range.offset, range.length, named(detail));
  if (range.length !== null && bytes.length < range.length) throw short(`truncated: ${bytes.length} of ${range.length} bytes received`);
  if (range.length === null && bytes.length < 16 && bytes.every((b, k) => b === GRIB[k] || k >= GRIB.length))
    throw short(`the file ends ${bytes.length} bytes into the message`);
  if (bytes.length < 16 || GRIB.some((b, k) => bytes[k] !== b)) throw fail('does not begin with "GRIB"');
  if (bytes[7] !== 2) throw fail(`GRIB edition ${bytes[7]}, not 2`);
  const announced = Number(new DataView(bytes.buffer, bytes.byteOffset, 16).getBigUint64(8));
  if (range.length === null && announced > bytes.length)
    throw short(`section 0 gives the message ${announced} bytes, the file ends ${bytes.length} bytes into it`);
  if (announced !== bytes.length) throw fail(`section 0 gives the message ${announced} bytes, the inventory ${bytes.length}`);
  if (END.some((b, k) => bytes[bytes.length - 4 + k] !== b)) throw fail('does not end with "7777"');
  return bytes;
}

export class SourceHttp {
  readonly stats: HttpStats = { requests: 0, bytes: 0 };
  private readonly base: URL;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly timeoutMs: number;
  private readonly signal: AbortSignal | undefined;

  constructor(options: HttpOptions) {
    this.base = new URL(options.baseUrl.replace(/\/*$/, '/'));
    this.retries = options.retries ?? 4;
    this.backoffMs = options.backoffMs ?? 1000;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.signal = options.signal;
  }

  /** A whole text file, such as an inventory. */
  async text(url: string): Promise<string> {
    const bytes = await this.request(url, undefined, (response) => {
      if (response.status !== 200) return `HTTP ${response.status}`;
      return null;
    });
    return new TextDecoder().decode(bytes);
  }

  /**
   * The messages at `ranges` of the GRIB2 file at `url`, in the order asked, each checked to be a
   * whole GRIB2 message of its range's length; a length of null runs to the end of the file.
   */
  async messages(url: string, ranges: readonly NamedRange[]): Promise<Uint8Array[]> {
    const got = new Map<string, Uint8Array>();
    for (const group of mergeAdjacent(ranges)) {
      const first = group[0]!.offset;
      const last = group.at(-1)!;
      const end = last.length === null ? '' : String(last.offset + last.length - 1);
      const bytes = await this.request(url, `bytes=${first}-${end}`, (response) => {
        if (response.status === 416)
          throw new FileShortError(
            url,
            first,
            last.length === null ? null : last.offset + last.length - first,
            'beyond the end of the file (HTTP 416)',
          );
        if (response.status === 200) return 'the server ignored the Range header (HTTP 200)';
        if (response.status !== 206) return `HTTP ${response.status}`;
        const start = /^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1];
        if (start !== undefined && Number(start) !== first)
          return `Content-Range ${response.headers.get('content-range')} for bytes=${first}-${end}`;
        return null;
      });
      for (const r of group) {
        const from = r.offset - first;
        const slice = bytes.subarray(from, r.length === null ? bytes.length : from + r.length);
        got.set(`${r.offset}:${r.length}`, checkMessage(url, r, slice));
      }
    }
    return ranges.map((r) => got.get(`${r.offset}:${r.length}`)!);
  }

  private checkUrl(url: string): void {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new SyncConfigError(`not a URL: ${url}`);
    }
    if (target.origin !== this.base.origin || !target.pathname.startsWith(this.base.pathname))
      throw new SyncConfigError(`${url} is not below the configured base URL ${this.base.href}`);
  }

  /**
   * GET `url` (with `range`), retried while attempts fail in a way that may pass. `check` says
   * what is wrong with a response's status and headers (null when nothing), or throws to stop at once.
   */
  private async request(url: string, range: string | undefined, check: (response: Response) => string | null): Promise<Uint8Array> {
    this.checkUrl(url);
    let last: Attempt | undefined;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      this.signal?.throwIfAborted();
      if (attempt > 0) await sleep(Math.min(this.maxBackoffMs, this.backoffMs * 2 ** (attempt - 1)), this.signal);
      try {
        return await this.once(url, range, check);
      } catch (error) {
        if (!(error instanceof Attempt)) throw error;
        last = error;
        if (!error.retryable) throw new UpstreamError(url, error.status, attempt + 1, error.message);
      }
    }
    throw new UpstreamError(url, last!.status, this.retries + 1, last!.message);
  }

  private async once(url: string, range: string | undefined, check: (response: Response) => string | null): Promise<Uint8Array> {
    this.stats.requests++;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = this.signal ? AbortSignal.any([this.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await fetch(url, { headers: range ? { range } : {}, signal, redirect: 'error' });
    } catch (error) {
      this.signal?.throwIfAborted();
      throw new Attempt(null, true, describe(error, this.timeoutMs));
    }
    const problem = check(response);
    if (problem !== null) {
      await response.body?.cancel();
      throw new Attempt(response.status, RETRIED_STATUSES.has(response.status), problem);
    }
    try {
      const bytes = new Uint8Array(await response.arrayBuffer());
      this.stats.bytes += bytes.length;
      return bytes;
    } catch (error) {
      this.signal?.throwIfAborted();
      throw new Attempt(null, true, describe(error, this.timeoutMs));
    }
  }
}

/** What went wrong with an attempt. Read by shape: fetch's errors come from Node's realm, which a test runner's `Error` may not be. */
function describe(error: unknown, timeoutMs: number): string {
  const { name, message, cause } = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown;
    message?: unknown;
    cause?: { message?: unknown };
  };
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const because = typeof cause?.message === 'string' ? `: ${cause.message}` : '';
  return `${typeof message === 'string' ? message : String(error)}${because}`;
}
