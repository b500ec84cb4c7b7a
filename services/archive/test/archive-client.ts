import request from 'supertest';
import type { TestContext } from '@fieldcast/runtime/testing';
import { severeEvents } from '@fieldcast/weather';
import { eventDayOf } from '../src/domain/dates.js';
import { haversineKm } from '@fieldcast/geo';
import { formatPoint } from '../src/domain/iso6709.js';
import { ArchiveUserStore } from '../src/store.js';

/** The instant the tests' fleet calls now: after the 2025 storm season the tests read. */
export const NOW = new Date('2025-07-01T00:00:00Z');
/**
 * A storm of the synthetic world to read: the touchdown of a spring 2025 tornado over the central
 * plains whose storm also left hail, gusts and both kinds of lightning within 20 miles, found by
 * reading the world itself, so the tests follow the world when its climate is recalibrated.
 */
async function findStorm(): Promise<{ point: string; day: string; lat: number; lon: number }> {
  const range = { startMs: Date.UTC(2025, 3, 1, 6), endMs: Date.UTC(2025, 6, 1, 6) - 1 };
  const near = (lat: number, lon: number) => (e: { lat: number; lon: number }) => haversineKm({ lat, lon }, e) <= 20 * 1.609344;
  for (const tornado of severeEvents('tornado', [-102, 32, -94, 42], range)) {
    const { lat, lon } = tornado;
    const day = eventDayOf(tornado.timeMs);
    const box: [number, number, number, number] = [lon - 0.5, lat - 0.5, lon + 0.5, lat + 0.5];
    const dayRange = { startMs: day.startMs, endMs: day.endMs - 1 };
    const within = near(lat, lon);
    const hail = severeEvents('hail', box, dayRange).filter(within);
    const gusts = severeEvents('gust', box, dayRange).filter(within);
    const strokes = severeEvents('lightning', box, dayRange).filter(within);
    const ground = strokes.filter((s) => s.strokeType === 'ground').length;
    if (hail.length > 0 && gusts.length > 0 && ground > 1 && strokes.length - ground > 1 && strokes.length > 3) {
      const [rLat, rLon] = [Math.round(lat * 1e4) / 1e4, Math.round(lon * 1e4) / 1e4];
      return { point: formatPoint({ lat: rLat, lon: rLon }), day: day.date, lat: rLat, lon: rLon };
    }
  }
  throw new Error('the synthetic world has no spring 2025 tornado with hail, gusts and lightning over the plains');
}
const storm = await findStorm();
export const STORM_POINT = storm.point;
export const STORM_DAY = storm.day;
/** The day after STORM_DAY's event day begins... its end, as ISO */
export const STORM_DAY_END = new Date(Date.parse(`${storm.day}T06:00:00Z`) + 86_400_000).toISOString();
/** A 1 x 1 degree region around the storm: north-east corner, south-west corner (ISO 6709). */
export const STORM_REGION = {
  northEast: formatPoint({ lat: storm.lat + 0.5, lon: storm.lon + 0.5 }),
  southWest: formatPoint({ lat: storm.lat - 0.5, lon: storm.lon - 0.5 }),
  south: storm.lat - 0.5,
  north: storm.lat + 0.5,
  west: storm.lon - 0.5,
  east: storm.lon + 0.5,
};
/** RFC 3339 and POSIX forms of instants in the storm's event day */
export const STORM_TIMES = {
  begin: `${storm.day}T06:00:00Z`,
  beginPosix: String(Date.parse(`${storm.day}T06:00:00Z`) / 1000),
  end: STORM_DAY_END.replace('.000Z', 'Z'),
  endPosix: String(Date.parse(STORM_DAY_END) / 1000),
  lateInDay: new Date(Date.parse(STORM_DAY_END) - 3_600_000).toISOString().replace('.000Z', 'Z'),
  noonPosix: String(Date.parse(`${storm.day}T12:00:00Z`) / 1000),
};
/** Where tests run supertest from: the loopback, as IPv4 or as IPv6 depending on the host. */
export const LOOPBACK = ['127.0.0.1/32', '::1/128'];

export async function register(t: TestContext, name: string, ranges = LOOPBACK, types?: string[]) {
  return new ArchiveUserStore(t.fleet.db.knex).register({ name, ranges, ...(types ? { types } : {}) });
}

/** GET an archive path with the user's credentials added to the query. */
export function get(t: TestContext, path: string, creds?: { name: string; token: string }, query: Record<string, string> = {}) {
  const q = { ...(creds ? { u: creds.name, t: creds.token } : {}), ...query };
  return request(t.fleet.app('archive')).get(path).query(q);
}
