import { metresPerSecondToKnots } from '@fieldcast/science';
import { DAMAGING_GUST_MS } from '@fieldcast/weather';
import { isoTime } from './dates.js';
import type { ArchiveEvent } from './ingested-reports.js';
import type { ArchiveType } from './types.js';

/**
 * The records of each type (docs/decisions/0170-archive-requests.md; their schemas in
 * packages/schemas/src/archive.ts). Every record has `id`, `time`, `latitude`, `longitude` and,
 * for a point query, `distance` from the point in the query's units.
 */
export interface RecordBase {
  id: string;
  time: string;
  latitude: number;
  longitude: number;
  distance?: number;
}

export interface HailSizeRecord extends RecordBase {
  maxSizeMm: number;
  maxSizeIn: number;
}
export interface HailProbRecord extends RecordBase {
  /** probability of hail of at least 25.4 mm (1 in) at the place, 0..1 */
  probability: number;
  maxSizeMm: number;
}
export interface TornadoRecord extends RecordBase {
  endTime: string;
  rating: string;
  efScale: number;
  lengthKm: number;
  widthM: number;
  /** [longitude, latitude] from touchdown to lift-off */
  track: [number, number][];
}
export interface GustDurationRecord extends RecordBase {
  peakGustMs: number;
  peakGustKt: number;
  /** minutes the gusts stayed above thresholdMs */
  durationMinutes: number;
  thresholdMs: number;
}
export interface LightningRecord extends RecordBase {
  strokeType: 'cloud' | 'ground';
  peakCurrentKa: number;
}
export interface StormReportRecord extends RecordBase {
  reportType: 'hail' | 'wind' | 'tornado';
  /** null where an ingested report gave none */
  magnitude: number | null;
  unit: string;
  /** an ingested report: where it was reported (Location, County, State) */
  place?: string;
  remarks: string;
  /** the synthetic world's, or ingested from a report file (docs/decisions/0174-ingested-storm-reports.md) */
  source: 'synthetic' | 'ingested';
}

export type ArchiveRecord = HailSizeRecord | HailProbRecord | TornadoRecord | GustDurationRecord | LightningRecord | StormReportRecord;

/** A gust speed in m/s as the records and summaries give it in knots: whole knots. */
export function gustKnots(ms: number): number {
  return Math.round(metresPerSecondToKnots(ms));
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** One event as a record of a type (the event's kind is the type's, KIND_OF_TYPE). */
export function recordOf(type: ArchiveType, event: ArchiveEvent, distance: number | undefined): ArchiveRecord {
  const base: RecordBase = {
    id: event.id,
    time: isoTime(event.timeMs),
    latitude: event.lat,
    longitude: event.lon,
    ...(distance === undefined ? {} : { distance: round(distance, 2) }),
  };
  switch (event.kind) {
    case 'hail':
      return type === 'hailprob'
        ? { ...base, probability: event.probability, maxSizeMm: event.magnitude }
        : { ...base, maxSizeMm: event.magnitude, maxSizeIn: round(event.magnitude / 25.4, 2) };
    case 'tornado':
      return {
        ...base,
        endTime: isoTime(event.endTimeMs),
        rating: `EF${event.magnitude}`,
        efScale: event.magnitude,
        lengthKm: event.lengthKm,
        widthM: event.widthM,
        track: event.track.map(([lon, lat]) => [lon, lat]),
      };
    case 'gust':
      return {
        ...base,
        peakGustMs: event.magnitude,
        peakGustKt: gustKnots(event.magnitude),
        durationMinutes: event.durationMinutes,
        thresholdMs: DAMAGING_GUST_MS,
      };
    case 'lightning':
      return { ...base, strokeType: event.strokeType, peakCurrentKa: event.magnitude };
    case 'storm_report':
      return {
        ...base,
        reportType: event.reportType,
        magnitude: event.magnitude,
        unit: event.unit,
        ...('source' in event ? { place: event.place } : {}),
        remarks: event.remarks,
        source: 'source' in event ? event.source : 'synthetic',
      };
  }
}
