import type { RequestHandler } from 'express';
import { MethodNotAllowedError } from './errors.js';

/** A declared path and the methods declared on it. */
interface Resource {
  pattern: RegExp;
  /** per segment: 2 literal, 1 a parameter with literal text (`{y}.png`), 0 a bare parameter */
  rank: number[];
  methods: Set<string>;
}

const escape = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** The paths Express routes to a template: a parameter is one non-empty segment, case ignored, a trailing slash allowed. */
const patternOf = (template: string) =>
  new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map(escape)
      .join('[^/]+')}/?$`,
    'i',
  );

const rankOf = (template: string) =>
  template
    .split('/')
    .slice(1)
    .map((segment) => (!segment.includes('{') ? 2 : /^\{[^}]+\}$/.test(segment) ? 0 : 1));

/** Templates that match one path have as many segments: compared from the left, the more literal one is more specific. */
function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** The resource a path names and the methods it takes, sorted as Allow lists them. */
interface ResourceMethods {
  /** its path template (of the first, where templates as specific as one another match) */
  template: string;
  allowed: readonly string[];
}

/**
 * The methods of the resource a path names: the most specific template matching the path,
 * concrete segments before templated ones as OpenAPI 3.1 matches paths (section 4.8.8), with
 * HEAD where GET is and OPTIONS everywhere; undefined for a path no template matches.
 */
function resourceMethods(operations: readonly { method: string; path: string }[]): (path: string) => ResourceMethods | undefined {
  const byPath = new Map<string, Resource & { template: string }>();
  for (const op of operations) {
    const resource = byPath.get(op.path) ?? {
      template: op.path,
      pattern: patternOf(op.path),
      rank: rankOf(op.path),
      // Every resource answers OPTIONS with its methods (RFC 9110 section 9.3.7; service.ts).
      methods: new Set<string>(['OPTIONS']),
    };
    resource.methods.add(op.method.toUpperCase());
    // Express answers HEAD with the GET route (RFC 9110 section 9.3.2).
    if (op.method === 'get') resource.methods.add('HEAD');
    byPath.set(op.path, resource);
  }
  const resources = [...byPath.values()];
  return (path) => {
    let best: (Resource & { template: string })[] = [];
    for (const resource of resources) {
      if (!resource.pattern.test(path)) continue;
      const order = best.length === 0 ? 1 : compareRanks(resource.rank, best[0]!.rank);
      if (order > 0) best = [resource];
      else if (order === 0) best.push(resource);
    }
    if (best.length === 0) return undefined;
    return { template: best[0]!.template, allowed: [...new Set(best.flatMap((r) => [...r.methods]))].sort() };
  };
}

/**
 * 405 with Allow for a method the path's resource does not take (RFC 9110 section 15.5.6), before
 * a less specific template of another method could take the path: `GET /growing-degree-days/batch`
 * names the POST-only batch, not a field whose id is "batch". A path no template matches is left
 * to the unknown-route answer.
 */
export function methodNotAllowed(operations: readonly { method: string; path: string }[]): RequestHandler {
  const methodsOf = resourceMethods(operations);
  return (req, _res, next) => {
    const resource = methodsOf(req.path);
    if (!resource || resource.allowed.includes(req.method)) return next();
    const { allowed } = resource;
    next(new MethodNotAllowedError(allowed, `${req.method} is not allowed on ${req.path}; it takes ${allowed.join(', ')}`));
  };
}

/**
 * An OPTIONS that is no CORS preflight (those the cors middleware answers, service.ts), on a path
 * that names a resource: 204 with Allow, the methods a 405 names (RFC 9110 section 9.3.7). On any
 * other path it goes on to the unknown-route answer, 404 as for any method.
 */
export function resourceOptions(operations: readonly { method: string; path: string }[]): RequestHandler {
  const methodsOf = resourceMethods(operations);
  return (req, res, next) => {
    if (req.method !== 'OPTIONS') return next();
    const resource = methodsOf(req.path);
    if (!resource) return next();
    res.locals.route = resource.template;
    res.setHeader('Allow', resource.allowed.join(', '));
    res.status(204).end();
  };
}
