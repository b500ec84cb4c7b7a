import { randomUUID } from 'node:crypto';
import { resourceEvent } from '@fieldcast/bus';
import type { Outbox } from '@fieldcast/db';
import type { Point } from '@fieldcast/geo';
import { fieldcastId } from '@fieldcast/ids';
import { createLogger } from '@fieldcast/kit';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { STORM_REPORTS_TOPIC, type StormReportDay } from '@fieldcast/schemas';
import { stormReportsConsumer } from '../src/consumers.js';
import { alertsService } from '../src/definition.js';
import { measure } from '../src/domain/measure.js';
import { Evaluator } from '../src/evaluator.js';
import { StormReportCopy } from '../src/storm-report-copy.js';
import { RuleStates, TargetCopies } from '../src/store.js';
import { rules } from './helpers.js';
import { ScriptedWeather } from './scripted-weather.js';

// The storm reports ingested into the archive, as the alerts area keeps them from the archive's
// announcements and counts them in severe-weather rules
// (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md).
const NOW = Date.parse('2026-06-15T10:20:00Z');
const HOUR_MS = 3_600_000;
const t = useTestFleet([alertsService], { now: () => new Date(NOW) });
const logger = createLogger({ level: 'silent' });
const copy = () => new StormReportCopy(t.fleet.db.knex);

const FIELD = { lat: 42, lon: -93.5 };
/** km due north of the field, as a latitude (a degree of latitude is 111.2 km on the sphere). */
const north = (km: number) => FIELD.lat + km / 111.2;
const DAY = '2026-06-14';

const report = (id: string, lat: number, hoursAgo: number, lon = FIELD.lon) => ({
  id: fieldcastId('test report', id),
  time: new Date(NOW - hoursAgo * HOUR_MS).toISOString(),
  latitude: lat,
  longitude: lon,
  magnitude: 44.5,
});

const day = (revision: number, reports: StormReportDay['reports'], reportType: StormReportDay['reportType'] = 'hail'): StormReportDay => ({
  reportType,
  day: DAY,
  revision,
  reports,
});

/** A day's announcement as the archive's relay publishes it. */
const message = (announced: StormReportDay, offset = 0) => {
  const event = resourceEvent({
    area: 'archive',
    resource: 'storm-report-day',
    action: 'replaced',
    subject: fieldcastId('storm-report-day', announced.reportType, announced.day),
    data: { account: null, resource: announced },
  });
  return { topic: STORM_REPORTS_TOPIC, key: event.subject, value: JSON.stringify(event), partition: 0, offset: String(offset) };
};

const keptIds = async () =>
  ((await t.fleet.db.knex.withSchema('alerts').table('storm_reports').orderBy('id').select('id')) as { id: string }[]).map((r) => r.id);

describe('the copy of the storm reports ingested into the archive', () => {
  const first = day(1, [report('a', north(5), 2), report('b', north(30), 2)]);
  const second = day(2, [report('a', north(5), 2)]);

  it('takes a later announcement of a day in place of the earlier, the reports it leaves out gone', async () => {
    const consumer = stormReportsConsumer(
      copy(),
      new Evaluator(new RuleStates(t.fleet.db.knex, t.fleet.deps('alerts').outbox as Outbox), new ScriptedWeather(), logger),
      () => new Date(NOW),
      logger,
    );
    await consumer.handle(message(first, 0));
    expect(await keptIds()).toEqual([first.reports[0]!.id, first.reports[1]!.id].sort());
    await consumer.handle(message(second, 1));
    expect(await keptIds()).toEqual([second.reports[0]!.id]);
    // another type of the same day is a day of its own
    await consumer.handle(message(day(1, [report('c', north(1), 1)], 'wind'), 2));
    expect(await keptIds()).toEqual([second.reports[0]!.id, fieldcastId('test report', 'c')].sort());
  });

  it('changes nothing for an announcement delivered again, or an older one delivered after a newer', async () => {
    expect(await copy().apply(first)).toBe(true);
    expect(await copy().apply(first)).toBe(false);
    expect(await copy().apply(second)).toBe(true);
    expect(await copy().apply(second)).toBe(false);
    expect(await copy().apply(first)).toBe(false);
    expect(await keptIds()).toEqual([second.reports[0]!.id]);
    const [kept] = await t.fleet.db.knex.withSchema('alerts').table('storm_report_days').select('revision');
    expect(kept.revision).toBe(2);
    // an empty file of the day, announced later, leaves the day without reports
    expect(await copy().apply(day(3, []))).toBe(true);
    expect(await keptIds()).toEqual([]);
  });

  it('passes over a message that is no day of storm reports', async () => {
    const consumer = stormReportsConsumer(
      copy(),
      new Evaluator(new RuleStates(t.fleet.db.knex, t.fleet.deps('alerts').outbox as Outbox), new ScriptedWeather(), logger),
      () => new Date(NOW),
      logger,
    );
    await consumer.handle({ ...message(first), value: '{' });
    await consumer.handle(message({ ...first, day: 'yesterday' }));
    expect(await keptIds()).toEqual([]);
  });

  it('finds the reports within the radius (great-circle) and window, across the antimeridian too', async () => {
    await copy().apply(
      day(1, [report('in', north(9.9), 5), report('out', north(10.1), 5), report('early', north(1), 7), report('east', -17.8, 1, -179.99)]),
    );
    const found = async (p: Point, km: number, hours: number) => (await copy().near(p, km, NOW - hours * HOUR_MS, NOW)).map((r) => r.id);
    expect(await found(FIELD, 10, 6)).toEqual([fieldcastId('test report', 'in')]);
    expect(await found(FIELD, 10, 8)).toEqual([fieldcastId('test report', 'early'), fieldcastId('test report', 'in')]);
    expect(await found({ lat: -17.8, lon: 179.99 }, 5, 6)).toEqual([fieldcastId('test report', 'east')]);
  });
});

