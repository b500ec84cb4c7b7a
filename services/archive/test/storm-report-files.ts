import { headerOf, type ReportFileType } from '../src/domain/storm-report-csv.js';

/** One row of an SPC storm report file, as the SPC writes it (comments unquoted). */
export interface Row {
  time: string;
  magnitude: string;
  location: string;
  county: string;
  state: string;
  lat: string;
  lon: string;
  comments: string;
}

/** A report file of `type` built from rows, so no data file is kept beside the tests. */
export function reportFile(type: ReportFileType, rows: readonly Partial<Row>[], eol = '\n'): string {
  const line = (r: Partial<Row>) =>
    [
      r.time ?? '1830',
      r.magnitude ?? (type === 'tornado' ? '1' : '100'),
      r.location ?? '3 NW Norman',
      r.county ?? 'Cleveland',
      r.state ?? 'OK',
    ]
      .concat([r.lat ?? '35.25', r.lon ?? '-97.48', r.comments ?? 'Reported by a storm spotter. (OUN)'])
      .join(',');
  return [headerOf(type), ...rows.map(line)].join(eol) + eol;
}
