import { createHash } from 'node:crypto';
import compression from 'compression';
import type { Request, Response } from 'express';
import { PreconditionFailedError } from './errors.js';

/**
 * RFC 9110 section 13.1.2: If-None-Match matches when it is `*`, or when any entity tag it lists
 * equals the current one by weak comparison (a W/ prefix ignored on either side).
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/**
 * RFC 9110 section 13.1.1: If-Match fails when it is given, is not `*`, and lists no entity tag
 * equal to the current one by strong comparison (a weak tag never matches). Absent, it passes.
 */
export function ifMatchFails(header: string | undefined, etag: string): boolean {
  if (header === undefined || header.trim() === '*') return false;
  if (etag.startsWith('W/')) return true;
  return !header.split(',').some((tag) => tag.trim() === etag);
}

/**
 * A read's If-Match, evaluated first (RFC 9110 sections 13.1.1 and 13.2.2): one that names no
 * current tag by strong comparison throws PreconditionFailedError (412), and nothing is served
 * (docs/decisions/0504-reads-honour-if-match.md).
 */
export function refuseStaleIfMatch(req: Request, etag: string): void {
  if (ifMatchFails(req.headers['if-match'], etag))
    throw new PreconditionFailedError(`The resource is no longer the version named in If-Match; it is now ${etag}`);
}

/**
 * The conditional GET of a representation whose ETag, Cache-Control and Vary are already set:
 * a stale If-Match is 412 (refuseStaleIfMatch); when the request's If-None-Match names `etag`,
 * answers 304 with those fields and no body (RFC 9110 section 15.4.5) and says true; else false,
 * and the caller sends the representation.
 */
export function answeredNotModified(req: Request, res: Response, etag: string): boolean {
  refuseStaleIfMatch(req, etag);
  if (!ifNoneMatchHits(req.headers['if-none-match'], etag)) return false;
  // The 304 must say the Vary its 200 would have (RFC 9110 section 15.4.5). The compression
  // middleware (service.ts) adds Accept-Encoding to a 200 of a compressible type that allows
  // transformation, deciding by the Content-Type, which a 304 does not carry: add it here while
  // the type is still known.
  const noTransform = /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(String(res.getHeader('Cache-Control') ?? ''));
  if (compression.filter(req, res) && !noTransform) res.vary('Accept-Encoding');
  res.removeHeader('Content-Type');
  res.status(304).end();
  return true;
}

/**
 * A strong entity tag of a resource's JSON representation (RFC 9110 section 8.8.3): 128 bits of
 * the SHA-256 of its JSON text, so it changes whenever what a read shows changes, and is the same
 * in every replica and process.
 */
export function entityTagOf(view: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(view)).digest('base64url').slice(0, 22)}"`;
}

/**
 * The preconditions of a request that replaces or deletes a resource, as a check of the stored
 * resource: undefined when the request has none (the change is unconditional, as before), else a
 * function that throws PreconditionFailedError when the stored resource's tag (`tagOf`) is not
 * one If-Match names (RFC 9110 section 13.1.1), or is one If-None-Match names or that is `*`
 * (section 13.1.2: a method other than GET and HEAD is then 412), evaluated in that order
 * (section 13.2.2). The store runs it on the resource as it is locked for the change, in the
 * change's transaction, so two changes naming one tag cannot both pass
 * (docs/decisions/0461-owned-resources-honour-if-match.md,
 * docs/decisions/0517-changes-honour-if-none-match.md).
 */
export function ifMatchCheck<R>(req: Request, tagOf: (stored: R) => string): ((stored: R) => void) | undefined {
  const header = req.headers['if-match'];
  const noneMatch = req.headers['if-none-match'];
  if (header === undefined && noneMatch === undefined) return undefined;
  return (stored) => {
    const etag = tagOf(stored);
    if (ifMatchFails(header, etag))
      throw new PreconditionFailedError(`The resource has changed since the version named in If-Match; it is now ${etag}`);
    if (ifNoneMatchHits(noneMatch, etag))
      throw new PreconditionFailedError(`The resource is still a version If-None-Match names (${etag}), so it is left as it is`);
  };
}
