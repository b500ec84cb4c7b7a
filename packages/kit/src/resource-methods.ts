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

/**
 * 405 with Allow for a method the path's resource does not take (RFC 9110 section 15.5.6), before
 * a less specific template of another method could take the path: `GET /growing-degree-days/batch`
 * names the POST-only batch, not a field whose id is "batch". The resource is the most specific
 * template matching the path, concrete segments before templated ones as OpenAPI 3.1 matches paths
 * (section 4.8.8); a path no template matches is left to the unknown-route answer.
 */
export function methodNotAllowed(operations: readonly { method: string; path: string }[]): RequestHandler {
  const byPath = new Map<string, Resource>();
  for (const op of operations) {
    const resource = byPath.get(op.path) ?? { pattern: patternOf(op.path), rank: rankOf(op.path), methods: new Set<string>() };
    resource.methods.add(op.method.toUpperCase());
    // Express answers HEAD with the GET route (RFC 9110 section 9.3.2).
    if (op.method === 'get') resource.methods.add('HEAD');
    byPath.set(op.path, resource);
  }
  const resources = [...byPath.values()];
  return (req, _res, next) => {
    let best: Resource[] = [];
    for (const resource of resources) {
      if (!resource.pattern.test(req.path)) continue;
      const order = best.length === 0 ? 1 : compareRanks(resource.rank, best[0]!.rank);
      if (order > 0) best = [resource];
      else if (order === 0) best.push(resource);
    }
    if (best.length === 0 || best.some((r) => r.methods.has(req.method))) return next();
    const allowed = [...new Set(best.flatMap((r) => [...r.methods]))].sort();
    next(new MethodNotAllowedError(allowed, `${req.method} is not allowed on ${req.path}; it takes ${allowed.join(', ')}`));
  };
}
