import type { RequestHandler } from 'express';
import { NotAcceptableError } from './errors.js';

export const API_VERSION = '1';

export function vendorMediaType(vendor: string): string {
  return `application/vnd.${vendor}+json; version=${API_VERSION}`;
}

interface MediaRange {
  type: string;
  params: Record<string, string>;
  q: number;
}

/** A weight as a decimal number, its digits however many (RFC 9110 section 12.4.2 allows three decimals). */
const DECIMAL_WEIGHT = /^(\d+(\.\d*)?|\.\d+)$/;

/**
 * A member's weight (RFC 9110 section 12.4.2): a decimal from 0 to 1 at its value, more decimals
 * than the grammar's three included; anything else (`abc`, empty, `2`, `0x1`) is no weight, read
 * as the grammar reads a member without one, 1, so a malformed weight never refuses what its
 * member names (docs/decisions/0525-a-malformed-weight-is-no-weight.md).
 */
function weight(text: string | undefined): number {
  if (text === undefined || !DECIMAL_WEIGHT.test(text)) return 1;
  const q = Number(text);
  return q <= 1 ? q : 1;
}

/**
 * The members of an Accept or Accept-Encoding field (RFC 9110 sections 12.5.1, 12.5.3), each with
 * its lower-cased type or coding, its parameters and its weight (`weight`).
 */
export function parseAccept(header: string): MediaRange[] {
  return header
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [type, ...rest] = part.split(';');
      const params: Record<string, string> = {};
      for (const p of rest) {
        const eq = p.indexOf('=');
        if (eq > 0)
          params[p.slice(0, eq).trim().toLowerCase()] = p
            .slice(eq + 1)
            .trim()
            .replace(/^"|"$/g, '');
      }
      return { type: (type ?? '').trim().toLowerCase(), params, q: weight(params.q) };
    });
}

/**
 * How a type stands under an Accept header: the quality of the most specific range that matches
 * it (RFC 9110 section 12.5.1), how specific that range is (2 the type itself, 1 `major/*`, 0
 * `* / *`, -1 none), where it stands in the header, and its parameters.
 */
export interface Standing {
  q: number;
  specificity: number;
  at: number;
  params: Readonly<Record<string, string>>;
}

/** Text the areas write (JSON, CSV, XML and KML): always in UTF-8 (RFC 8259 section 8.1; csv.ts; the archive's formats). */
function isText(type: string): boolean {
  return /^text\/|^application\/(json|xml)$|\+(json|xml)$/.test(type);
}

/** Whether a range's charset parameter, if it has one, names UTF-8, the one charset text is answered in. */
function takesUtf8(params: Readonly<Record<string, string>>): boolean {
  return params.charset === undefined || /^utf-?8$/i.test(params.charset);
}

/**
 * A media type's standing under an Accept header (Standing). A range that asks text in another
 * charset (`text/csv;charset=latin1`) names a representation never made, so it matches nothing.
 */
export function quality(ranges: readonly MediaRange[], type: string, version?: string): Standing {
  const [major] = type.split('/');
  const text = isText(type);
  let best: Standing = { q: 0, at: Infinity, specificity: -1, params: {} };
  ranges.forEach((r, at) => {
    if (text && !takesUtf8(r.params)) return;
    const specificity =
      r.type === type && (version === undefined || r.params.version === undefined || r.params.version === version)
        ? 2
        : r.type === `${major}/*`
          ? 1
          : r.type === '*/*'
            ? 0
            : -1;
    if (specificity > best.specificity || (specificity === best.specificity && specificity >= 0 && r.q > best.q))
      best = { q: r.q, at, specificity, params: r.params };
  });
  return best;
}

/**
 * Whether `a` is preferred to `b`: the higher quality, then at one quality the more specific
 * range (RFC 9110 section 12.5.1: `* / *, text/csv` names text/csv itself, so it is the one
 * wanted), then the one named first.
 */
export function outranks(a: Standing, b: Standing): boolean {
  if (a.q !== b.q) return a.q > b.q;
  if (a.specificity !== b.specificity) return a.specificity > b.specificity;
  return a.at < b.at;
}

/**
 * A 406 naming the media types the operation does serve, as RFC 9110 section 15.5.7 asks, and
 * that its text is UTF-8 where the Accept asked text in another charset.
 */
export function cannotProduce(accept: string | undefined, served: readonly string[]): NotAcceptableError {
  const listed = served.length > 1 ? `${served.slice(0, -1).join(', ')} and ${served.at(-1)}` : served.join('');
  const otherCharset = accept !== undefined && served.some(isText) && parseAccept(accept).some((r) => !takesUtf8(r.params));
  return new NotAcceptableError(`Cannot produce ${accept}; this operation serves ${listed}${otherCharset ? ', each in UTF-8' : ''}`);
}

/**
 * The standing the Accept gives the JSON this API serves, application/json or its vendor type of
 * this version (docs/decisions/0004-media-type-negotiation.md): the better of the two, each by its
 * most specific range, so `application/*;q=0, * / *` refuses both. `vendor`: no range refuses
 * the vendor's own type, the answer's type unless one does.
 */
export function jsonQuality(ranges: readonly MediaRange[], vendor: string): Standing & { vendor: boolean } {
  const plain = quality(ranges, 'application/json');
  const own = quality(ranges, `application/vnd.${vendor}+json`, API_VERSION);
  const best = outranks(own, plain) ? own : plain;
  return { ...best, vendor: own.q > 0 || own.at === Infinity };
}

/**
 * Accept negotiation for the JSON areas (docs/architecture.md §3, spec 9): the vendor type with
 * version 1 (or no version: docs/decisions/0004-media-type-negotiation.md), application/json,
 * application/* and * / * are all served as version 1, by the most specific range that names
 * each (RFC 9110 section 12.5.1); anything else, or ranges that refuse both with q=0, gets 406
 * naming what is served. The answer is the vendor type unless the Accept refuses it and takes
 * application/json.
 */
export function negotiate(vendor: string): RequestHandler {
  const served = vendorMediaType(vendor);
  return (req, res, next) => {
    const header = req.headers.accept;
    const json = header ? jsonQuality(parseAccept(header), vendor) : { q: 1, vendor: true };
    if (json.q <= 0) {
      next(cannotProduce(header, [served, 'application/json']));
      return;
    }
    res.setHeader('Content-Type', `${json.vendor ? served : 'application/json'}; charset=utf-8`);
    next();
  };
}
