import type { WireResponse } from './wire.js';

/**
 * What is wrong with an answer, or null: a 5xx is a server fault whatever the input
 * (RFC 9110 section 15.6); a 4xx must be problem details (RFC 9457) with the members
 * docs/architecture.md §3 promises.
 */
export function faultOf(res: WireResponse, failureTypes: readonly string[] = ['application/problem+json']): string | null {
  if (res.status >= 500) return `answered ${res.status}`;
  if (res.status < 400) return null;
  if (!failureTypes.includes('application/problem+json') && !refusedAsHttp(res)) return ownFailureFault(res, failureTypes);
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

/**
 * A request Node's HTTP parser refused (not HTTP/1.1, headers over the limit, too slow) reached no
 * route, so no area's conventions: the server answers it as problem+json whatever the area
 * (packages/kit/src/client-error.ts).
 */
function refusedAsHttp(res: WireResponse): boolean {
  return (
    String(res.headers['content-type'] ?? '').startsWith('application/problem+json') &&
    /"id":"(bad_request|request_header_fields_too_large|request_timeout)"/.test(res.text)
  );
}

/**
 * A 4xx of an area that documents its own failure bodies instead of problem+json (the archive:
 * the Google JSON style's `{apiVersion, error: {code, message, errors}}`, or the same in XML or
 * KML, docs/interface.md §11): in one of the documented types, with the status as its code.
 */
function ownFailureFault(res: WireResponse, failureTypes: readonly string[]): string | null {
  const type = String(res.headers['content-type'] ?? '');
  const documented = failureTypes.find((t) => type.startsWith(t));
  if (!documented) return `a ${res.status} in ${type}, none of the documented ${failureTypes.join(', ')}`;
  if (documented.endsWith('json')) {
    let body: { apiVersion?: unknown; error?: { code?: unknown; message?: unknown; errors?: { reason?: unknown }[] } };
    try {
      body = JSON.parse(res.text) as typeof body;
    } catch {
      return `a ${res.status} whose body is not JSON`;
    }
    if (typeof body.apiVersion !== 'string') return `a ${res.status} without apiVersion`;
    if (body.error?.code !== res.status) return `a ${res.status} whose error code is ${String(body.error?.code)}`;
    if (typeof body.error.message !== 'string' || body.error.message === '') return `a ${res.status} without a message`;
    if (!Array.isArray(body.error.errors) || !body.error.errors.every((e) => typeof e.reason === 'string' && e.reason !== ''))
      return `a ${res.status} without a reason per error`;
    return null;
  }
  if (
    !res.text.startsWith('<?xml ') ||
    !(res.text.includes(`code="${res.status}"`) || res.text.includes(`<name>Error ${res.status}</name>`))
  )
    return `a ${res.status} whose ${documented} body does not state its code`;
  return null;
}
