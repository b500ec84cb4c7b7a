import request from 'supertest';
import { gunzipSync } from 'node:zlib';
import { get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { observationsService } from '../src/definition.js';
import { JSON_V1, publish, publishText, readBack, site } from './observation-sets-client.js';

const t = useTestFleet([observationsService]);
const app = () => t.fleet.app('observations');

/** GET by id with the bytes on the wire, undecoded (supertest would gunzip them). */
function rawGet(id: string, acceptEncoding: string | undefined) {
  return new Promise<{ status: number; headers: Record<string, string | undefined>; body: Buffer }>((resolve, reject) => {
    const server = app().listen(0, '127.0.0.1', () => {
      const headers: Record<string, string> = { Authorization: t.alice.auth };
      if (acceptEncoding) headers['Accept-Encoding'] = acceptEncoding;
      const req = httpGet(
        { host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: `/observation-sets/${id}`, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            server.close(() =>
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers as Record<string, string | undefined>,
                body: Buffer.concat(chunks),
              }),
            ),
          );
        },
      );
      req.on('error', reject);
    });
  });
}

/**
 * A set with every optional member: aggregated and instantaneous values, tags, times with
 * offsets, fractions and a comma, members in an order no schema lists them in.
 */
const everything = {
  tags: { station: 'Ames 2', 'network/kind': 'mesonet', empty: '', émoji: '☔ 🌧' },
  sites: [
    {
      observations: [
        {
          variables: [
            { value: 1.5, unit: 'mm', name: 'liquidPrecipitationAmount', interval: 3600, method: 'sum' },
            { unit: 'celsius', name: 'temperature', value: -3.25 },
            { name: 'temperature', method: 'minimum', interval: 86400, value: -12, unit: 'celsius' },
            { name: 'temperature', unit: 'celsius', value: 31.7, method: 'maximum', interval: 86400 },
          ],
          time: '2026-05-01T14:00:00+02:00',
        },
        { time: '2026-05-01T12:00:00.123456Z', variables: [{ name: 'relativeHumidity', unit: 'percent', value: 87 }] },
        { time: '2026-05-01T12:30:00,5-05:00', variables: [{ name: 'solarRadiation', unit: 'W/m2', value: 612.4 }] },
      ],
      elevation: -28,
      longitude: 180,
      id: 'ames-2',
      latitude: -90,
    },
    site('b', ['2026-04-30T23:59:59Z', '2026-05-02T00:00:00z', '2026-05-01t06:00:00+0530']),
  ],
};

