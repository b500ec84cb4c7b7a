import { outranks, parseAccept, quality, type Standing } from '@fieldcast/kit';

/**
 * The archive's formats (docs/interface.md §11): JSON by default, GeoJSON, XML, KML. A path's
 * suffix (`.json`, `.xml`, `.kml`) decides the format; without one the Accept header does, by
 * quality, then by the more specific range, then by order
 * (docs/decisions/0445-csv-preferred-by-the-more-specific-range.md); an Accept that allows none of them is 406 (answered in JSON). An
 * answer has the media type the Accept header names among those of its format (RFC 9110 section
 * 12.5.1), e.g. text/xml where that is what was asked for, else the format's own.
 */
export type ArchiveFormat = 'json' | 'geojson' | 'xml' | 'kml';

/** The registered KML type (IANA), which Google Earth and QGIS recognise. */
export const KML_MEDIA_TYPE = 'application/vnd.google-earth.kml+xml';
/** GeoJSON (RFC 7946 section 12): the answers that are a set of places, asked for as such (spec 4.11, "JSON or GeoJSON"). */
export const GEOJSON_MEDIA_TYPE = 'application/geo+json';

export function kmlVendorType(vendor: string): string {
  return `application/vnd.${vendor}-earth.kml+xml`;
}

export interface Negotiated {
  format: ArchiveFormat;
  /** the Content-Type of the answer */
  contentType: string;
}

/** A path's format suffix, in any case as every word of an archive path (docs/decisions/0406-archive-path-words-in-any-case.md). */
const SUFFIX = /\.(json|xml|kml)$/i;
/**
 * A suffix naming no format: a word after the last dot. Never part of a location or a date, whose
 * dots are followed by digits (`+39.7392`, a fraction of a second `.5Z`).
 */
const OTHER_SUFFIX = /\.[a-z][a-z0-9]*$/i;

/** The media type each format answers in when the request names none of its own. */
const OWN_TYPE: Record<ArchiveFormat, string> = {
  json: 'application/json',
  geojson: GEOJSON_MEDIA_TYPE,
  xml: 'application/xml',
  kml: KML_MEDIA_TYPE,
};

/** The suffixes a path may end in, as messages name them. */
export const SUFFIXES = '.json, .xml or .kml';

/**
 * The last path segment without its format suffix, and the format the suffix names; `unknown`, a
 * suffix that names none (`.csv`), which the path is refused for.
 */
export function splitSuffix(segment: string): { segment: string; format: ArchiveFormat | undefined; unknown?: string } {
  const m = SUFFIX.exec(segment);
  if (m) return { segment: segment.slice(0, -m[0].length), format: m[1]!.toLowerCase() as ArchiveFormat };
  const other = OTHER_SUFFIX.exec(segment);
  return other ? { segment, format: undefined, unknown: other[0] } : { segment, format: undefined };
}

/** The Content-Type of an answer in a media type: text in UTF-8; GeoJSON has no parameters (RFC 7946 section 12). */
export function contentTypeOf(mediaType: string): string {
  return mediaType === GEOJSON_MEDIA_TYPE ? mediaType : `${mediaType}; charset=utf-8`;
}

/** JSON as the format of last resort: no Accept, or an answer that cannot be in the format asked for. */
export const JSON_ANSWER: Negotiated = { format: 'json', contentType: contentTypeOf(OWN_TYPE.json) };

/**
 * The media types the archive answers in, each with its format, in the order a tie goes: JSON
 * first (the default), then XML and KML, GeoJSON last (a summary asked for as GeoJSON is JSON).
 * The vendor JSON type is the archive's major version 2 (its path) or names none.
 */
function servedTypes(vendor: string): { format: ArchiveFormat; mediaType: string; name: string; version?: string; onlyByName?: boolean }[] {
  return [
    { format: 'json', mediaType: 'application/json', name: 'application/json' },
    // answered as application/json, so a wildcard reaches it through application/json alone
    { format: 'json', mediaType: 'application/json', name: `application/vnd.${vendor}+json`, version: '2', onlyByName: true },
    { format: 'xml', mediaType: 'application/xml', name: 'application/xml' },
    { format: 'kml', mediaType: KML_MEDIA_TYPE, name: KML_MEDIA_TYPE },
    { format: 'kml', mediaType: kmlVendorType(vendor), name: kmlVendorType(vendor) },
    // RFC 7303 section 4: text/xml is the same document; text/* allows only a text type
    { format: 'xml', mediaType: 'text/xml', name: 'text/xml' },
    { format: 'geojson', mediaType: GEOJSON_MEDIA_TYPE, name: GEOJSON_MEDIA_TYPE },
  ];
}

/**
 * What a request gets: with `fixed` (a path's suffix) that format, in the media type of it the
 * Accept header prefers; without, the format and media type the Accept header prefers, JSON when
 * it is absent or empty, or null when it allows none (406).
 */
export function negotiateFormat(accept: string | undefined, vendor: string, fixed?: ArchiveFormat): Negotiated | null {
  const given = accept !== undefined && accept.trim() !== '';
  if (!given) return fixed ? { format: fixed, contentType: contentTypeOf(OWN_TYPE[fixed]) } : JSON_ANSWER;
  const ranges = parseAccept(accept);
  let best: { format: ArchiveFormat; mediaType: string; standing: Standing } | null = null;
  for (const served of servedTypes(vendor)) {
    if (fixed && served.format !== fixed) continue;
    // each type's quality is that of the most specific range naming it (RFC 9110 section 12.5.1),
    // so "*/*, application/json;q=0" allows everything but JSON; at one quality the type a more
    // specific range names wins ("*/*, application/xml" is XML), then the one named first
    const standing = quality(ranges, served.name, served.version);
    if (!(standing.q > 0) || (served.onlyByName && ranges[standing.at]?.type !== served.name)) continue;
    if (!best || outranks(standing, best.standing)) best = { format: served.format, mediaType: served.mediaType, standing };
  }
  if (best) return { format: best.format, contentType: contentTypeOf(best.mediaType) };
  if (fixed) return { format: fixed, contentType: contentTypeOf(OWN_TYPE[fixed]) };
  return null;
}
