import type { ArchiveAnswer, QueryEcho } from '../domain/answer.js';
import type { ArchiveRecord } from '../domain/records.js';
import { ARCHIVE_API_VERSION, type ArchiveType } from '../domain/types.js';
import type { ArchiveFailure } from './failure.js';
import { element, xmlDocument, type XmlElement } from './xml-writer.js';

/**
 * The same content as the JSON answers, as XML (docs/interface.md §11): a `response` root with
 * `apiVersion`, then `data` or `error`. Each record is one element named for its type (RECORD_ELEMENT)
 * with its members as attributes (a member that is null left out); a tornado's track is
 * `track/point` children and a storm report's remarks a `remarks` child. A summary is `summary/day` elements.
 */
export const RECORD_ELEMENT: Record<ArchiveType, string> = {
  hailsize: 'hail',
  hailprob: 'hail',
  tornado: 'tornado',
  gustdur: 'gust',
  lightning: 'stroke',
  stormreports: 'report',
};

function queryElement(q: QueryEcho): XmlElement {
  const { region, ...rest } = q;
  return element('query', { ...rest, regionNorthEast: region?.northEast, regionSouthWest: region?.southWest });
}

function recordElement(type: ArchiveType, record: ArchiveRecord): XmlElement {
  const attributes: Record<string, string | number> = {};
  const children: XmlElement[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (key === 'track') {
      const track = value as [number, number][];
      children.push(
        element(
          'track',
          undefined,
          track.map(([longitude, latitude]) => element('point', { longitude, latitude })),
        ),
      );
    } else if (key === 'remarks') children.push(element('remarks', undefined, [String(value)]));
    // an unknown magnitude (an ingested report's UNK) is left out, as in KML
    else if (value !== null) attributes[key] = value as string | number;
  }
  return element(RECORD_ELEMENT[type], attributes, children);
}

export function answerXml(answer: ArchiveAnswer): string {
  const body =
    answer.kind === 'summary'
      ? element(
          'summary',
          { totalItems: answer.days.length },
          answer.days.map((d) => element('day', { ...d })),
        )
      : element(
          'features',
          { totalItems: answer.totalItems, itemsPerPage: answer.itemsPerPage },
          answer.records.map((r) => recordElement(answer.query.type, r)),
        );
  return xmlDocument(
    element('response', { apiVersion: ARCHIVE_API_VERSION }, [element('data', undefined, [queryElement(answer.query), body])]),
  );
}

export function failureXml(failure: ArchiveFailure): string {
  return xmlDocument(
    element('response', { apiVersion: ARCHIVE_API_VERSION }, [
      element('error', { code: failure.code, message: failure.message }, [
        element(
          'errors',
          undefined,
          failure.errors.map((e) => element('item', { ...e })),
        ),
      ]),
    ]),
  );
}
