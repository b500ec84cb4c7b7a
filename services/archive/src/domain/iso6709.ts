/**
 * Locations in paths as ISO 6709 decimal degrees (docs/interface.md §11): latitude `±DD.ddd`
 * (two integer digits), then longitude `±DDD.ddd` (three), each with its sign and any number of
 * decimals, e.g. `+39.7392-104.9903`. A region is two such points, the north-east corner first,
 * then the south-west one, written one after the other or separated by a comma.
 */

export interface Point {
  lat: number;
  lon: number;
}

export type Place = { kind: 'point'; point: Point } | { kind: 'region'; northEast: Point; southWest: Point };

/** What the caller is told when a location does not parse. */
export const LOCATION_FORM =
  'a location is ISO 6709 decimal degrees ±DD.ddd±DDD.ddd (e.g. +39.7392-104.9903); a region is two of them, north-east corner then south-west corner (e.g. +40.0-104.0+39.0-105.0 or +40.0-104.0,+39.0-105.0)';

/** One ISO 6709 point at the start of `text`: sign, 2-digit latitude, sign, 3-digit longitude (ISO 6709:2008 Annex H). */
const POINT = /^([+-])(\d{2}(?:\.\d+)?)([+-])(\d{3}(?:\.\d+)?)/;

export class LocationError extends Error {}

function pointAt(text: string): { point: Point; rest: string } {
  const m = POINT.exec(text);
  if (!m) throw new LocationError(`Malformed location: ${LOCATION_FORM}`);
  const lat = Number(m[2]) * (m[1] === '-' ? -1 : 1);
  const lon = Number(m[4]) * (m[3] === '-' ? -1 : 1);
  if (Math.abs(lat) > 90) throw new LocationError(`Latitude ${m[1]}${m[2]} is outside -90..+90: ${LOCATION_FORM}`);
  if (Math.abs(lon) > 180) throw new LocationError(`Longitude ${m[3]}${m[4]} is outside -180..+180: ${LOCATION_FORM}`);
  // -0 and +0 are the same place; keep the sign out of the answers.
  return { point: { lat: lat + 0, lon: lon + 0 }, rest: text.slice(m[0].length) };
}

/** A point or a region, or a LocationError saying the accepted form. */
export function parsePlace(text: string): Place {
  const first = pointAt(text);
  if (first.rest === '') return { kind: 'point', point: first.point };
  const second = pointAt(first.rest.startsWith(',') ? first.rest.slice(1) : first.rest);
  if (second.rest !== '') throw new LocationError(`Malformed location: ${LOCATION_FORM}`);
  const [northEast, southWest] = [first.point, second.point];
  if (northEast.lat <= southWest.lat || northEast.lon <= southWest.lon) {
    throw new LocationError(
      `A region's first corner must be north-east of its second (larger latitude and longitude): ${LOCATION_FORM}; a region across the antimeridian is asked as two regions`,
    );
  }
  return { kind: 'region', northEast, southWest };
}

/** ISO 6709 text of a point, as the answers echo it (four decimals, about 11 m). */
export function formatPoint(p: Point): string {
  const part = (v: number, width: number) =>
    `${v < 0 ? '-' : '+'}${Math.abs(v)
      .toFixed(4)
      .padStart(width + 5, '0')}`;
  return `${part(p.lat, 2)}${part(p.lon, 3)}`;
}
