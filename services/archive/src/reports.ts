/**
 * Storm reports ingested from report files for the `fieldcast archive ingest-reports` command
 * (docs/decisions/0174-ingested-storm-reports.md): the store of the archive's schema, used by the
 * CLI after it has migrated that schema, and the domain's ingestion.
 */
export { StormReportStore } from './report-store.js';
export { ingestStormReports } from './domain/ingested-reports.js';
export { isReportFileType, REPORT_FILE_TYPES, StormReportFileError } from './domain/storm-report-csv.js';
