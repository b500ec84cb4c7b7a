import { MAX_REPORTS_PER_DAY } from '@fieldcast/schemas';
import type { AnySevereEvent, StormReportEvent } from '@fieldcast/weather';
import { parseStormReportCsv, type ParsedReport, type ReportFileType, StormReportFileError } from './storm-report-csv.js';

/**
 * A storm report ingested from a report file (docs/decisions/0174-ingested-storm-reports.md),
 * served beside the synthetic world's: the same members, plus where it was reported, and its
 * magnitude may be unknown.
 */
export interface IngestedReportEvent extends Omit<StormReportEvent, 'magnitude'> {
  source: 'ingested';
  magnitude: number | null;
  place: string;
}

/** An event the archive serves: the synthetic world's, or an ingested report. */
export type ArchiveEvent = AnySevereEvent | IngestedReportEvent;

/** Where ingested reports are kept: a file's reports replace those of its type and day. */
export interface IngestedReportStore {
  replaceDay(type: ReportFileType, day: string, reports: readonly ParsedReport[]): Promise<{ stored: number; replaced: number }>;
}

/** Reads the ingested reports whose position lies in a box and whose time lies in [startMs, endMs], in time order. */
export interface IngestedReportSource {
  read(box: { south: number; north: number; west: number; east: number }, startMs: number, endMs: number): Promise<IngestedReportEvent[]>;
}

/**
 * Ingests one report file of `type` for the convective day `day`: every row checked first (a
 * fault anywhere stores nothing), then the day's reports of that type replaced by the file's,
 * so ingesting a file again, or a corrected one, leaves exactly its reports. A file of more than
 * MAX_REPORTS_PER_DAY reports is refused whole: its day's announcement, one message, would not
 * fit a broker's message (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md).
 */
export async function ingestStormReports(
  store: IngestedReportStore,
  input: { type: ReportFileType; day: string; text: string },
): Promise<{ stored: number; replaced: number }> {
  const reports = parseStormReportCsv(input.text, input.type, input.day);
  if (reports.length > MAX_REPORTS_PER_DAY)
    throw new StormReportFileError([
      { message: `the file holds ${reports.length} reports; at most ${MAX_REPORTS_PER_DAY} of a type and convective day are taken` },
    ]);
  return store.replaceDay(input.type, input.day, reports);
}
