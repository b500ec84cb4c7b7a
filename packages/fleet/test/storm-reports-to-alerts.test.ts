import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { agricultureService } from '@fieldcast/agriculture';
import { alertsService } from '@fieldcast/alerts';
import { archiveService } from '@fieldcast/archive';
import { ingestStormReports, StormReportStore } from '@fieldcast/archive/reports';
import { openDatabase } from '@fieldcast/db';
import { eventsService } from '@fieldcast/events';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { databaseTemplate, eventually, reservePortBase, useTestFleet } from '@fieldcast/runtime/testing';
import { severeEvents } from '@fieldcast/weather';
import { archiveCommand } from '../src/archive.js';
import { startFleet } from '../src/start.js';
import { createField } from '../../../services/alerts/test/helpers.js';

// The storm reports ingested into the archive reach the alerts area through the archive's outbox
// and count in severe-weather rules (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md).
const PORT_BASE = reservePortBase();
const NOW = new Date('2026-06-15T10:20:00Z');
/** The fleet's clock: a rule is decided once per clock reading, so each evaluation the test waits for comes at a later one. */
let clockMs = NOW.getTime();
const t = useTestFleet([agricultureService, archiveService, alertsService, eventsService], { now: () => new Date(clockMs) });

/** The field's place, and a day and hour of reports near it: 1800 CST of the convective day 2026-06-14 is 10 h 20 min before NOW. */
const FIELD = { lat: 47.2, lon: -101.3 };
const DAY = '2026-06-14';
const hailFile = (lats: number[]) =>
  [
    'Time,Size,Location,County,State,Lat,Lon,Comments',
    ...lats.map((lat) => `1800,175,2 N Hazen,Mercer,ND,${lat.toFixed(3)},${FIELD.lon},Golf ball hail.`),
  ].join('\n');
/** 5 km north of the field (a degree of latitude is 111.2 km). */
const NEAR = FIELD.lat + 5 / 111.2;
const FAR = FIELD.lat + 40 / 111.2;

describe('storm reports ingested into the archive, in the alerts area', () => {
  it('fire a severe-weather rule on a field 5 km away, and a revised file without the report clears it; no feed shows the announcements', async () => {
    const { fleet, alice } = t;
    // the synthetic world has no storm report there in the rule's window: what fires the rule is the ingested one
    const box: [number, number, number, number] = [FIELD.lon - 0.5, FIELD.lat - 0.5, FIELD.lon + 0.5, FIELD.lat + 0.5];
    const synthetic = severeEvents('storm_report', box, { startMs: NOW.getTime() - 24 * 3_600_000, endMs: NOW.getTime() });
    expect(synthetic).toEqual([]);

    // a field of 0.01° around the place, once the alerts area's copy holds it
    const fieldId = await createField(fleet, alice, FIELD.lon - 0.005, FIELD.lat - 0.005);
    const created = await request(fleet.app('alerts'))
      .post('/rules')
      .set('Authorization', alice.auth)
      .send({
        target: { type: 'field', id: fieldId },
        condition: { kind: 'severe-weather', radiusKm: 10, hours: 24, types: ['storm_report'] },
      });
    expect(created.status).toBe(201);
    const rule = (created.body as { id: string }).id;
    const state = async () => (await request(fleet.app('alerts')).get(`/rules/${rule}/state`).set('Authorization', alice.auth)).body;
    await eventually(async () => expect(await state()).toMatchObject({ watching: true }), 30_000);

    // the archive's store, writing to the archive's outbox as the CLI does; the archive's relay publishes it
    const reports = new StormReportStore(fleet.db.knex, fleet.deps('archive').outbox!, () => NOW);
    await ingestStormReports(reports, { type: 'hail', day: DAY, text: hailFile([NEAR, FAR]) });
    await eventually(async () => expect(await state()).toMatchObject({ holding: true, value: 1 }), 30_000);

    const feed = async () => {
      const res = await request(fleet.app('events')).get('/events?limit=100').set('Authorization', alice.auth);
      expect(res.status).toBe(200);
      return res.body as { app: string; message: string }[];
    };
    // the alert, in the owner's feed, says what it counted
    await eventually(async () =>
      expect((await feed()).map((e) => e.message)).toContain(
        'Rule {}: 1 severe weather event (storm_report; 1 ingested storm report) within 10.0 km of {} in the last 24 hours',
      ),
    );

    clockMs += 60_000;
    await ingestStormReports(reports, { type: 'hail', day: DAY, text: hailFile([FAR]) });
    await eventually(async () => expect(await state()).toMatchObject({ holding: false, value: 0 }), 30_000);

    // the announcements are no events: neither in a feed nor dead-lettered by the events area
    expect((await feed()).filter((e) => e.app === 'archive')).toEqual([]);
    const { rows } = await fleet.db.knex.raw(
      `select (select count(*) from events.events where app = 'archive') + (select count(*) from events.dead_letters) as n`,
    );
    expect(Number(rows[0].n)).toBe(0);
  }, 120_000);
});

describe('fieldcast archive ingest-reports while the embedded fleet is stopped', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-storm-reports-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('reaches the alerts area’s copy at the next start', async () => {
    const env = parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: dataDir, PORT_BASE: String(PORT_BASE), LOG_LEVEL: 'silent' });
    const file = join(dataDir, 'rpts_hail.csv');
    writeFileSync(file, hailFile([NEAR, FAR]));
    // The fleet runs on the wall clock: yesterday's reports, which the copy keeps while a rule may read them (0501).
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const printed: string[] = [];
    await archiveCommand(['ingest-reports', '--type', 'hail', '--date', yesterday, '--json', file], env, (line) => printed.push(line));
    expect(JSON.parse(printed[0]!)).toMatchObject({ stored: 2 });

    const started = await startFleet(env, { databaseSeed: await databaseTemplate(), print: () => undefined });
    try {
      const alerts = started.fleet.services.find((s) => s.area === 'alerts')!;
      // the alerts area's consumer of the announcements has taken one
      await eventually(async () => {
        const metrics = await (await fetch(`${alerts.url}/metrics`)).text();
        expect(metrics).toMatch(/fieldcast_consumer_messages_total\{group="alerts-storm-reports",outcome="handled"[^}]*\} 1\b/);
      }, 60_000);
    } finally {
      await started.fleet.stop();
    }
    const db = await openDatabase({ dataDir: join(dataDir, 'pglite') });
    try {
      const kept: { latitude: number }[] = await db.knex.withSchema('alerts').table('storm_reports').orderBy('latitude').select('latitude');
      expect(kept.map((r) => r.latitude)).toEqual([Number(NEAR.toFixed(3)), Number(FAR.toFixed(3))]);
      const unsent = await db.knex.withSchema('archive').table('outbox').whereNull('sent_at').count({ n: '*' });
      expect(Number(unsent[0]!.n)).toBe(0);
    } finally {
      await db.close();
    }
  }, 300_000);
});
