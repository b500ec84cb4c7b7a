import type { Knex } from 'knex';
import { boxesWithin, haversineKm, type Point } from '@fieldcast/geo';
import { SEVERE_WEATHER_MAX_HOURS, type StormReportDay } from '@fieldcast/schemas';
import type { IngestedStormReport } from './domain/alert-weather.js';
import { AREA } from './store.js';

/** Rows per insert: a day's announcement holds at most MAX_REPORTS_PER_DAY reports. */
const INSERT_BATCH = 500;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The first convective day a severe-weather rule may still read at nowMs. A day's reports lie
 * from 12Z of it to 12Z of the next (docs/decisions/0174-ingested-storm-reports.md), and a rule
 * counts those of the last SEVERE_WEATHER_MAX_HOURS hours at most, inclusive: day D is read while
 * 12Z of D + 1 is after nowMs - SEVERE_WEATHER_MAX_HOURS, so while midnight of D is after
 * nowMs - SEVERE_WEATHER_MAX_HOURS - 36 hours. Every report of an earlier day, in any revision of
 * it, is older than every rule's window.
 */
function firstReadableDay(nowMs: number): string {
  const midnight = Math.floor((nowMs - (SEVERE_WEATHER_MAX_HOURS + 36) * HOUR_MS) / DAY_MS) * DAY_MS + DAY_MS;
  return new Date(midnight).toISOString().slice(0, 10);
}

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
 * kept, so one delivered again, or an older one delivered late, changes nothing. Only the days a
 * rule may still read are kept (docs/decisions/0501-storm-report-days-announced-once-and-pruned.md).
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
   * Forgets the days no rule can read at nowMs, their revisions with their reports
   * (docs/decisions/0501-storm-report-days-announced-once-and-pruned.md). A forgotten day
   * delivered again, at whichever revision, or one delivered while this runs, holds only reports
   * older than every rule's window: it counts nothing and goes at the next pass. A day still read
   * keeps its revision, so its older revisions delivered late still change nothing. Any number of
   * replicas may run it. How many days of a type it forgot.
   */
  async prune(nowMs: number): Promise<number> {
    const first = firstReadableDay(nowMs);
    const days = (await this.knex
      .withSchema(AREA)
      .table('storm_report_days')
      .where('day', '<', first)
      .delete()
      .returning('day')) as unknown[];
    await this.knex.withSchema(AREA).table('storm_reports').where('day', '<', first).delete();
    return days.length;
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