describe('observation sets: read back exactly as submitted (spec 2.9, 4.8)', () => {
  it('publishes: 201 and the stored summary', async () => {
    const before = Date.now();
    const res = await publish(app(), t.alice, everything);
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe(`${JSON_V1}; charset=utf-8`);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      creationTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      earliestObservationTime: '2026-04-30T23:59:59.000Z',
      latestObservationTime: '2026-05-02T00:00:00.000Z',
      tags: everything.tags,
    });
    expect(Object.keys(res.body)).toEqual(['id', 'creationTime', 'earliestObservationTime', 'latestObservationTime', 'tags']);
    expect(Date.parse(res.body.creationTime)).toBeGreaterThanOrEqual(before - 1);
    expect(Object.keys(res.body.tags)).toEqual(Object.keys(everything.tags));
  });

  it('names the set’s read in Location (RFC 9110 section 10.2.2), which gives the set back as sent', async () => {
    const made = await publish(app(), t.alice, everything);
    expect([made.status, made.headers.location]).toEqual([201, `/observation-sets/${made.body.id}`]);
    const read = await request(app()).get(made.headers.location!).set('Authorization', t.alice.auth);
    // The document is the set as sent, without its id; its entity tag names it.
    expect([read.status, read.headers.etag, read.body]).toEqual([200, `W/"${made.body.id}"`, everything]);
  });

  it('gives back the same keys in the same order, the same numbers and the times as sent', async () => {
    const { id } = (await publish(app(), t.alice, everything)).body;
    const res = await readBack(app(), t.alice, id);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(`${JSON_V1}; charset=utf-8`);
    expect(res.body).toEqual(everything);
    // toEqual ignores key order; the text does not.
    expect(res.text).toBe(JSON.stringify(everything));
  });

  it('numbers keep their value whatever their spelling, and a set without tags comes back without them', async () => {
    const text =
      '{"sites":[{"id":"x","latitude":4.20e1,"longitude":-0.0,"elevation":1E3,"observations":[{"time":"2026-01-01T00:00:00Z","variables":[{"name":"windSpeed","unit":"m/s","value":0.10000000000000001},{"name":"windDirection","unit":"degrees","value":270.000}]}]}]}';
    const created = await publishText(app(), t.alice, text);
    expect(created.status).toBe(201);
    expect(created.body.tags).toEqual({});
    const res = await readBack(app(), t.alice, created.body.id);
    // The values, in JSON's shortest spelling (ECMA-262 Number::toString); -0.0 is the value 0.
    expect(res.text).toBe(JSON.stringify(JSON.parse(text)));
    expect(Object.keys(res.body)).toEqual(['sites']);
    const observed = res.body.sites[0];
    expect([observed.latitude, observed.longitude, observed.elevation, observed.observations[0].variables[0].value]).toEqual([
      42, 0, 1000, 0.1,
    ]);
  });

  it('tag names that are also names of JavaScript object members are plain tags', async () => {
    const text = JSON.stringify({ sites: [site('a', ['2026-01-01T00:00:00Z'])] }).replace(
      /}$/,
      ',"tags":{"__proto__":"p","constructor":"c","toString":"t"}}',
    );
    const created = await publishText(app(), t.alice, text);
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body.tags)).toBe('{"__proto__":"p","constructor":"c","toString":"t"}');
    expect((await readBack(app(), t.alice, created.body.id)).text).toBe(text);
  });

  it('keeps observations and sites in the order sent, not in time order', async () => {
    const body = { sites: [site('z', ['2026-03-03T00:00:00Z', '2026-01-01T00:00:00Z']), site('a', ['2026-02-02T00:00:00Z'])] };
    const { id } = (await publish(app(), t.alice, body)).body;
    const res = await readBack(app(), t.alice, id);
    expect(res.text).toBe(JSON.stringify(body));
  });

  it('another account’s set is 404, like an unknown one; an id that is no UUID is 400', async () => {
    const { id } = (await publish(app(), t.alice, everything)).body;
    // Read by its owner first, so the document is in the process's cache when the other asks.
    expect((await readBack(app(), t.alice, id)).status).toBe(200);
    const theirs = await readBack(app(), t.bob, id);
    expect(theirs.status).toBe(404);
    expect(theirs.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(theirs.body).toMatchObject({ id: 'observation_set_does_not_exist' });
    const unknown = await readBack(app(), t.alice, '3f1c2a70-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(theirs.body.message.replace(id, '3f1c2a70-0000-4000-8000-000000000000'));
    expect((await readBack(app(), t.alice, 'not-a-uuid')).status).toBe(400);
    expect((await readBack(app(), t.alice, id.toUpperCase())).status).toBe(200);
    // And a set the other asks for before its owner ever read it.
    const fresh = (await publish(app(), t.alice, everything)).body.id;
    expect((await readBack(app(), t.bob, fresh)).status).toBe(404);
    expect((await readBack(app(), t.alice, fresh)).status).toBe(200);
    expect((await readBack(app(), t.bob, fresh)).status).toBe(404);
  });

  it('stores the JSON text as sent, gzipped, and serves those bytes to a client that accepts gzip', async () => {
    const { id } = (await publish(app(), t.alice, everything)).body;
    const row = await t.fleet.db.knex.raw(`select document_gz from observations.observation_sets where id = ?`, [id]);
    const stored = Buffer.from(row.rows[0].document_gz as Uint8Array);
    expect(gunzipSync(stored).toString('utf8')).toBe(JSON.stringify(everything));

    const zipped = await rawGet(id, 'gzip, deflate');
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/i);
    expect(zipped.headers['content-type']).toBe(`${JSON_V1}; charset=utf-8`);
    expect(zipped.body.equals(stored)).toBe(true);

    const plain = await rawGet(id, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(everything))));
    expect(plain.body.toString('utf8')).toBe(JSON.stringify(everything));
    const none = await rawGet(id, undefined);
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body.toString('utf8')).toBe(JSON.stringify(everything));
  });
});