describe('severe-weather rules count the ingested reports as storm reports', () => {
  it('counts them only where the rule’s types take storm_report, whatever the file’s type', async () => {
    const weather = new ScriptedWeather();
    weather.ingested = [{ id: randomUUID(), reportType: 'hail', timeMs: NOW - HOUR_MS, lat: FIELD.lat, lon: FIELD.lon, magnitude: 44.5 }];
    const condition = { kind: 'severe-weather', radiusKm: 10, hours: 6 } as const;
    expect(await measure({ ...condition, types: ['hail'] }, FIELD, NOW, weather)).toMatchObject({ value: 0 });
    expect(await measure({ ...condition, types: ['storm_report'] }, FIELD, NOW, weather)).toEqual({
      value: 1,
      kinds: ['storm_report'],
      ingested: 1,
    });
    weather.severeCount = 2;
    expect(await measure(condition, FIELD, NOW, weather)).toEqual({ value: 3, kinds: ['hail', 'storm_report'], ingested: 1 });
  });

  it('a report inside the radius and window fires the rule, one outside does not, and one a later file of its day left out no longer counts', async () => {
    const field = randomUUID();
    const deps = t.fleet.deps('alerts');
    await new TargetCopies(deps.db!.knex, deps.outbox as Outbox).apply({
      target: { id: field, type: 'field', accountId: t.alice.id, centroid: FIELD },
      action: 'created',
      timeMs: NOW - HOUR_MS,
    });
    const res = await rules(t.fleet).create(t.alice, {
      target: { type: 'field', id: field },
      condition: { kind: 'severe-weather', radiusKm: 10, hours: 6, types: ['storm_report'] },
    });
    expect(res.status).toBe(201);
    const rule = (res.body as { id: string }).id;
    // the synthetic world has no storm here now (the scripted weather's count, 0): only the copy's reports count
    const weather = new ScriptedWeather();
    weather.ingestedReports = (p, km, fromMs, toMs) => copy().near(p, km, fromMs, toMs);
    const evaluator = new Evaluator(new RuleStates(deps.db!.knex, deps.outbox as Outbox), weather, logger);
    const state = async () => (await rules(t.fleet).get(t.alice, `/rules/${rule}/state`)).body as { holding: boolean; value: number };

    await copy().apply(day(1, [report('far', north(12), 1), report('old', north(1), 7)]));
    await evaluator.pass(NOW);
    expect(await state()).toMatchObject({ holding: false, value: 0 });

    await copy().apply(day(2, [report('far', north(12), 1), report('near', north(5), 2)]));
    await evaluator.pass(NOW + 60_000);
    expect(await state()).toMatchObject({ holding: true, value: 1 });
    const events: { event: { type: string; data: { event: { message: string } } } | string }[] = await deps
      .db!.knex.withSchema('alerts')
      .table('outbox')
      .orderBy('seq')
      .select('event');
    const triggered = events
      .map((r) => (typeof r.event === 'string' ? JSON.parse(r.event) : r.event))
      .find((e) => e.type === 'fieldcast.rule.triggered');
    expect(triggered.data.event.message).toBe(
      'Rule {}: 1 severe weather event (storm_report; 1 ingested storm report) within 10.0 km of {} in the last 6 hours',
    );

    // a revised file of the day without the near report: the rule clears
    await copy().apply(day(3, [report('far', north(12), 1)]));
    await evaluator.pass(NOW + 120_000);
    expect(await state()).toMatchObject({ holding: false, value: 0 });
  });
});

