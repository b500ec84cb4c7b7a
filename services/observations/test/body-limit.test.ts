import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { observationsService } from '../src/definition.js';
import { list, publishText, readBack } from './observation-sets-client.js';

const t = useTestFleet([observationsService]);
const app = () => t.fleet.app('observations');

/** The body limit of the test fleet, as the runtime's default: 1 MB = 1,048,576 bytes (docs/interface.md §1, limits). */
const LIMIT = 1_048_576;

/**
 * A valid set of JSON text exactly `bytes` long: 100 sites of hourly observations of three
 * variables, as many as fit, then spaces (JSON whitespace, RFC 8259 section 2) to the length.
 */
function setOfBytes(bytes: number): { text: string; observations: number } {
  const sites = Array.from({ length: 100 }, (_, i) => ({
    id: `station-${i}`,
    latitude: 40 + i / 100,
    longitude: -93 - i / 100,
    elevation: 300 + i,
    observations: [] as unknown[],
  }));
  let size = JSON.stringify({ sites }).length;
  let observations = 0;
  for (let hour = 0; ; hour++) {
    const time = new Date(Date.UTC(2026, 0, 1) + hour * 3_600_000).toISOString();
    const observation = {
      time,
      variables: [
        { name: 'temperature', unit: 'celsius', value: -4.25 },
        { name: 'relativeHumidity', unit: 'percent', value: 81 },
        { name: 'liquidPrecipitationAmount', unit: 'mm', value: 0.2, method: 'sum', interval: 3600 },
      ],
    };
    const added = JSON.stringify(observation).length + 1;
    if (size + 100 * added > bytes) break;
    for (const s of sites) s.observations.push(observation);
    size += 100 * added;
    observations += 100;
  }
  const text = JSON.stringify({ sites });
  return { text: `{${' '.repeat(bytes - Buffer.byteLength(text))}${text.slice(1)}`, observations };
}

/** 2000-01-01 in milliseconds since the epoch. */
const Y2000 = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;

/**
 * One site observed at noon UTC on `days` consecutive days from 2000-01-01, a short observation
 * each, so that 12,000 days (about 33 years) fit in 1 MB.
 */
function dailySet(days: number): string {
  const observations = Array.from({ length: days }, (_, i) => ({
    time: `${new Date(Y2000 + i * DAY_MS).toISOString().slice(0, 10)}T12:00Z`,
    variables: [{ name: 'windSpeed', unit: 'm/s', value: i % 10 }],
  }));
  return JSON.stringify({
    sites: [{ id: 'a', latitude: 41.58, longitude: -93.62, elevation: 291, observations }],
    tags: { kind: 'daily' },
  });
}

async function storedSets() {
  return Number((await t.fleet.db.knex.withSchema('observations').table('observation_sets').count({ n: '*' }).first())?.n);
}

describe('observation sets: at most 1 MB (spec 4.8)', () => {
  it('a set of exactly 1 MB is published and read back', async () => {
    const { text, observations } = setOfBytes(LIMIT);
    expect(Buffer.byteLength(text)).toBe(LIMIT);
    expect(observations).toBeGreaterThan(4_000);
    const res = await publishText(app(), t.alice, text);
    expect(res.status).toBe(201);
    const back = await readBack(app(), t.alice, res.body.id);
    expect(back.text).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('a set on 12,000 distinct days is stored whole: summary, read-back and the period index', async () => {
    // More day rows than one INSERT of 6 parameters a row may bind (65,535 parameters).
    const text = dailySet(12_000);
    expect(Buffer.byteLength(text)).toBeLessThan(LIMIT);
    const res = await publishText(app(), t.alice, text);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      earliestObservationTime: '2000-01-01T12:00:00.000Z',
      latestObservationTime: `${new Date(Y2000 + 11_999 * DAY_MS).toISOString().slice(0, 10)}T12:00:00.000Z`,
      tags: { kind: 'daily' },
    });
    const back = await readBack(app(), t.alice, res.body.id);
    expect(back.status).toBe(200);
    expect(back.text).toBe(text);
    const days = await t.fleet.db.knex.withSchema('observations').table('observation_days').count({ n: '*' }).first();
    expect(Number(days?.n)).toBe(12_000);
    // Days in the middle and at the end of the set, well past the first INSERT's rows.
    const day = (i: number) => new Date(Y2000 + i * DAY_MS).toISOString().slice(0, 10);
    for (const i of [6_000, 11_999]) {
      expect((await list(app(), t.alice, { start: day(i), end: day(i) })).body).toEqual([res.body]);
      expect((await list(app(), t.alice, { start: `${day(i)}T12:00:00.001Z`, end: `${day(i + 1)}T11:59:59Z` })).body).toEqual([]);
    }
    expect((await list(app(), t.alice, { start: day(12_000) })).body).toEqual([]);
  });

  it('one byte more is 413, with or without a Content-Length, and nothing is stored', async () => {
    const { text } = setOfBytes(LIMIT + 1);
    const res = await publishText(app(), t.alice, text);
    expect(res.status).toBe(413);
    expect(res.body.id).toBe('body_too_large');
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const server = app().listen(0, () => {
        const req = httpRequest(
          {
            port: (server.address() as AddressInfo).port,
            method: 'POST',
            path: '/observation-sets',
            headers: { Authorization: t.alice.auth, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
          },
          (r) => {
            let body = '';
            r.on('data', (c: Buffer) => (body += c));
            r.on('end', () => server.close(() => resolve({ status: r.statusCode ?? 0, body })));
          },
        );
        req.on('error', reject);
        for (let i = 0; i < text.length; i += 65_536) req.write(text.slice(i, i + 65_536));
        req.end();
      });
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).id).toBe('body_too_large');
    expect(await storedSets()).toBe(0);
  });

  it('a body over the limit is refused without being parsed: text that is no JSON is 413, not 400', async () => {
    const res = await publishText(app(), t.alice, `{"sites": [${'x'.repeat(LIMIT)}`);
    expect(res.status).toBe(413);
    expect(res.body.id).toBe('body_too_large');
    expect(await storedSets()).toBe(0);
  });

  it('a large set is answered gzipped when the client accepts it', async () => {
    const { text } = setOfBytes(200_000);
    const { id } = (await publishText(app(), t.alice, text)).body;
    const res = await request(app()).get(`/observation-sets/${id}`).set('Authorization', t.alice.auth).set('Accept-Encoding', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.text).toBe(JSON.stringify(JSON.parse(text)));
  });
});
