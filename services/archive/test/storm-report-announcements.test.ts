import type { OutboxWriter } from '@fieldcast/db';
import { fieldcastId } from '@fieldcast/ids';
import { MAX_REPORTS_PER_DAY, STORM_REPORTS_TOPIC, StormReportDay } from '@fieldcast/schemas';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { archiveService } from '../src/definition.js';
import { ingestStormReports } from '../src/domain/ingested-reports.js';
import { StormReportFileError } from '../src/domain/storm-report-csv.js';
import { StormReportStore } from '../src/report-store.js';
import { reportFile } from './storm-report-files.js';

// Each ingestion is announced through the archive's outbox, in the transaction that replaces the
// reports (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md).
const NOW = new Date('2025-05-21T00:00:00Z');
const t = useTestFleet([archiveService], { now: () => NOW });
const DAY = '2025-05-19';

const store = (outbox: OutboxWriter = t.fleet.deps('archive').outbox!) => new StormReportStore(t.fleet.db.knex, outbox, () => NOW);

interface Announcement {
  type: string;
  source: string;
  subject: string;
  data: { account: string | null; resource: unknown };
}

/** The archive outbox's rows, in order: topic, key and the CloudEvent. */
async function outboxRows(): Promise<{ topic: string; key: string; event: Announcement }[]> {
  const rows: { topic: string; key: string; event: Announcement | string }[] = await t.fleet.db.knex
    .withSchema('archive')
    .table('outbox')
    .orderBy('seq')
    .select('topic', 'key', 'event');
  return rows.map((r) => ({ ...r, event: typeof r.event === 'string' ? (JSON.parse(r.event) as Announcement) : r.event }));
}

const hail = (rows: { time: string; lat: string; magnitude?: string }[]) =>
  reportFile(
    'hail',
    rows.map((r) => ({ ...r, lon: '-97.48' })),
  );