// The copy keeps the days a rule may still read and forgets the older ones
// (docs/decisions/0501-storm-report-days-announced-once-and-pruned.md).
describe('the copy forgets the days no rule can read', () => {
  /** A day's announcement whose reports lie at the given instants. */
  const dayAt = (d: string, revision: number, times: string[], reportType: StormReportDay['reportType'] = 'hail'): StormReportDay => ({
    reportType,
    day: d,
    revision,
    reports: times.map((time, i) => ({ ...report(`${d} ${revision} ${i}`, north(1), 0), time })),
  });
  const keptDays = async () =>
    (
      (await t.fleet.db.knex.withSchema('alerts').table('storm_report_days').orderBy(['day', 'report_type']).select('day', 'revision')) as {
        day: string;
        revision: number;
      }[]
    ).map((r) => [r.day, r.revision]);
  const keptReportDays = async () =>
    [
      ...new Set(
        ((await t.fleet.db.knex.withSchema('alerts').table('storm_reports').select('day')) as { day: string }[]).map((r) => r.day),
      ),
    ].sort();
  /** What a rule of the longest look-back (72 hours) within 10 km counts at nowMs. */
  const counted = async (nowMs: number) => (await copy().near(FIELD, 10, nowMs - 72 * HOUR_MS, nowMs)).length;

  // 2026-06-11 runs from 12Z of it to 12Z of 2026-06-12: its last report, at 11:59Z, lies in a
  // 72-hour window until 2026-06-15T11:59Z
  const lastOfJune11 = dayAt('2026-06-11', 1, ['2026-06-11T12:00:00Z', '2026-06-12T11:59:00Z']);
  const june10 = dayAt('2026-06-10', 2, ['2026-06-11T11:59:00Z']);
  const june14 = dayAt(DAY, 1, ['2026-06-15T08:00:00Z'], 'wind');

  it('keeps every day a rule may still read, and forgets the older days whole', async () => {
    for (const d of [june10, lastOfJune11, june14]) await copy().apply(d);
    const june15Noon = Date.parse('2026-06-15T12:00:00Z');
    expect(await copy().prune(june15Noon - 60_000)).toBe(1);
    expect(await keptDays()).toEqual([
      ['2026-06-11', 1],
      [DAY, 1],
    ]);
    expect(await keptReportDays()).toEqual(['2026-06-11', DAY]);
    expect(await counted(june15Noon - 60_000)).toBe(2);
    expect(await copy().prune(june15Noon)).toBe(1);
    expect(await keptDays()).toEqual([[DAY, 1]]);
    expect(await keptReportDays()).toEqual([DAY]);
    expect(await counted(june15Noon)).toBe(1);
  });

  it('a forgotten day delivered again counts nothing and is forgotten again; a kept day’s older revision still changes nothing', async () => {
    await copy().apply(june10);
    await copy().apply(june14);
    await copy().apply({ ...june14, revision: 2, reports: [] });
    await copy().prune(NOW);
    expect(await keptDays()).toEqual([[DAY, 2]]);
    // the forgotten day, delivered late, at whichever revision: all its reports are older than any rule reads
    expect(await copy().apply(dayAt('2026-06-10', 1, ['2026-06-10T12:00:00Z', '2026-06-11T11:59:00Z']))).toBe(true);
    expect(await counted(NOW)).toBe(0);
    await copy().prune(NOW);
    expect(await keptDays()).toEqual([[DAY, 2]]);
    expect(await keptReportDays()).toEqual([]);
    // the kept day's revision still stands against its older one
    expect(await copy().apply(june14)).toBe(false);
    expect(await counted(NOW)).toBe(0);
  });

  it('is the alerts service’s background task, at the service’s clock', async () => {
    await copy().apply(june10);
    await copy().apply(june14);
    await t.fleet.runBackground('alerts', 'storm-reports');
    expect(await keptDays()).toEqual([[DAY, 1]]);
  });
});
