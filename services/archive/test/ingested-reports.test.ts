import request from 'supertest';
import { haversineKm } from '@fieldcast/geo';
import { archiveBody } from '@fieldcast/schemas';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { archiveService } from '../src/definition.js';
import { ingestStormReports } from '../src/domain/ingested-reports.js';
import { StormReportFileError } from '../src/domain/storm-report-csv.js';
import { formatPoint } from '../src/domain/iso6709.js';
import { StormReportStore } from '../src/report-store.js';
import { get, NOW, register, STORM_DAY, STORM_POINT, STORM_REGION } from './archive-client.js';
import { reportFile } from './storm-report-files.js';
import { findAll, parseXml } from './xml-parse.js';

const t = useTestFleet([archiveService], { now: () => NOW });
let alice: { name: string; token: string };
beforeEach(async () => {
  alice = await register(t, 'alice');
});

/** The storm the tests read, and reports of its convective day near it (CST afternoon: inside the event day). */
const lat = STORM_REGION.south + 0.5;
const lon = STORM_REGION.west + 0.5;
const near = (dLat: number) => ({ lat: (lat + dLat).toFixed(2), lon: lon.toFixed(2) });
const FILES = {
  hail: reportFile('hail', [{ time: '1500', magnitude: '175', ...near(0.02), comments: 'Golf ball hail & <wind>. (OUN)' }]),
  wind: reportFile('wind', [
    { time: '1510', magnitude: 'UNK', ...near(-0.05), comments: 'Trees down.' },
    // two degrees north: outside any point query's 20 miles
    { time: '1520', magnitude: '70', ...near(2) },
  ]),
  tornado: reportFile('tornado', [{ time: '1530', magnitude: '2', ...near(0.1), comments: 'Brief tornado over open country.' }]),
};

const store = () => new StormReportStore(t.fleet.db.knex, t.fleet.deps('archive').outbox!);
async function ingestAll() {
  for (const type of ['hail', 'wind', 'tornado'] as const) await ingestStormReports(store(), { type, day: STORM_DAY, text: FILES[type] });
}

const day = (type: string, request: string, suffix = '') =>
  get(t, `/v2/${type}/${request}/${STORM_POINT}/${STORM_DAY}${suffix}`, alice, { radius: '20' });
const textOf = (res: request.Response) => res.text;

interface Feature {
  id: string;
  properties: Record<string, unknown> & { source?: string; reportType?: string };
}

/** A cold fleet draws its first blocks in a compute thread that first loads the sources (tsx). */
const COLD = 180_000;