describe('announcing ingested storm reports', () => {
  it('writes one announcement of the day’s reports with them, and each file of the day after it replaces the day whole', async () => {
    const first = hail([
      { time: '1500', lat: '35.25', magnitude: '175' },
      { time: '0115', lat: '36.40', magnitude: 'UNK' },
    ]);
    await ingestStormReports(store(), { type: 'hail', day: DAY, text: first });
    const [row] = await outboxRows();
    const dayId = fieldcastId('storm-report-day', 'hail', DAY);
    expect(row).toMatchObject({ topic: STORM_REPORTS_TOPIC, key: dayId });
    expect(row!.event).toMatchObject({ type: 'fieldcast.storm-report-day.replaced', source: '/archive', subject: dayId });
    expect(row!.event.data.account).toBeNull();
    const announced = StormReportDay.parse(row!.event.data.resource);
    expect(announced).toMatchObject({ reportType: 'hail', day: DAY, revision: 1 });
    // 1500 CST is 21Z of the day; 0115 CST falls on the next (the convective day runs 12Z to 12Z)
    expect(announced.reports.map(({ time, latitude, longitude, magnitude }) => ({ time, latitude, longitude, magnitude }))).toEqual([
      { time: '2025-05-19T21:00:00.000Z', latitude: 35.25, longitude: -97.48, magnitude: 44.5 },
      { time: '2025-05-20T07:15:00.000Z', latitude: 36.4, longitude: -97.48, magnitude: null },
    ]);
    // the ids the archive serves the reports by
    const stored: { id: string }[] = await t.fleet.db.knex.withSchema('archive').table('storm_reports').select('id');
    expect(announced.reports.map((r) => r.id).sort()).toEqual(stored.map((r) => r.id).sort());

    // a revised file without the second report: the announcement holds the day as it now is
    await ingestStormReports(store(), { type: 'hail', day: DAY, text: hail([{ time: '1500', lat: '35.25', magnitude: '175' }]) });
    // the same file again is announced again, with the next revision
    await ingestStormReports(store(), { type: 'hail', day: DAY, text: first });
    const days = (await outboxRows()).map((r) => StormReportDay.parse(r.event.data.resource));
    expect(days.map((d) => [d.revision, d.reports.length])).toEqual([
      [1, 2],
      [2, 1],
      [3, 2],
    ]);
    expect(days[1]!.reports[0]!.id).toBe(announced.reports[0]!.id);
  });

  it('counts each type and day’s revisions on their own', async () => {
    await ingestStormReports(store(), { type: 'hail', day: DAY, text: hail([{ time: '1500', lat: '35.25' }]) });
    await ingestStormReports(store(), { type: 'wind', day: DAY, text: reportFile('wind', [{ time: '1500' }]) });
    await ingestStormReports(store(), { type: 'hail', day: '2025-05-20', text: hail([{ time: '1500', lat: '35.25' }]) });
    const announced = (await outboxRows()).map((r) => StormReportDay.parse(r.event.data.resource));
    expect(announced.map((d) => [d.reportType, d.day, d.revision])).toEqual([
      ['hail', DAY, 1],
      ['wind', DAY, 1],
      ['hail', '2025-05-20', 1],
    ]);
  });

  it('a refused file announces nothing and stores nothing', async () => {
    const bad = reportFile('wind', [{ time: '1600' }, { time: '1610', lat: '135' }]);
    await expect(ingestStormReports(store(), { type: 'wind', day: DAY, text: bad })).rejects.toThrow(StormReportFileError);
    const tooMany = hail(Array.from({ length: MAX_REPORTS_PER_DAY + 1 }, () => ({ time: '1500', lat: '35.25' })));
    await expect(ingestStormReports(store(), { type: 'hail', day: DAY, text: tooMany })).rejects.toThrow(
      `the file holds ${MAX_REPORTS_PER_DAY + 1} reports; at most ${MAX_REPORTS_PER_DAY}`,
    );
    expect(await outboxRows()).toEqual([]);
    expect(await store().countDay('hail', DAY)).toBe(0);
    expect(await store().countDay('wind', DAY)).toBe(0);
  });

  it('the largest file taken fits its announcement in one message of a broker’s default size (1 MB)', async () => {
    // a busy row: coordinates to the SPC's two decimals, a magnitude to a tenth
    const busy = hail(Array.from({ length: MAX_REPORTS_PER_DAY }, () => ({ time: '2359', lat: '-35.25', magnitude: '175' })));
    await ingestStormReports(store(), { type: 'hail', day: DAY, text: busy });
    const [row] = await outboxRows();
    expect(Buffer.byteLength(JSON.stringify(row!.event))).toBeLessThan(1_000_000);
  });

  it('reports are not stored when their announcement cannot be written, nor kept from before replaced', async () => {
    await ingestStormReports(store(), { type: 'hail', day: DAY, text: hail([{ time: '1500', lat: '35.25' }]) });
    const failing: OutboxWriter = {
      add: async () => {
        throw new Error('outbox unavailable');
      },
    };
    const revised = hail([
      { time: '1600', lat: '35.30' },
      { time: '1610', lat: '35.31' },
    ]);
    await expect(ingestStormReports(store(failing), { type: 'hail', day: DAY, text: revised })).rejects.toThrow('outbox unavailable');
    expect(await store().countDay('hail', DAY)).toBe(1);
    // nor counted as a revision: the next announcement follows the last one written
    await ingestStormReports(store(), { type: 'hail', day: DAY, text: revised });
    const announced = (await outboxRows()).map((r) => StormReportDay.parse(r.event.data.resource));
    expect(announced.map((d) => d.revision)).toEqual([1, 2]);
  });
});

