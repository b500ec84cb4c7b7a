import type { Request, Response } from 'express';

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
 * The conditional GET of a representation whose ETag, Cache-Control and Vary are already set:
 * when the request's If-None-Match names `etag`, answers 304 with those fields and no body
 * (RFC 9110 section 15.4.5) and says true; else false, and the caller sends the representation.
 */
export function answeredNotModified(req: Request, res: Response, etag: string): boolean {
  if (!ifNoneMatchHits(req.headers['if-none-match'], etag)) return false;
  res.removeHeader('Content-Type');
  res.status(304).end();
  return true;
}
