/**
 * An area's error answer as a person reads it (docs/interface.md §1, Errors). No DOM here, so it
 * is tested in Node.
 */

/** One fault of a problem body. */
export interface Fault {
  path: string;
  message: string;
}

/** What an error answer says: its message, its problem id and its faults. */
export interface Problem {
  message: string;
  code: string;
  faults: Fault[];
}

/**
 * The problem in an area's answer, or where the body holds none (a proxy or gateway in front of
 * an area answers with its own page or nothing) the status in words, with when to try again
 * where `retryAfter` (the Retry-After header) says.
 */
export function problemOf(area: string, status: number, body: unknown, retryAfter?: string | null): Problem {
  const withoutProblem = { message: `${area}: ${statusText(status, retryAfter)}`, code: 'error', faults: [] };
  if (!body || typeof body !== 'object') return withoutProblem;
  // The archive answers in its own style: {"error": {"message": ...}} (docs/interface.md §11).
  const archive = (body as { error?: { message?: string } }).error;
  const p = (archive ? { message: archive.message } : body) as { message?: string; detail?: string; id?: string; errors?: Fault[] };
  const text = p.message ?? p.detail;
  if (text === undefined) return { ...withoutProblem, code: p.id ?? 'error' };
  const faults = Array.isArray(p.errors) ? p.errors : [];
  return { message: `${area}: ${problemText(text, faults)}`, code: p.id ?? 'error', faults };
}

/** What the statuses an area or what is in front of it may answer mean to the person waiting (RFC 9110 section 15, RFC 6585). */
const STATUS_WORDS: Record<number, string> = {
  400: 'the request was refused',
  401: 'not signed in, or the key is not valid',
  403: 'not allowed for this account',
  404: 'not found',
  408: 'the request took too long to send',
  413: 'the request is too large',
  429: 'too many requests',
  500: 'the area failed',
  502: 'the area could not be reached through its gateway',
  503: 'the area is not available now',
  504: 'the area did not answer its gateway in time',
};

/** A status in words, e.g. "too many requests (HTTP 429); try again in 30 s". */
function statusText(status: number, retryAfter?: string | null): string {
  const words = STATUS_WORDS[status] ?? (status >= 500 ? 'failed' : 'refused');
  return `${words} (HTTP ${status})${retryText(retryAfter)}`;
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 section 10.2.3); nothing for anything else. */
function retryText(retryAfter?: string | null): string {
  const value = retryAfter?.trim() ?? '';
  if (/^\d+$/.test(value)) return `; try again in ${Number(value)} s`;
  return value !== '' && !Number.isNaN(Date.parse(value)) ? `; try again after ${value}` : '';
}

/**
 * The problem's message followed by its faults', each saying once what it is about. A fault's
 * message usually begins with its parameter ("cutoff vertical needs cap"); the path goes before
 * one that does not. A message that ends by listing the faulty parameters ("Invalid query
 * parameter: cutoff") leaves the list to the faults, which then all name theirs.
 */
export function problemText(message: string, faults: readonly Fault[]): string {
  if (faults.length === 0) return message;
  const texts = [...new Set(faults.map(faultText))];
  const names = [...new Set(faults.map((f) => f.path.split('.')[0]))].join(', ');
  const listed = `: ${names}`;
  const named = faults.every((f) => f.path !== '');
  const head = named && message.endsWith(listed) ? message.slice(0, -listed.length) : message;
  return `${head}: ${texts.join('; ')}`;
}

/** A fault's message, after its path where the message does not begin with it. */
function faultText(fault: Fault): string {
  const { path, message } = fault;
  const begins = message.startsWith(path) && !/[\w.]/.test(message.charAt(path.length));
  return path === '' || begins ? message : `${path}: ${message}`;
}
