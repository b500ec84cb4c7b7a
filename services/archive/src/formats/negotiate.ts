import { parseAccept } from '@fieldcast/kit';

/**
 * The archive's formats (docs/interface.md §11): JSON by default, XML, KML. A path's suffix
 * (`.json`, `.xml`, `.kml`) decides; without one the Accept header does, by quality and then by
 * order; an Accept that allows none of them is 406 (answered in JSON).
 */
export type ArchiveFormat = 'json' | 'xml' | 'kml';

/** The registered KML type (IANA), which Google Earth and QGIS recognise. */
export const KML_MEDIA_TYPE = 'application/vnd.google-earth.kml+xml';

export function kmlVendorType(vendor: string): string {
  return `application/vnd.${vendor}-earth.kml+xml`;
}

export interface Negotiated {
  format: ArchiveFormat;
  /** the Content-Type of the answer */
  contentType: string;
}

const SUFFIX = /\.(json|xml|kml)$/;

/** The last path segment without its format suffix, and the format the suffix names. */
export function splitSuffix(segment: string): { segment: string; format: ArchiveFormat | undefined } {
  const m = SUFFIX.exec(segment);
  return m ? { segment: segment.slice(0, -m[0].length), format: m[1] as ArchiveFormat } : { segment, format: undefined };
}

export function contentTypeOf(format: ArchiveFormat, kmlType = KML_MEDIA_TYPE): string {
  if (format === 'json') return 'application/json; charset=utf-8';
  if (format === 'xml') return 'application/xml; charset=utf-8';
  return `${kmlType}; charset=utf-8`;
}

/** What an Accept header asks for, or null when it allows none of the formats. */
export function negotiateFormat(accept: string | undefined, vendor: string): Negotiated | null {
  if (!accept || accept.trim() === '') return { format: 'json', contentType: contentTypeOf('json') };
  const vendorJson = `application/vnd.${vendor}+json`;
  const vendorKml = kmlVendorType(vendor);
  let best: (Negotiated & { q: number }) | null = null;
  for (const range of parseAccept(accept)) {
    if (!(range.q > 0)) continue;
    let found: Negotiated | null = null;
    switch (range.type) {
      case '*/*':
      case 'application/*':
      case 'application/json':
        found = { format: 'json', contentType: contentTypeOf('json') };
        break;
      case vendorJson:
        // the archive's major version is 2 (its path); a vendor JSON type may name it or no version
        if (range.params.version === undefined || range.params.version === '2')
          found = { format: 'json', contentType: contentTypeOf('json') };
        break;
      case 'application/xml':
      case 'text/xml':
      case 'text/*':
        found = { format: 'xml', contentType: contentTypeOf('xml') };
        break;
      case KML_MEDIA_TYPE:
        found = { format: 'kml', contentType: contentTypeOf('kml') };
        break;
      case vendorKml:
        found = { format: 'kml', contentType: contentTypeOf('kml', vendorKml) };
        break;
    }
    if (found && (!best || range.q > best.q)) best = { ...found, q: range.q };
  }
  return best ? { format: best.format, contentType: best.contentType } : null;
}
