import type { ArchiveAnswer, QueryEcho } from '../domain/answer.js';
import type { ArchiveRecord, TornadoRecord } from '../domain/records.js';
import type { SummaryDay } from '../domain/summary.js';
import { ARCHIVE_API_VERSION, type ArchiveType } from '../domain/types.js';
import type { ArchiveFailure } from './failure.js';
import { element, xmlDocument, type XmlElement } from './xml-writer.js';

/**
 * KML 2.2 (OGC 07-147r2) for Google Earth and QGIS: a Document with one shared Style per type and
 * a Placemark per record (a Point, or a LineString along a tornado's track) or, for a summary, per
 * event day (at the point, or the region's outline). Children are in the order the KML 2.2 schema
 * requires: name, description, TimePrimitive, styleUrl, ExtendedData, Geometry.
 */
export const KML_NAMESPACE = 'http://www.opengis.net/kml/2.2';

/** Colours are aabbggrr (KML 2.2 section 16.9). */
const STYLES: Record<ArchiveType, { color: string; scale: number }> = {
  hailsize: { color: 'ffffff00', scale: 1.1 },
  hailprob: { color: 'ffff8000', scale: 1.0 },
  tornado: { color: 'ff0000ff', scale: 1.3 },
  gustdur: { color: 'ff00a5ff', scale: 1.0 },
  lightning: { color: 'ff00ffff', scale: 0.6 },
  stormreports: { color: 'ffff00ff', scale: 1.0 },
};
const ICON = 'https://maps.google.com/mapfiles/kml/shapes/placemark_circle.png';

function styleOf(type: ArchiveType): XmlElement {
  const { color, scale } = STYLES[type];
  return element('Style', { id: type }, [
    element('IconStyle', undefined, [
      element('color', undefined, [color]),
      element('scale', undefined, [String(scale)]),
      element('Icon', undefined, [element('href', undefined, [ICON])]),
    ]),
    element('LineStyle', undefined, [element('color', undefined, [color]), element('width', undefined, ['4'])]),
    element('PolyStyle', undefined, [element('color', undefined, [`40${color.slice(2)}`])]),
  ]);
}

function extendedData(values: Record<string, unknown>): XmlElement {
  return element(
    'ExtendedData',
    undefined,
    Object.entries(values)
      .filter(([k, v]) => v !== undefined && v !== null && k !== 'track')
      .map(([k, v]) => element('Data', { name: k }, [element('value', undefined, [String(v)])])),
  );
}

const coordinates = (points: readonly (readonly [number, number])[]) =>
  element('coordinates', undefined, [points.map(([lon, lat]) => `${lon},${lat}`).join(' ')]);

function recordTitle(type: ArchiveType, r: ArchiveRecord): string {
  const v = r as unknown as Record<string, number | string>;
  switch (type) {
    case 'hailsize':
      return `Hail ${v.maxSizeMm} mm (${v.maxSizeIn} in)`;
    case 'hailprob':
      return `Hail probability ${Math.round(Number(v.probability) * 100)}%`;
    case 'tornado':
      return `Tornado ${v.rating}, ${v.lengthKm} km`;
    case 'gustdur':
      return `Gusts ${v.peakGustMs} m/s (${v.peakGustKt} kt) for ${v.durationMinutes} min`;
    case 'lightning':
      return `Lightning ${v.strokeType} ${v.peakCurrentKa} kA`;
    case 'stormreports':
      return `Storm report: ${v.reportType}${v.source === 'ingested' ? ' (ingested)' : ''}`;
  }
}

function description(r: ArchiveRecord): string {
  if (!('remarks' in r)) return `${r.time} (synthetic)`;
  return r.place === undefined ? `${r.remarks} at ${r.time}` : `${r.remarks} (${r.place}) at ${r.time}`;
}

function recordPlacemark(type: ArchiveType, r: ArchiveRecord): XmlElement {
  const tornado = 'track' in r ? (r as TornadoRecord) : null;
  return element('Placemark', undefined, [
    element('name', undefined, [recordTitle(type, r)]),
    element('description', undefined, [description(r)]),
    tornado
      ? element('TimeSpan', undefined, [element('begin', undefined, [tornado.time]), element('end', undefined, [tornado.endTime])])
      : element('TimeStamp', undefined, [element('when', undefined, [r.time])]),
    element('styleUrl', undefined, [`#${type}`]),
    extendedData(r as unknown as Record<string, unknown>),
    tornado
      ? element('LineString', undefined, [element('tessellate', undefined, ['1']), coordinates(tornado.track)])
      : element('Point', undefined, [coordinates([[r.longitude, r.latitude]])]),
  ]);
}

