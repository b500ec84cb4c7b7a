import { brotliCompressSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { MAX_TAGS } from '@fieldcast/schemas';
import { observationsService } from '../src/definition.js';
import { publish, publishBytes, publishText, readBack, site } from './observation-sets-client.js';

const t = useTestFleet([observationsService]);
const app = () => t.fleet.app('observations');

const valid = () => ({ sites: [site('a', ['2026-05-01T12:00:00Z'])], tags: { station: 'a' } });
/** A valid set whose first site's first observation's variables are `variables`. */
const withVariable = (...variables: Record<string, unknown>[]) => ({
  sites: [{ ...site('a', []), observations: [{ time: '2026-05-01T12:00:00Z', variables }] }],
});
const withTime = (time: unknown) => ({
  sites: [{ ...site('a', []), observations: [{ time, variables: [{ name: 'temperature', unit: 'celsius', value: 1 }] }] }],
});
const withSite = (changes: Record<string, unknown>) => ({ sites: [{ ...site('a', ['2026-05-01T12:00:00Z']), ...changes }] });
const temperature = { name: 'temperature', unit: 'celsius', value: 1 };

async function storedCounts() {
  const count = async (table: string) =>
    Number((await t.fleet.db.knex.withSchema('observations').table(table).count({ n: '*' }).first())?.n);
  return { sets: await count('observation_sets'), days: await count('observation_days'), outbox: await count('outbox') };
}

/** Each body, its 422 fault paths (docs/interface.md §8: faults are 422 with their path). */
const FAULTS: [string, unknown, string[]][] = [
  ['no site', { sites: [] }, ['sites']],
  ['sites not an array', { sites: {} }, ['sites']],
  ['a site that is no object', { sites: [5] }, ['sites.0']],
  [
    'a repeated site id',
    { sites: [site('a', ['2026-05-01T00:00:00Z']), site('b', ['2026-05-01T00:00:00Z']), site('a', ['2026-05-01T00:00:00Z'])] },
    ['sites.2.id'],
  ],
  ['an empty site id', withSite({ id: '' }), ['sites.0.id']],
  ['a site id that is a number', withSite({ id: 7 }), ['sites.0.id']],
  ['a site id with NUL', withSite({ id: 'a\u0000' }), ['sites.0.id']],
  ['latitude above 90', withSite({ latitude: 90.000001 }), ['sites.0.latitude']],
  ['latitude below -90', withSite({ latitude: -91 }), ['sites.0.latitude']],
  ['longitude above 180', withSite({ longitude: 180.5 }), ['sites.0.longitude']],
  ['longitude below -180', withSite({ longitude: -181 }), ['sites.0.longitude']],
  ['latitude as a string', withSite({ latitude: '41.5' }), ['sites.0.latitude']],
  ['no elevation', withSite({ elevation: undefined }), ['sites.0.elevation']],
  ['elevation null', withSite({ elevation: null }), ['sites.0.elevation']],
  ['a site member not in the spec', withSite({ name: 'Ames' }), ['sites.0']],
  ['a site without observations', withSite({ observations: [] }), ['sites.0.observations']],
  ['a time without a zone', withTime('2026-05-01T12:00:00'), ['sites.0.observations.0.time']],
  ['a date for a time', withTime('2026-05-01'), ['sites.0.observations.0.time']],
  ['a day that does not exist', withTime('2026-02-29T12:00:00Z'), ['sites.0.observations.0.time']],
  ['hour 24', withTime('2026-05-01T24:00:00Z'), ['sites.0.observations.0.time']],
  ['a leap second', withTime('2016-12-31T23:59:60Z'), ['sites.0.observations.0.time']],
  ['an offset of 24 hours', withTime('2026-05-01T12:00:00+24:00'), ['sites.0.observations.0.time']],
  ['a time in words', withTime('yesterday'), ['sites.0.observations.0.time']],
  ['a time as epoch seconds', withTime(1777636800), ['sites.0.observations.0.time']],
  // A summary shows its times in UTC as RFC 3339 writes them, four digits of year (section 5.6).
  ['a time before the year 0000 in UTC', withTime('0000-01-01T00:59:59+01:00'), ['sites.0.observations.0.time']],
  ['a time after the year 9999 in UTC', withTime('9999-12-31T23:30:00-00:31'), ['sites.0.observations.0.time']],
  [
    'a value repeated at one site and instant',
    {
      sites: [
        {
          ...site('a', []),
          observations: [
            { time: '2026-05-01T12:00:00Z', variables: [temperature, { ...temperature, method: 'maximum', interval: 3600 }] },
            // The same instant in another zone, as a logger that stamps the hour after a clock change twice writes it.
            { time: '2026-05-01T14:00:00+02:00', variables: [{ ...temperature, value: 2 }] },
          ],
        },
      ],
    },
    ['sites.0.observations.1.variables.0'],
  ],
  [
    'an aggregated value repeated within one observation',
    withVariable({ ...temperature, method: 'sum', interval: 60 }, { ...temperature, method: 'sum', interval: 60 }),
    ['sites.0.observations.0.variables.1'],
  ],
  [
    'no variables',
    { sites: [{ ...site('a', []), observations: [{ time: '2026-05-01T12:00:00Z', variables: [] }] }] },
    ['sites.0.observations.0.variables'],
  ],
  ['no time', { sites: [{ ...site('a', []), observations: [{ variables: [temperature] }] }] }, ['sites.0.observations.0.time']],
  ['an unknown variable', withVariable({ ...temperature, name: 'airTemperature' }), ['sites.0.observations.0.variables.0.name']],
  ['a unit not of its variable', withVariable({ ...temperature, unit: 'fahrenheit' }), ['sites.0.observations.0.variables.0.unit']],
  ['a known unit of another variable', withVariable({ ...temperature, unit: 'mm' }), ['sites.0.observations.0.variables.0.unit']],
  ['a value as a string', withVariable({ ...temperature, value: '1' }), ['sites.0.observations.0.variables.0.value']],
  ['a null value', withVariable({ ...temperature, value: null }), ['sites.0.observations.0.variables.0.value']],
  ['no value', withVariable({ name: 'temperature', unit: 'celsius' }), ['sites.0.observations.0.variables.0.value']],
  ['a method without an interval', withVariable({ ...temperature, method: 'sum' }), ['sites.0.observations.0.variables.0.interval']],
  ['an interval without a method', withVariable({ ...temperature, interval: 60 }), ['sites.0.observations.0.variables.0.method']],
  ['an unknown method', withVariable({ ...temperature, method: 'mean', interval: 60 }), ['sites.0.observations.0.variables.0.method']],
  ['an interval of 0', withVariable({ ...temperature, method: 'sum', interval: 0 }), ['sites.0.observations.0.variables.0.interval']],
  ['a negative interval', withVariable({ ...temperature, method: 'sum', interval: -60 }), ['sites.0.observations.0.variables.0.interval']],
  [
    'a fractional interval',
    withVariable({ ...temperature, method: 'sum', interval: 1.5 }),
    ['sites.0.observations.0.variables.0.interval'],
  ],
  [
    'an interval past the whole numbers a double holds exactly',
    withVariable({ ...temperature, method: 'sum', interval: 2 ** 53 }),
    ['sites.0.observations.0.variables.0.interval'],
  ],
  [
    'an interval as a string',
    withVariable({ ...temperature, method: 'sum', interval: '60' }),
    ['sites.0.observations.0.variables.0.interval'],
  ],
  ['a variable member not in the spec', withVariable({ ...temperature, quality: 'good' }), ['sites.0.observations.0.variables.0']],
  ['tags not an object', { ...valid(), tags: ['a'] }, ['tags']],
  ['a tag value that is a number', { ...valid(), tags: { a: 1 } }, ['tags.a']],
  ['a tag value that is null', { ...valid(), tags: { a: null } }, ['tags.a']],
  ['an empty tag name', { ...valid(), tags: { '': 'x' } }, ['tags.']],
  ['a tag value over 256 characters', { ...valid(), tags: { a: 'x'.repeat(257) } }, ['tags.a']],
  // JSON.parse makes `__proto__` an own member, a tag like any other (an object literal would not).
  ['a tag __proto__ that is a number', { ...valid(), tags: JSON.parse('{"__proto__":5}') }, ['tags.__proto__']],
  ['a tag __proto__ that is an object', { ...valid(), tags: JSON.parse('{"__proto__":{"a":"b"}}') }, ['tags.__proto__']],
  ['a tag __proto__ over 256 characters', { ...valid(), tags: JSON.parse(`{"__proto__":"${'x'.repeat(257)}"}`) }, ['tags.__proto__']],
  [
    `${MAX_TAGS} tags and __proto__`,
    {
      ...valid(),
      tags: { ...Object.fromEntries(Array.from({ length: MAX_TAGS }, (_, i) => [`t${i}`, 'v'])), ...JSON.parse('{"__proto__":"p"}') },
    },
    ['tags'],
  ],
  [
    `${MAX_TAGS + 1} tags`,
    { ...valid(), tags: Object.fromEntries(Array.from({ length: MAX_TAGS + 1 }, (_, i) => [`t${i}`, 'v'])) },
    ['tags'],
  ],
];

describe('observation sets: each fault is 422 with its path, nothing stored (docs/interface.md §8)', () => {
  it.each(FAULTS)('%s', async (_name, body, paths) => {
    const res = await publish(app(), t.alice, body);
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ id: 'invalid_observation_set', status: 422 });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(paths);
    for (const e of res.body.errors) expect(e.message).toEqual(expect.any(String));
    expect(await storedCounts()).toEqual({ sets: 0, days: 0, outbox: 0 });
  });

  it('names every fault of a body that has several', async () => {
    const body = {
      sites: [withSite({ latitude: 100 }).sites[0], { ...withSite({ longitude: 200 }).sites[0], id: 'b' }],
      tags: { a: 5 },
    };
    const res = await publish(app(), t.alice, body);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['sites.0.latitude', 'sites.1.longitude', 'tags.a']);
  });

  it('a value too large for a number (1e999) is no finite value', async () => {
    const text = JSON.stringify(withVariable(temperature)).replace('"value":1', '"value":1e999');
    const res = await publishText(app(), t.alice, text);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: 'sites.0.observations.0.variables.0.value', message: expect.stringMatching(/finite/) }]);
    expect((await storedCounts()).sets).toBe(0);
  });

  it('the messages say what is expected', async () => {
    const res = await publish(app(), t.alice, withVariable({ ...temperature, unit: 'fahrenheit', method: 'sum' }));
    expect(res.body.errors).toEqual([
      { path: 'sites.0.observations.0.variables.0.unit', message: 'the unit of temperature is celsius' },
      {
        path: 'sites.0.observations.0.variables.0.interval',
        message: 'an aggregated value carries both method and interval; interval is missing',
      },
    ]);
  });

  it('a site member that is missing is told so, not that it has the wrong type', async () => {
    const { latitude: _lat, elevation: _elev, id: _id, ...rest } = site('a', ['2026-05-01T12:00:00Z']);
    const missing = await publish(app(), t.alice, { sites: [rest] });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      { path: 'sites.0.id', message: 'is missing: must be a string' },
      { path: 'sites.0.latitude', message: 'is missing: must be a finite number' },
      { path: 'sites.0.elevation', message: 'is missing: must be a finite number' },
    ]);
    const wrong = await publish(app(), t.alice, withSite({ id: 7, elevation: '300' }));
    expect(wrong.body.errors).toEqual([
      { path: 'sites.0.id', message: 'must be a string, not a number' },
      { path: 'sites.0.elevation', message: 'elevation must be a finite number' },
    ]);
    expect((await storedCounts()).sets).toBe(0);
  });

  it('a tag name at fault is told what is wrong with it', async () => {
    for (const [name, message] of [
      ['x'.repeat(65), 'a tag name is at most 64 characters'],
      ['', 'a tag name must not be empty'],
      ['a\u0000', 'must not contain the character U+0000 (NUL)'],
    ]) {
      const res = await publish(app(), t.alice, { ...valid(), tags: { [name!]: 'v' } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ path: `tags.${name}`, message }]);
    }
    const notObject = await publish(app(), t.alice, { ...valid(), tags: 'a' });
    expect(notObject.body.errors).toEqual([{ path: 'tags', message: 'must be an object of string names to string values' }]);
  });

  it('20 tags, the edge values and every known variable are accepted', async () => {
    const variables = (await request(app()).get('/observation-sets/variables').set('Authorization', t.alice.auth)).body as {
      name: string;
      unit: string;
    }[];
    const body = {
      sites: [
        {
          ...withSite({ latitude: 90, longitude: -180, elevation: -430.5 }).sites[0],
          observations: [{ time: '2026-05-01T12:00Z', variables: variables.map((v) => ({ name: v.name, unit: v.unit, value: -1e-300 })) }],
        },
      ],
      tags: Object.fromEntries(Array.from({ length: MAX_TAGS }, (_, i) => [`t${i}`, 'x'.repeat(256)])),
    };
    const res = await publish(app(), t.alice, body);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.tags)).toHaveLength(MAX_TAGS);
  });

  it('limits count characters: a site id, a tag name and a value outside the BMP at their limits are accepted, one more refused (decision 0485)', async () => {
    const corn = '\u{1F33D}'; // one character, two UTF-16 code units
    const body = { sites: [site(corn.repeat(256), ['2026-05-01T12:00:00Z'])], tags: { [corn.repeat(64)]: corn.repeat(256) } };
    const res = await publish(app(), t.alice, body);
    expect(res.status).toBe(201);
    expect((await readBack(app(), t.alice, res.body.id)).body).toEqual(body);
    for (const [over, path] of [
      [{ ...body, sites: [site(corn.repeat(257), ['2026-05-01T12:00:00Z'])] }, 'sites.0.id'],
      [{ ...body, tags: { [corn.repeat(65)]: 'v' } }, `tags.${corn.repeat(65)}`],
      [{ ...body, tags: { a: corn.repeat(257) } }, 'tags.a'],
    ] as const) {
      const refused = await publish(app(), t.alice, over);
      expect([refused.status, refused.body.errors.map((e: { path: string }) => e.path)]).toEqual([422, [path]]);
    }
  });
});