// Days stored before the archive announced its ingestions have no revision and were never
// announced: the archive announces, once, those a severe-weather rule may still read
// (docs/decisions/0501-storm-report-days-announced-once-and-pruned.md).
describe('announcing the stored days never announced', () => {
  /** Reports stored as a release without announcements left them: no revision, nothing in the outbox. */
  async function storedUnannounced(type: 'hail' | 'wind', day: string, text: string): Promise<void> {
    await ingestStormReports(store(), { type, day, text });
    await t.fleet.db.knex.withSchema('archive').table('storm_report_days').where({ report_type: type, day }).delete();
    await t.fleet.db.knex.withSchema('archive').table('outbox').delete();
  }
  const announcedDays = async () =>
    (await outboxRows()).map((r) => {
      const d = StormReportDay.parse(r.event.data.resource);
      return [d.reportType, d.day, d.revision, d.reports.length];
    });
  const revisions = async () =>
    (
      (await t.fleet.db.knex
        .withSchema('archive')
        .table('storm_report_days')
        .orderBy(['report_type', 'day'])
        .select('report_type', 'day', 'revision')) as { report_type: string; day: string; revision: number }[]
    ).map((r) => [r.report_type, r.day, r.revision]);

  it('announces each day a rule may still read once, whole, at revision 1; older days and days announced already not', async () => {
    // NOW is 2025-05-21T00Z: a rule reads back to 2025-05-18T00Z at most (72 hours)
    await storedUnannounced(
      'hail',
      DAY,
      hail([
        { time: '1500', lat: '35.25', magnitude: '175' },
        { time: '0115', lat: '36.40', magnitude: 'UNK' },
      ]),
    );
    // 1500 CST of 2025-05-17 (21Z) is too old, 0300 CST of the next morning (09Z of 2025-05-18) is not: the day is announced whole
    await storedUnannounced(
      'hail',
      '2025-05-17',
      hail([
        { time: '1500', lat: '35.25' },
        { time: '0300', lat: '35.30' },
      ]),
    );
    // every report of 2025-05-16 is older than any rule reads
    await storedUnannounced('hail', '2025-05-16', hail([{ time: '0300', lat: '35.25' }]));
    // announced by its ingestion already
    await ingestStormReports(store(), { type: 'wind', day: DAY, text: reportFile('wind', [{ time: '1500' }]) });
    await t.fleet.db.knex.withSchema('archive').table('outbox').delete();

    expect(await store().announceUnannouncedDays(NOW.getTime())).toBe(2);
    expect(await announcedDays()).toEqual([
      ['hail', '2025-05-17', 1, 2],
      ['hail', DAY, 1, 2],
    ]);
    const [row] = await outboxRows();
    expect(row).toMatchObject({ topic: STORM_REPORTS_TOPIC, key: fieldcastId('storm-report-day', 'hail', '2025-05-17') });
    expect(row!.event).toMatchObject({ type: 'fieldcast.storm-report-day.replaced', source: '/archive', data: { account: null } });
    const announced = StormReportDay.parse((await outboxRows())[1]!.event.data.resource);
    expect(announced.reports.map(({ time, latitude, magnitude }) => ({ time, latitude, magnitude }))).toEqual([
      { time: '2025-05-19T21:00:00.000Z', latitude: 35.25, magnitude: 44.5 },
      { time: '2025-05-20T07:15:00.000Z', latitude: 36.4, magnitude: null },
    ]);
    expect(await revisions()).toEqual([
      ['hail', '2025-05-17', 1],
      ['hail', DAY, 1],
      ['wind', DAY, 1],
    ]);

    // again, or from another replica, or after a restart: nothing more
    expect(await store().announceUnannouncedDays(NOW.getTime())).toBe(0);
    expect(await announcedDays()).toHaveLength(2);
    // the day's next file follows the revision announced
    await ingestStormReports(store(), { type: 'hail', day: DAY, text: hail([{ time: '1500', lat: '35.25' }]) });
    expect((await announcedDays())[2]).toEqual(['hail', DAY, 2, 1]);
  });

  it('announces a day once when replicas look side by side', async () => {
    await storedUnannounced('hail', DAY, hail([{ time: '1500', lat: '35.25' }]));
    await storedUnannounced('wind', DAY, reportFile('wind', [{ time: '1500' }]));
    const counts = await Promise.all([1, 2, 3].map(() => store().announceUnannouncedDays(NOW.getTime())));
    expect(counts.reduce((a, b) => a + b)).toBe(2);
    expect(await announcedDays()).toEqual([
      ['hail', DAY, 1, 1],
      ['wind', DAY, 1, 1],
    ]);
  });

  it('is the archive service’s background task, at the service’s clock', async () => {
    await storedUnannounced('hail', DAY, hail([{ time: '1500', lat: '35.25' }]));
    await t.fleet.runBackground('archive', 'storm-report-days');
    await t.fleet.runBackground('archive', 'storm-report-days');
    expect(await announcedDays()).toEqual([['hail', DAY, 1, 1]]);
  });
});