function placeGeometry(q: QueryEcho): XmlElement {
  const parse = (iso: string): [number, number] => {
    const m = /^([+-]\d+\.\d+)([+-]\d+\.\d+)$/.exec(iso)!;
    return [Number(m[2]), Number(m[1])];
  };
  if (q.location) return element('Point', undefined, [coordinates([parse(q.location)])]);
  const [e, n] = parse(q.region!.northEast);
  const [w, s] = parse(q.region!.southWest);
  return element('Polygon', undefined, [
    element('outerBoundaryIs', undefined, [element('LinearRing', undefined, [coordinates(regionOutline(w, s, e, n))])]),
  ]);
}

/** The most longitude between two vertices of a region's north or south edge, in degrees. */
const OUTLINE_STEP_DEGREES = 1;

/**
 * A region's outline, counter-clockwise from its south-west corner, closed. Globe viewers draw a
 * polygon's edge between two vertices as the shortest path on the globe, a great-circle arc that
 * bows poleward of the parallel the region's north or south edge follows: over 20 degrees of
 * longitude at 45 N by 0.44 degrees of latitude in its middle. A vertex at least every degree
 * keeps the drawn edge within 0.0011 degrees of the parallel there.
 */
function regionOutline(w: number, s: number, e: number, n: number): [number, number][] {
  const steps = Math.max(1, Math.ceil((e - w) / OUTLINE_STEP_DEGREES));
  const along = Array.from({ length: steps + 1 }, (_, i) => (i === steps ? e : w + ((e - w) * i) / steps));
  return [...along.map((lon): [number, number] => [lon, s]), ...along.reverse().map((lon): [number, number] => [lon, n]), [w, s]];
}

function dayPlacemark(q: QueryEcho, day: SummaryDay, geometry: XmlElement): XmlElement {
  return element('Placemark', undefined, [
    element('name', undefined, [`${day.date}: ${day.count} ${q.type}`]),
    element('description', undefined, [`Event day ${day.begin} to ${day.end}, first ${day.firstTime}, last ${day.lastTime} (synthetic)`]),
    element('TimeSpan', undefined, [element('begin', undefined, [day.begin]), element('end', undefined, [day.end])]),
    element('styleUrl', undefined, [`#${q.type}`]),
    extendedData(day as unknown as Record<string, unknown>),
    geometry,
  ]);
}

function describe(q: QueryEcho): string {
  const where = q.location ? `${q.location} within ${q.radius} ${q.units}` : `${q.region!.northEast} to ${q.region!.southWest}`;
  return `${q.type} ${q.request} at ${where}, ${q.begin} to ${q.end}`;
}

export function answerKml(answer: ArchiveAnswer): string {
  const q = answer.query;
  const placemarks =
    answer.kind === 'summary'
      ? answer.days.map((d) => dayPlacemark(q, d, placeGeometry(q)))
      : answer.records.map((r) => recordPlacemark(q.type, r));
  return xmlDocument(
    element('kml', { xmlns: KML_NAMESPACE }, [
      element('Document', undefined, [
        element('name', undefined, [`Fieldcast archive: ${describe(q)}`]),
        element('description', undefined, [
          `${q.type === 'stormreports' ? 'Synthetic and ingested' : 'Synthetic'} severe weather, archive API ${ARCHIVE_API_VERSION}; ${answer.kind === 'summary' ? `${answer.days.length} event days` : `${answer.records.length} of ${answer.totalItems} records`}`,
        ]),
        styleOf(q.type),
        extendedData({ ...q, region: undefined, regionNorthEast: q.region?.northEast, regionSouthWest: q.region?.southWest }),
        ...placemarks,
      ]),
    ]),
  );
}

export function failureKml(failure: ArchiveFailure): string {
  return xmlDocument(
    element('kml', { xmlns: KML_NAMESPACE }, [
      element('Document', undefined, [
        element('name', undefined, [`Error ${failure.code}`]),
        element('description', undefined, [failure.message]),
        extendedData({ apiVersion: ARCHIVE_API_VERSION, code: failure.code, reason: failure.errors[0]?.reason, message: failure.message }),
      ]),
    ]),
  );
}
