import type { Knex } from 'knex';
import { boxesWithin, haversineKm, type Point } from '@fieldcast/geo';
import type { StormReportDay } from '@fieldcast/schemas';
import type { IngestedStormReport } from './domain/alert-weather.js';
import { AREA } from './store.js';

/** Rows per insert: a day's announcement holds at most MAX_REPORTS_PER_DAY reports. */
const INSERT_BATCH = 500;

interface ReportRow {
  id: string;
  report_type: IngestedStormReport['reportType'];
  time: Date | string;
  latitude: number;
  longitude: number;
  magnitude: number | null;
}

/**
 * The area's copy of the storm reports ingested into the archive, kept from the archive's
 * announcements (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md): a day's
 * announcement replaces the reports of its type and day when its revision is higher than the one
 * kept, so one delivered again, or an older one delivered late, changes nothing.
 */
export class StormReportCopy {
  constructor(private readonly knex: Knex) {}

  /** Takes a day's announcement; true when it replaced what the copy held. */
  async apply(announced: StormReportDay): Promise<boolean> {
    const key = { report_type: announced.reportType, day: announced.day };
    return this.knex.transaction(async (trx) => {
      // The day's row, locked by the upsert until the commit: two deliveries of the day take turns,
      // and the second sees the first's revision.
      const newer: unknown[] = await trx
        .withSchema(AREA)
        .table('storm_report_days')
        .insert({ ...key, revision: announced.revision })
        .onConflict(['report_type', 'day'])
        .merge(['revision'])
        .where('storm_report_days.revision', '<', announced.revision)
        .returning('revision');
      if (newer.length === 0) return false;
      await trx.withSchema(AREA).table('storm_reports').where(key).delete();
      const rows = announced.reports.map((r) => ({
        id: r.id,
        ...key,
        time: new Date(r.time),
        latitude: r.latitude,
        longitude: r.longitude,
        magnitude: r.magnitude,
      }));
      for (let i = 0; i < rows.length; i += INSERT_BATCH)
        await trx
          .withSchema(AREA)
          .table('storm_reports')
          .insert(rows.slice(i, i + INSERT_BATCH));
      return true;
    });
  }

  /**
   * The reports within radiusKm of p (great-circle) whose time lies from fromMs to toMs: read by
   * the boxes that hold the circle (split at the antimeridian), then measured.
   */
  async near(p: Point, radiusKm: number, fromMs: number, toMs: number): Promise<IngestedStormReport[]> {
    const boxes = boxesWithin({ south: p.lat, north: p.lat, west: p.lon, east: p.lon }, radiusKm);
    const rows: ReportRow[] = await this.knex
      .withSchema(AREA)
      .table('storm_reports')
      .whereBetween('time', [new Date(fromMs), new Date(toMs)])
      .andWhere((q) => {
        for (const b of boxes)
          q.orWhere((inBox) => inBox.whereBetween('latitude', [b.south, b.north]).whereBetween('longitude', [b.west, b.east]));
      })
      .orderBy([{ column: 'time' }, { column: 'id' }])
      .select('id', 'report_type', 'time', 'latitude', 'longitude', 'magnitude');
    return rows
      .map((r) => ({
        id: r.id,
        reportType: r.report_type,
        timeMs: new Date(r.time).getTime(),
        lat: r.latitude,
        lon: r.longitude,
        magnitude: r.magnitude,
      }))
      .filter((r) => haversineKm(p, r) <= radiusKm);
  }
}
