import type { ArchiveAnswer } from '../domain/answer.js';
import type { ArchiveRecord, TornadoRecord } from '../domain/records.js';
import { ARCHIVE_API_VERSION } from '../domain/types.js';
import type { ArchiveFailure } from './failure.js';

/**
 * JSON in the Google JSON style (docs/interface.md §11): `{"apiVersion", "data"}` or
 * `{"apiVersion", "error"}`. A set of places (history, latest) is a GeoJSON FeatureCollection
 * (RFC 7946) inside `data`, each record in its Feature's `properties`, with the echoed query and
 * the counts as foreign members (RFC 7946 section 6.1); asked for as GeoJSON, that
 * FeatureCollection is the whole answer (answerGeoJson).
 */
export function featureOf(record: ArchiveRecord) {
  if ('track' in record) {
    const { track, ...properties } = record as TornadoRecord;
    return { type: 'Feature' as const, id: record.id, geometry: { type: 'LineString' as const, coordinates: track }, properties };
  }
  return {
    type: 'Feature' as const,
    id: record.id,
    geometry: { type: 'Point' as const, coordinates: [record.longitude, record.latitude] },
    properties: record,
  };
}

type FeaturesAnswer = Extract<ArchiveAnswer, { kind: 'features' }>;

function featureCollectionOf(answer: FeaturesAnswer) {
  return {
    type: 'FeatureCollection' as const,
    query: answer.query,
    totalItems: answer.totalItems,
    itemsPerPage: answer.itemsPerPage,
    features: answer.records.map(featureOf),
  };
}

export function dataOf(answer: ArchiveAnswer) {
  if (answer.kind === 'summary') return { query: answer.query, totalItems: answer.days.length, items: answer.days };
  return featureCollectionOf(answer);
}

export function answerJson(answer: ArchiveAnswer): string {
  return JSON.stringify({ apiVersion: ARCHIVE_API_VERSION, data: dataOf(answer) });
}

/**
 * A set of places as a GeoJSON text (RFC 7946 section 2), for a caller that asks for
 * application/geo+json: the FeatureCollection that `data` holds in the JSON answer, itself, so a
 * GeoJSON reader takes the answer as it is.
 */
export function answerGeoJson(answer: FeaturesAnswer): string {
  return JSON.stringify(featureCollectionOf(answer));
}

export function failureJson(failure: ArchiveFailure): string {
  return JSON.stringify({ apiVersion: ARCHIVE_API_VERSION, error: failure });
}
