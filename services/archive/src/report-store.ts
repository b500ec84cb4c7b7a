import type { Knex } from 'knex';
import type { OutboxWriter } from '@fieldcast/db';
import { fieldcastId } from '@fieldcast/ids';
import { type AnnouncedStormReport, SEVERE_WEATHER_MAX_HOURS, STORM_REPORTS_TOPIC, type StormReportDay } from '@fieldcast/schemas';
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

/**
 * The announcement of a type's and convective day's reports as the day now is
 * (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md): its subject, and so its
 * key, is the day's id, so one day's announcements stay in order on one partition. No account
 * owns the reports: `data.account` is null.
 */
function stormReportDayEvent(resource: StormReportDay, at: Date): Parameters<OutboxWriter['add']>[2] {
  return {
    area: AREA,
    resource: 'storm-report-day',
    action: 'replaced',
    subject: fieldcastId('storm-report-day', resource.reportType, resource.day),
    time: at,
    data: { account: null, resource },
  };
}

const announcedReport = (r: ParsedReport): AnnouncedStormReport => ({
  id: r.id,
  time: new Date(r.timeMs).toISOString(),
  latitude: r.lat,
  longitude: r.lon,
  magnitude: r.magnitude,
});

/** The advisory lock of a type's and day's reports and revision: ingestions and announcements of the day take turns. */
const dayLock = (trx: Knex.Transaction, type: ReportFileType, day: string) =>
  trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`${AREA}.storm_reports:${type}:${day}`]);

const HOUR_MS = 3_600_000;

/** Rows per insert: a file of a busy day holds a few thousand reports. */
const INSERT_BATCH = 500;

/**
 * The archive's ingested storm reports (schema `archive`, docs/architecture.md §4); nothing else
 * touches the table. Each replacement is announced through the outbox in its own transaction
 * (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md).
 */
export class StormReportStore implements IngestedReportStore, IngestedReportSource {
  constructor(
    private readonly knex: Knex,
    private readonly outbox: OutboxWriter,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async replaceDay(type: ReportFileType, day: string, reports: readonly ParsedReport[]): Promise<{ stored: number; replaced: number }> {
    const at = this.now();
    return this.knex.transaction(async (trx) => {
      // One file of a type and day at a time: without it two ingestions side by side (two CLI
      // processes on DATABASE_URL) each delete only what they see, then both insert, leaving both
      // files' rows, or failing on each other's ids. Under the lock the second one's delete, a
      // new statement (PostgreSQL's read committed), sees and removes the first one's rows.
      await dayLock(trx, type, day);
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
      // The day's ingestions counted under the lock, so each announcement's revision is one more
      // than the one before it: a copy keeps the highest and so the last file.
      const [counted] = (await trx
        .withSchema(AREA)
        .table('storm_report_days')
        .insert({ report_type: type, day, revision: 1 })
        .onConflict(['report_type', 'day'])
        .merge({ revision: trx.raw('storm_report_days.revision + 1') })
        .returning('revision')) as { revision: number }[];
      await this.outbox.add(
        trx,
        STORM_REPORTS_TOPIC,
        stormReportDayEvent({ reportType: type, day, revision: counted!.revision, reports: reports.map(announcedReport) }, at),
      );
      return { stored: rows.length, replaced: removed.length };
    });
  }

  /**
   * Announces, once, each type and day whose reports are stored but were never announced and
   * that a severe-weather rule may still read at nowMs: one of its reports lies in the last
   * SEVERE_WEATHER_MAX_HOURS hours (docs/decisions/0501-storm-report-days-announced-once-and-pruned.md).
   * Every ingestion writes the day's revision with its announcement, so a day without a revision
   * was stored by a release that did not announce. Each day is announced as its ingestion would
   * announce it, in one transaction under the day's lock, at revision 1 written with it: any
   * number of replicas, passes and restarts announce it once, and the day's next file follows at
   * revision 2. How many days it announced.
   */
  async announceUnannouncedDays(nowMs: number): Promise<number> {
    const days = (await this.knex
      .withSchema(AREA)
      .table('storm_reports as r')
      .where('r.time', '>=', new Date(nowMs - SEVERE_WEATHER_MAX_HOURS * HOUR_MS))
      .whereNotExists((q) =>
        q
          .withSchema(AREA)
          .table('storm_report_days as d')
          .whereRaw('d.report_type = r.report_type')
          .andWhereRaw('d.day = r.day')
          .select(this.knex.raw('1')),
      )
      .distinct('r.report_type', 'r.day')
      .orderBy([{ column: 'r.day' }, { column: 'r.report_type' }])) as { report_type: ReportFileType; day: string }[];
    let announced = 0;
    for (const { report_type: type, day } of days) if (await this.announceUnannouncedDay(type, day, new Date(nowMs))) announced += 1;
    return announced;
  }

  /** Announces the day's stored reports at revision 1 unless the day has a revision: whether it did. */
  private async announceUnannouncedDay(type: ReportFileType, day: string, at: Date): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      await dayLock(trx, type, day);
      const first = (await trx
        .withSchema(AREA)
        .table('storm_report_days')
        .insert({ report_type: type, day, revision: 1 })
        .onConflict(['report_type', 'day'])
        .ignore()
        .returning('revision')) as unknown[];
      if (first.length === 0) return false;
      const rows = (await trx
        .withSchema(AREA)
        .table('storm_reports')
        .where({ report_type: type, day })
        .orderBy([{ column: 'time' }, { column: 'id' }])
        .select('id', 'time', 'latitude', 'longitude', 'magnitude')) as Pick<
        ReportRow,
        'id' | 'time' | 'latitude' | 'longitude' | 'magnitude'
      >[];
      const reports = rows.map((r) => ({
        id: r.id,
        time: new Date(r.time).toISOString(),
        latitude: r.latitude,
        longitude: r.longitude,
        magnitude: r.magnitude,
      }));
      await this.outbox.add(trx, STORM_REPORTS_TOPIC, stormReportDayEvent({ reportType: type, day, revision: 1, reports }, at));
      return true;
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
