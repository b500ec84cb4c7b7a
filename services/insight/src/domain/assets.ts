import { areaOf, centroidOf, type PolygonCoordinates, rightHandRings } from '@fieldcast/geo';
import { ValidationError } from '@fieldcast/kit';
import { type Asset, type AssetInput, MAX_ASSET_AREA_KM2 } from '@fieldcast/schemas';

/** An asset as the store holds it. */
export interface AssetRecord {
  id: string;
  accountId: string;
  tags: Record<string, string>;
  polygon: PolygonCoordinates;
  centroid: { latitude: number; longitude: number };
  areaM2: number;
}

const km2 = (m2: number) => m2 / 1e6;

/**
 * An area over `limit` as text: one decimal, or as many more as it takes (up to six) not to read
 * as the limit itself, which an area of 65,000.04 km² would at one decimal.
 */
function overLimit(x: number, limit: number): string {
  for (let digits = 1; ; digits++) {
    const text = x.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: 1 });
    if (digits === 6 || Number(text.replaceAll(',', '')) > limit) return text;
  }
}

/**
 * Derives the record of a submitted asset (spec 2.2, 4.4): centroid and spherical area as a field's
 * (@turf/centroid, @turf/area with holes subtracted, packages/geo). An area over 65,000 km² is
 * refused with the measured area and the limit (422 asset_too_large). The rings are stored in
 * RFC 7946's right-hand order (section 3.1.6) however they were sent
 * (docs/decisions/0369-field-rings-right-hand.md).
 */
export function assetRecord(id: string, accountId: string, input: AssetInput): AssetRecord {
  const feature = input.features[0]!;
  const polygon = rightHandRings(feature.geometry.coordinates);
  const areaM2 = areaOf([polygon]);
  if (km2(areaM2) > MAX_ASSET_AREA_KM2) {
    throw new ValidationError(
      'asset_too_large',
      `The asset's polygon covers ${overLimit(km2(areaM2), MAX_ASSET_AREA_KM2)} km² (spherical, as @turf/area measures it, holes subtracted); an asset covers at most ${MAX_ASSET_AREA_KM2.toLocaleString('en')} km²`,
      [
        {
          path: 'features.0.geometry',
          message: `area ${overLimit(km2(areaM2), MAX_ASSET_AREA_KM2)} km² is over the limit of ${MAX_ASSET_AREA_KM2.toLocaleString('en')} km²`,
        },
      ],
    );
  }
  return { id, accountId, tags: feature.properties, polygon, centroid: centroidOf([polygon]), areaM2 };
}

/**
 * The Polygon is served as a MultiPolygon holding it, rings in right-hand order (RFC 7946 section
 * 3.1.6), the tags as `description` (spec 2.2), by key: jsonb keeps keys in an order of its own
 * (shorter first), so in the order sent a create's answer would differ from every read of it, and
 * so would the ETag that If-Match compares (docs/decisions/0461-owned-resources-honour-if-match.md).
 */
export function assetView(record: AssetRecord): Asset {
  return {
    id: record.id,
    type: 'GeometryCollection',
    geometries: [{ type: 'MultiPolygon', coordinates: [rightHandRings(record.polygon)] }],
    centroid: record.centroid,
    description: Object.fromEntries(Object.entries(record.tags).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}