describe('ingested storm reports (docs/decisions/0174-ingested-storm-reports.md)', () => {
  it(
    'are served with the synthetic world’s, marked by source, the synthetic ones unchanged',
    async () => {
      const before = (await day('stormreports', 'history')).body.data.features as Feature[];
      const summaryBefore = (await day('stormreports', 'summary')).body.data.items[0] ?? { count: 0, hail: 0, wind: 0, tornado: 0 };
      await ingestAll();
      const res = await day('stormreports', 'history');
      archiveBody('stormreports').parse(res.body);
      const after = res.body.data.features as Feature[];
      const ingested = after.filter((f) => f.properties.source === 'ingested');
      expect(after.filter((f) => f.properties.source === 'synthetic')).toEqual(before);
      expect(ingested.map((f) => f.properties.reportType).sort()).toEqual(['hail', 'tornado', 'wind']);
      const hail = ingested.find((f) => f.properties.reportType === 'hail')!;
      expect(hail.properties).toMatchObject({
        time: `${STORM_DAY}T21:00:00.000Z`,
        magnitude: 44.5,
        unit: 'mm',
        place: '3 NW Norman, Cleveland, OK',
        remarks: 'Golf ball hail & <wind>. (OUN)',
        latitude: Number((lat + 0.02).toFixed(2)),
      });
      expect(hail.properties.distance).toBeLessThan(2);
      expect(ingested.find((f) => f.properties.reportType === 'wind')!.properties.magnitude).toBeNull();
      // the summary counts them with the synthetic ones
      const summary = (await day('stormreports', 'summary')).body.data.items[0];
      expect(summary.count).toBe(summaryBefore.count + 3);
      for (const k of ['hail', 'wind', 'tornado']) expect(summary[k]).toBe(summaryBefore[k] + 1);
      // a region holding the far wind report lists it too
      const north = `${formatPoint({ lat: lat + 2.5, lon: lon + 0.5 })}${formatPoint({ lat: lat + 1.5, lon: lon - 0.5 })}`;
      const region = await get(t, `/v2/stormreports/history/${north}/${STORM_DAY}`, alice);
      expect(region.status).toBe(200);
      expect((region.body.data.features as Feature[]).filter((f) => f.properties.source === 'ingested')).toHaveLength(1);
    },
    COLD,
  );

  it(
    'are storm reports only: the hail, tornado and gust records stay the synthetic world’s',
    async () => {
      const before = await Promise.all(['hailsize', 'tornado', 'gustdur'].map((type) => day(type, 'history')));
      await ingestAll();
      const after = await Promise.all(['hailsize', 'tornado', 'gustdur'].map((type) => day(type, 'history')));
      after.forEach((res, i) => expect(res.body).toEqual(before[i]!.body));
    },
    COLD,
  );

  it(
    'are carried by XML and KML',
    async () => {
      await ingestAll();
      const xml = parseXml(textOf(await day('stormreports', 'history', '.xml').buffer(true)));
      const reports = findAll(xml, 'report').filter((r) => r.attributes.source === 'ingested');
      expect(reports).toHaveLength(3);
      const hail = reports.find((r) => r.attributes.reportType === 'hail')!;
      expect(hail.attributes).toMatchObject({ magnitude: '44.5', unit: 'mm', place: '3 NW Norman, Cleveland, OK' });
      expect(findAll(hail, 'remarks')[0]!.text).toBe('Golf ball hail & <wind>. (OUN)');
      // an unknown magnitude is left out, not written "null"
      expect(reports.find((r) => r.attributes.reportType === 'wind')!.attributes).not.toHaveProperty('magnitude');

      const kml = parseXml(textOf(await day('stormreports', 'history', '.kml').buffer(true)));
      const placemarks = findAll(kml, 'Placemark').filter((p) =>
        findAll(p, 'Data').some((d) => d.attributes.name === 'source' && d.children[0]!.text === 'ingested'),
      );
      expect(placemarks).toHaveLength(3);
      const tornado = placemarks.find((p) => findAll(p, 'name')[0]!.text === 'Storm report: tornado (ingested)')!;
      expect(findAll(tornado, 'description')[0]!.text).toBe(
        `Brief tornado over open country. (3 NW Norman, Cleveland, OK) at ${STORM_DAY}T21:30:00.000Z`,
      );
      const data = Object.fromEntries(findAll(tornado, 'Data').map((d) => [d.attributes.name, d.children[0]!.text]));
      expect(data).toMatchObject({ reportType: 'tornado', magnitude: '2', unit: 'EF', source: 'ingested' });
    },
    COLD,
  );

  it(
    'ingesting a file again changes nothing; a corrected file replaces its type and day',
    async () => {
      await ingestAll();
      const once = (await day('stormreports', 'history')).body;
      expect(await ingestStormReports(store(), { type: 'hail', day: STORM_DAY, text: FILES.hail })).toEqual({ stored: 1, replaced: 1 });
      expect((await day('stormreports', 'history')).body).toEqual(once);
      const corrected = reportFile('hail', [{ time: '1500', magnitude: '200', ...near(0.02) }]);
      expect(await ingestStormReports(store(), { type: 'hail', day: STORM_DAY, text: corrected })).toEqual({ stored: 1, replaced: 1 });
      const sizes = ((await day('stormreports', 'history')).body.data.features as Feature[])
        .filter((f) => f.properties.source === 'ingested' && f.properties.reportType === 'hail')
        .map((f) => f.properties.magnitude);
      expect(sizes).toEqual([50.8]);
      expect(await store().countDay('wind', STORM_DAY)).toBe(2);
    },
    COLD,
  );

  it(
    'files of one type and day ingested at the same time: each replaces the other whole, and the same file twice is no fault',
    async () => {
      // On PostgreSQL (DATABASE_URL) the ingestions run in transactions side by side, as two
      // `fieldcast archive ingest-reports` processes would; on PGlite they take turns anyway.
      const first = reportFile('hail', [
        { time: '1500', magnitude: '100', ...near(0.01), comments: 'first' },
        { time: '1510', magnitude: '100', ...near(0.02), comments: 'first' },
      ]);
      const second = reportFile('hail', [{ time: '1700', magnitude: '300', ...near(0.03), comments: 'second' }]);
      for (let round = 0; round < 5; round++) {
        const stores = [store(), store(), store()];
        const results = await Promise.allSettled([
          ingestStormReports(stores[0]!, { type: 'hail', day: STORM_DAY, text: first }),
          ingestStormReports(stores[1]!, { type: 'hail', day: STORM_DAY, text: first }),
          ingestStormReports(stores[2]!, { type: 'hail', day: STORM_DAY, text: second }),
        ]);
        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
        // exactly one file's reports: 2 (first) or 1 (second), never both files' 3
        expect([1, 2]).toContain(await store().countDay('hail', STORM_DAY));
      }
    },
    COLD,
  );

  it(
    'a report just inside a point’s radius is listed, north or east of it; one just outside is not',
    async () => {
      type Place = { lat: number; lon: number };
      // Where `move` reaches `km` from `from`, by bisection on the distance the archive measures:
      // the test assumes no Earth radius of its own.
      const reach = (from: Place, km: number, move: (deg: number) => Place): Place => {
        let [lo, hi] = [0, 1];
        for (let i = 0; i < 60; i++) {
          const mid = (lo + hi) / 2;
          if (haversineKm(from, move(mid)) < km) lo = mid;
          else hi = mid;
        }
        return move(lo);
      };
      // due north, at the search box's northern edge; due east, far north, where a degree of longitude is short
      const places = [
        { from: { lat: 35, lon: -97 }, move: (deg: number) => ({ lat: 35 + deg, lon: -97 }) },
        { from: { lat: 65, lon: 25 }, move: (deg: number) => ({ lat: 65, lon: 25 + deg }) },
      ];
      const rows = places.flatMap(({ from, move }) =>
        [9.9999, 10.0001].map((km) => {
          const at = reach(from, km, move);
          return { time: '1500', magnitude: '100', lat: at.lat.toFixed(7), lon: at.lon.toFixed(7), comments: `${km} km away` };
        }),
      );
      await ingestStormReports(store(), { type: 'hail', day: STORM_DAY, text: reportFile('hail', rows) });
      for (const { from } of places) {
        const res = await get(t, `/v2/stormreports/history/${formatPoint(from)}/${STORM_DAY}`, alice, { radius: '10', units: 'km' });
        expect(res.status).toBe(200);
        const ingested = (res.body.data.features as Feature[]).filter((f) => f.properties.source === 'ingested');
        expect(ingested.map((f) => f.properties.remarks)).toEqual(['9.9999 km away']);
        expect(ingested[0]!.properties.distance).toBeLessThanOrEqual(10);
      }
    },
    COLD,
  );

  it(
    'a file with a bad row stores nothing of it',
    async () => {
      await ingestAll();
      const bad = reportFile('wind', [
        { time: '1600', ...near(0) },
        { time: '1610', lat: '135' },
      ]);
      await expect(ingestStormReports(store(), { type: 'wind', day: STORM_DAY, text: bad })).rejects.toThrow(StormReportFileError);
      await expect(ingestStormReports(store(), { type: 'wind', day: STORM_DAY, text: bad })).rejects.toThrow(/line 3: Lat "135"/);
      expect(await store().countDay('wind', STORM_DAY)).toBe(2);
    },
    COLD,
  );
});
