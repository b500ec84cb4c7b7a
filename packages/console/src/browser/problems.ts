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

/** The problem in an area's answer, or a sentence naming the status where the body holds none. */
export function problemOf(area: string, status: number, body: unknown): Problem {
  if (!body || typeof body !== 'object') return { message: `${area} answered HTTP ${status}`, code: 'error', faults: [] };
  // The archive answers in its own style: {"error": {"message": ...}} (docs/interface.md §11).
  const archive = (body as { error?: { message?: string } }).error;
  const p = (archive ? { message: archive.message } : body) as { message?: string; detail?: string; id?: string; errors?: Fault[] };
  const faults = Array.isArray(p.errors) ? p.errors : [];
  return { message: `${area}: ${problemText(p.message ?? p.detail ?? `HTTP ${status}`, faults)}`, code: p.id ?? 'error', faults };
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