describe('observation sets: one value per site, instant, variable and aggregation', () => {
  it('the same variable at one instant with other aggregations, at other sites or other instants is accepted', async () => {
    const body = {
      sites: [
        {
          ...site('a', []),
          observations: [
            {
              time: '2026-05-01T12:00:00Z',
              variables: [
                temperature,
                { ...temperature, method: 'minimum', interval: 3600 },
                { ...temperature, method: 'maximum', interval: 3600 },
                { ...temperature, method: 'maximum', interval: 86400 },
              ],
            },
            // The same time text again, with another variable: one instant may be split over entries.
            { time: '2026-05-01T12:00:00Z', variables: [{ name: 'relativeHumidity', unit: 'percent', value: 80 }] },
            { time: '2026-05-01T12:00:00.001Z', variables: [temperature] },
          ],
        },
        { ...site('b', []), observations: [{ time: '2026-05-01T12:00:00Z', variables: [temperature] }] },
      ],
    };
    const res = await publish(app(), t.alice, body);
    expect(res.status).toBe(201);
  });

  it('a repeat names the value it repeats', async () => {
    const res = await publish(app(), t.alice, withVariable(temperature, { ...temperature, value: 2 }));
    expect(res.body.errors).toEqual([
      {
        path: 'sites.0.observations.0.variables.1',
        message: expect.stringContaining('sites.0.observations.0.variables.0'),
      },
    ]);
  });
});

