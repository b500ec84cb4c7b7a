import type { WireResponse } from './wire.js';

/**
 * What is wrong with an answer, or null: a 5xx is a server fault whatever the input
 * (RFC 9110 section 15.6); a 4xx must be problem details (RFC 9457) with the members
 * docs/architecture.md §3 promises.
 */
export function faultOf(res: WireResponse): string | null {
  if (res.status >= 500) return `answered ${res.status}`;
  if (res.status < 400) return null;
  if (!String(res.headers['content-type'] ?? '').startsWith('application/problem+json'))
    return `a ${res.status} that is not application/problem+json`;
  let problem: Record<string, unknown>;
  try {
    problem = JSON.parse(res.text) as Record<string, unknown>;
  } catch {
    return `a ${res.status} whose body is not JSON`;
  }
  for (const member of ['type', 'title', 'id', 'message']) {
    if (typeof problem[member] !== 'string' || problem[member] === '') return `a ${res.status} problem without ${member}`;
  }
  if (problem.status !== res.status) return `a ${res.status} problem whose status member is ${String(problem.status)}`;
  return null;
}
