import type { Request } from 'express';

/** What of an operation its Location is derived from (api.ts Operation). */
type Declared = { method: string; path: string; response: { status: number }; location?: string | false };

/** A path template's parameters, `{id}` in `/v2/styles/{id}.json`. */
const PARAMETER = /\{[^}]+\}/g;

/**
 * Where an operation that answers 201 Created says its resource is read (RFC 9110 section 15.3.2:
 * the created resource is identified by a Location field, section 10.2.2): the path template of a
 * GET among `operations` taking the created id as its one parameter. It is the operation's own
 * `location` when stated, else the GET at its path plus `/{id}` (the collection and its member);
 * undefined for an operation that answers no 201, or whose created resource has no read of its
 * own (`location: false`). Checked when the routes are mounted, so a read that is not served, or
 * a create that names none, fails at start rather than sending a Location nobody can follow.
 */
export function createdReadPath(op: Declared, operations: readonly Declared[]): string | undefined {
  if (op.response.status !== 201 || op.location === false) return undefined;
  const name = `${op.method.toUpperCase()} ${op.path}`;
  const path = op.location ?? `${op.path}/{id}`;
  if (!operations.some((o) => o.method === 'get' && o.path === path))
    throw new Error(
      op.location === undefined
        ? `${name} answers 201 but no GET ${path} reads what it creates: name the read in location, or location: false when there is none`
        : `${name} names GET ${path} in its Location, which is no operation here`,
    );
  if ((path.match(PARAMETER) ?? []).length !== 1) throw new Error(`${name}: GET ${path} must take the created id as its one parameter`);
  return path;
}

/**
 * The Location of a created resource: the read's template with the created id in its parameter,
 * an absolute path under the routes' mount (`req.baseUrl`) as the lists' Link headers write
 * theirs; RFC 9110 section 10.2.2 allows a reference relative to the target URI
 * (docs/decisions/0385-created-resources-located.md).
 */
export function createdLocation(req: Request, readPath: string, id: string): string {
  return `${req.baseUrl}${readPath.replace(PARAMETER, encodeURIComponent(id))}`;
}