describe('observation sets as CSV (Accept: text/csv; docs/decisions/0243-csv-answers.md)', () => {
  it('one row per site, time and variable in the order sent, unit beside each variable; JSON stays the bytes sent', async () => {
    const id = (await publish(app(), t.alice, everything)).body.id as string;
    const res = await readBack(app(), t.alice, id).set('Accept', 'text/csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(res.text.split('\r\n')).toEqual([
      'site,latitude,longitude,elevation (m),time,variable,unit,value,method,interval (s)',
      'ames-2,-90,180,-28,2026-05-01T14:00:00+02:00,liquidPrecipitationAmount,mm,1.5,sum,3600',
      'ames-2,-90,180,-28,2026-05-01T14:00:00+02:00,temperature,celsius,-3.25,,',
      'ames-2,-90,180,-28,2026-05-01T14:00:00+02:00,temperature,celsius,-12,minimum,86400',
      'ames-2,-90,180,-28,2026-05-01T14:00:00+02:00,temperature,celsius,31.7,maximum,86400',
      'ames-2,-90,180,-28,2026-05-01T12:00:00.123456Z,relativeHumidity,percent,87,,',
      // a time with a decimal comma is quoted (RFC 4180 section 2, rule 6)
      'ames-2,-90,180,-28,"2026-05-01T12:30:00,5-05:00",solarRadiation,W/m2,612.4,,',
      'b,41.58,-93.62,291,2026-04-30T23:59:59Z,temperature,celsius,10,,',
      'b,41.58,-93.62,291,2026-05-02T00:00:00z,temperature,celsius,11,,',
      'b,41.58,-93.62,291,2026-05-01t06:00:00+0530,temperature,celsius,12,,',
      '',
    ]);
    const json = await readBack(app(), t.alice, id);
    expect(json.headers['content-type']).toMatch(/json/);
    expect(JSON.parse(json.text)).toEqual(everything);
    const doc = (await request(app()).get('/openapi.json')).body;
    expect(Object.keys(doc.paths['/observation-sets/{id}'].get.responses['200'].content)).toContain('text/csv');
  });

  it('a site id a spreadsheet would run as a formula is read back as text; negative values stay numbers; saved under the set id', async () => {
    const set = {
      sites: [site('=HYPERLINK("http://example.invalid","x")', ['2026-05-01T00:00:00Z']), site('-1+2', ['2026-05-01T00:00:00Z'])],
    };
    set.sites[1]!.observations[0]!.variables[0]!.value = -4.5;
    const id = (await publish(app(), t.alice, set)).body.id as string;
    const res = await readBack(app(), t.alice, id).set('Accept', 'text/csv');
    expect(res.text.split('\r\n').slice(1)).toEqual([
      '"\'=HYPERLINK(""http://example.invalid"",""x"")",41.58,-93.62,291,2026-05-01T00:00:00Z,temperature,celsius,10,,',
      "'-1+2,41.58,-93.62,291,2026-05-01T00:00:00Z,temperature,celsius,-4.5,,",
      '',
    ]);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="observation-sets_${id}.csv"`);
  });
});

describe('observation sets: conditional reads (RFC 9110 section 13.1.2; docs/decisions/0377-observation-set-entity-tags.md)', () => {
  it('the JSON read carries a weak entity tag of the set, kept privately and revalidated: If-None-Match is 304', async () => {
    const { id } = (await publish(app(), t.alice, everything)).body;
    const tag = `W/"${id}"`;
    // The stored gzip and the text are one representation in two content codings: one tag.
    const zipped = await rawGet(id, 'gzip');
    const plain = await rawGet(id, 'identity');
    for (const res of [zipped, plain]) {
      expect(res.status).toBe(200);
      expect(res.headers.etag).toBe(tag);
      expect(res.headers['cache-control']).toBe('private, no-cache');
    }

    for (const condition of [tag, `"${id}"`, `"other", ${tag}`, '*']) {
      const res = await readBack(app(), t.alice, id).set('If-None-Match', condition);
      expect([condition, res.status]).toEqual([condition, 304]);
      expect(res.text).toBe('');
      expect(res.headers.etag).toBe(tag);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/Accept-Encoding/);
    }
    const head = await request(app()).head(`/observation-sets/${id}`).set('Authorization', t.alice.auth).set('If-None-Match', tag);
    expect(head.status).toBe(304);

    // Another set's tag, or another account asking with this one's: no 304.
    const other = await readBack(app(), t.alice, id).set('If-None-Match', `W/"3f1c2a70-0000-4000-8000-000000000000"`);
    expect(other.status).toBe(200);
    expect(other.body).toEqual(everything);
    const theirs = await readBack(app(), t.bob, id).set('If-None-Match', tag);
    expect(theirs.status).toBe(404);
    expect(theirs.headers.etag).toBeUndefined();
  });

  it('the CSV form, made by the service’s code rather than stored, carries no tag and is not kept', async () => {
    const { id } = (await publish(app(), t.alice, everything)).body;
    const res = await readBack(app(), t.alice, id).set('Accept', 'text/csv').set('If-None-Match', `W/"${id}"`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