describe('observation sets: times at the edges (RFC 3339 section 5.6)', () => {
  it('the first and last instants of the years 0000 to 9999 in UTC are accepted and shown with four-digit years', async () => {
    const body = { sites: [site('a', ['0000-01-01T01:00:00+01:00', '9999-12-31T23:59:59.999999Z'])] };
    const res = await publish(app(), t.alice, body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      earliestObservationTime: '0000-01-01T00:00:00.000Z',
      latestObservationTime: '9999-12-31T23:59:59.999Z',
    });
  });

  it('a fraction of any length is accepted and read to the microsecond (time-secfrac is "." 1*DIGIT)', async () => {
    const res = await publish(app(), t.alice, withTime('2026-05-01T12:00:00.9999999999Z'));
    expect(res.status).toBe(201);
    expect(res.body.latestObservationTime).toBe('2026-05-01T12:00:00.999Z');
  });
});

describe('observation sets: a body of the wrong shape is 400, nothing stored', () => {
  it.each([
    ['an array', [valid()], 'invalid_body'],
    // Valid JSON (RFC 8259 §2 takes any value), of the wrong shape.
    ['a string', 'sites', 'invalid_body'],
    ['a member besides sites and tags', { ...valid(), id: '3f1c2a70-0000-4000-8000-000000000000' }, 'invalid_body'],
    ['creationTime sent by the caller', { ...valid(), creationTime: '2026-05-01T00:00:00Z' }, 'invalid_body'],
  ])('%s', async (_name, body, id) => {
    const res = await publishText(app(), t.alice, JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(res.body.id).toBe(id);
    expect(await storedCounts()).toEqual({ sets: 0, days: 0, outbox: 0 });
  });

  // Each body, and words its one fault's message holds: the shape's faults alone, whatever else is
  // wrong inside sites or tags, each at the body's own path.
  it.each([
    ['an empty body', '', /the request has no body/],
    ['an empty object', '{}', /sites is missing/],
    ['tags without sites', '{"tags":{"a":1}}', /sites is missing/],
    ['null', 'null', /must be a JSON object/],
    ['a number', '5', /must be a JSON object/],
    [
      'an unknown member beside sites that are no array',
      '{"sites":"abc","extra":1}',
      /^"extra" is not a member this object takes: a set has only sites and tags$/,
    ],
    ['unknown members beside bad sites and tags', '{"sites":[5],"tags":[],"b":1,"a":2}', /"b", "a"/],
    ['an unknown member, no sites', '{"site":[]}', /"site"/],
  ])('%s: 400 invalid_body naming the fault, not the content', async (_name, text, message) => {
    const res = await publishText(app(), t.alice, text);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ id: 'invalid_body', status: 400 });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(text === '{"site":[]}' ? ['', ''] : ['']);
    expect(res.body.errors[0].message).toMatch(message);
    expect(await storedCounts()).toEqual({ sets: 0, days: 0, outbox: 0 });
  });

  it('text that is not JSON is 400 malformed_json; a body in another media type 415', async () => {
    const res = await publishText(app(), t.alice, '{"sites": [');
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('malformed_json');
    const text = await request(app())
      .post('/observation-sets')
      .set('Authorization', t.alice.auth)
      .set('Content-Type', 'text/plain')
      .send('x');
    expect(text.status).toBe(415);
    expect(await storedCounts()).toEqual({ sets: 0, days: 0, outbox: 0 });
  });

  it('bytes that are not UTF-8 are 400 malformed_json, not stored with a replacement character (RFC 8259 section 8.1)', async () => {
    // A site id written in ISO 8859-1 by a logger ("Zürich", ü as the one byte 0xFC).
    const [head, tail] = JSON.stringify({ sites: [site('Z?rich', ['2026-05-01T12:00:00Z'])] }).split('?');
    const withBytes = (bytes: number[]) => Buffer.concat([Buffer.from(head!), Buffer.from(bytes), Buffer.from(tail!)]);
    // Latin-1, an encoded surrogate (RFC 3629 section 3), an overlong '/', a truncated sequence.
    for (const bad of [[0xfc], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xe2, 0x82]]) {
      const res = await publishBytes(app(), t.alice, withBytes(bad));
      expect([bad, res.status, res.body.id]).toEqual([bad, 400, 'malformed_json']);
      expect(res.body.message).toMatch(/UTF-8/);
    }
    // Gzipped, the text inside is what must be UTF-8.
    const zipped = await publishBytes(app(), t.alice, gzipSync(withBytes([0xfc])), { 'Content-Encoding': 'gzip' });
    expect([zipped.status, zipped.body.id]).toEqual([400, 'malformed_json']);
    expect(await storedCounts()).toEqual({ sets: 0, days: 0, outbox: 0 });
    // The same text in UTF-8 is stored and read back as sent.
    const good = await publishBytes(app(), t.alice, withBytes([0xc3, 0xbc]));
    expect(good.status).toBe(201);
    expect((await readBack(app(), t.alice, good.body.id!)).body.sites[0].id).toBe('Zürich');
  });

  it('a body in gzip or br is read decoded; one that does not decode is 400 malformed_body_encoding', async () => {
    const text = Buffer.from(JSON.stringify(valid()));
    for (const [coding, encode] of [
      ['gzip', gzipSync],
      ['br', brotliCompressSync],
    ] as const) {
      const res = await publishBytes(app(), t.alice, encode(text), { 'Content-Encoding': coding });
      expect([coding, res.status]).toEqual([coding, 201]);
      const broken = await publishBytes(app(), t.alice, Buffer.from('not compressed at all, surely'), { 'Content-Encoding': coding });
      expect([coding, broken.status, broken.body.id]).toEqual([coding, 400, 'malformed_body_encoding']);
    }
  });

  it('without credentials: 401 and nothing stored', async () => {
    const res = await request(app()).post('/observation-sets').send(valid());
    expect(res.status).toBe(401);
    expect(await storedCounts()).toEqual({ sets: 0, days: 0, outbox: 0 });
  });
});

