import type { Knex } from 'knex';
import type { IngestedReportEvent, IngestedReportSource, IngestedReportStore } from './domain/ingested-reports.js';
import type { ParsedReport, ReportFileType } from './domain/storm-report-csv.js';
import { AREA } from './store.js';

interface ReportRow {
  id: string;
  report_type: ReportFileType;
  time: Date | string;
  latitude: number;
  longitude: number;
  magnitude: number | null;
  unit: ParsedReport['unit'];
  place: string;
  remarks: string;
}

/** Rows per insert: a file of a busy day holds a few thousand reports. */
const INSERT_BATCH = 500;

/** The archive's ingested storm reports (schema `archive`, docs/architecture.md §4); nothing else touches the table. */
export class StormReportStore implements IngestedReportStore, IngestedReportSource {
  constructor(
    private readonly knex: Knex,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async replaceDay(type: ReportFileType, day: string, reports: readonly ParsedReport[]): Promise<{ stored: number; replaced: number }> {
    const at = this.now();
    return this.knex.transaction(async (trx) => {
      // One file of a type and day at a time: without it two ingestions side by side (two CLI
      // processes on DATABASE_URL) each delete only what they see, then both insert, leaving both
      // files' rows, or failing on each other's ids. Under the lock the second one's delete, a
      // new statement (PostgreSQL's read committed), sees and removes the first one's rows.
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`${AREA}.storm_reports:${type}:${day}`]);
      const removed = (await trx
        .withSchema(AREA)
        .table('storm_reports')
        .where({ report_type: type, day })
        .delete()
        .returning('id')) as unknown[];
      const rows = reports.map((r) => ({
        id: r.id,
        report_type: r.reportType,
        day,
        time: new Date(r.timeMs),
        latitude: r.lat,
        longitude: r.lon,
        magnitude: r.magnitude,
        unit: r.unit,
        place: r.place,
        remarks: r.remarks,
        ingested_at: at,
      }));
      for (let i = 0; i < rows.length; i += INSERT_BATCH)
        await trx
          .withSchema(AREA)
          .table('storm_reports')
          .insert(rows.slice(i, i + INSERT_BATCH));
      return { stored: rows.length, replaced: removed.length };
    });
  }

  async read(
    box: { south: number; north: number; west: number; east: number },
    startMs: number,
    endMs: number,
  ): Promise<IngestedReportEvent[]> {
    const rows = (await this.knex
      .withSchema(AREA)
      .table('storm_reports')
      .whereBetween('time', [new Date(startMs), new Date(endMs)])
      .whereBetween('latitude', [box.south, box.north])
      .whereBetween('longitude', [box.west, box.east])
      .orderBy([{ column: 'time' }, { column: 'id' }])
      .select('id', 'report_type', 'time', 'latitude', 'longitude', 'magnitude', 'unit', 'place', 'remarks')) as ReportRow[];
    return rows.map((r) => ({
      kind: 'storm_report',
      source: 'ingested',
      id: r.id,
      reportType: r.report_type,
      timeMs: new Date(r.time).getTime(),
      lat: r.latitude,
      lon: r.longitude,
      magnitude: r.magnitude,
      unit: r.unit,
      place: r.place,
      remarks: r.remarks,
    }));
  }

  /** How many reports of a type and convective day are kept. */
  async countDay(type: ReportFileType, day: string): Promise<number> {
    const [row] = (await this.knex.withSchema(AREA).table('storm_reports').where({ report_type: type, day }).count({ n: '*' })) as {
      n: number | string;
    }[];
    return Number(row?.n ?? 0);
  }
}