describe('observation set lists: a bad period bound is refused in the API’s words', () => {
  it.each([
    [
      'start',
      'start=2026-05-01&start=2026-05-02',
      'start must be given once, as ' + 'an ISO 8601 timestamp with a zone (2026-05-01T12:00:00Z) or a date (2026-05-01)',
    ],
    ['end', 'end=junk', 'end must be an ISO 8601 timestamp with a zone (2026-05-01T12:00:00Z) or a date (2026-05-01)'],
  ])('%s: %s', async (path, query, message) => {
    const res = await request(app()).get(`/observation-sets?${query}`).set('Authorization', t.alice.auth);
    expect([res.status, res.body.errors]).toEqual([400, [{ path, message }]]);
  });
});

describe('observation set lists: a bad cursor is refused in the API’s words', () => {
  const id = '3f1c2a70-0000-4000-8000-000000000000';
  it.each([
    // Two UUIDs: each is one, so "must be a UUID" would send the caller looking at the wrong fault.
    [`before=${id}&before=${id.replace(/0$/, '1')}`, 'before must be given once, as the id of an observation set (a UUID)'],
    ['before=x', 'before must be the id of an observation set (a UUID)'],
    ['before=', 'before must be the id of an observation set (a UUID)'],
  ])('%s', async (query, message) => {
    const res = await request(app()).get(`/observation-sets?${query}`).set('Authorization', t.alice.auth);
    expect([res.status, res.body.id, res.body.errors]).toEqual([400, 'invalid_parameter', [{ path: 'before', message }]]);
  });
});
