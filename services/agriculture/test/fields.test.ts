import request from 'supertest';
import { storedCharLength, type TestAccount, useTestFleet } from '@fieldcast/runtime/testing';
import { agricultureService } from '../src/definition.js';

const square = (lon: number, lat: number, size = 0.01) => [
  [lon, lat],
  [lon + size, lat],
  [lon + size, lat + size],
  [lon, lat + size],
  [lon, lat],
];
const fieldBody = (rings: number[][][] = [square(-93.5, 42.0)], description = 'North 40') => ({
  description,
  type: 'GeometryCollection',
  geometries: [{ type: 'Polygon', coordinates: rings }],
});
const JSON_V1 = 'application/vnd.fieldcast+json; version=1';

const app = () => t.fleet.app('agriculture');

const t = useTestFleet([agricultureService]);

async function create(account: TestAccount, body: unknown = fieldBody()) {
  return request(app())
    .post('/fields')
    .set('Authorization', account.auth)
    .set('Accept', JSON_V1)
    .send(body as object);
}

async function countFields() {
  const row = await t.fleet.db.knex.withSchema('agriculture').table('fields').count({ n: '*' }).first();
  return Number(row?.n);
}

describe('fields: the spec shapes (spec 2.1, 4.2)', () => {
  it('creates a field: 201, Polygon stored and returned as MultiPolygon, centroid from turf', async () => {
    const res = await create(t.alice);
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/vnd.fieldcast+json; version=1; charset=utf-8');
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      description: 'North 40',
      type: 'GeometryCollection',
      geometries: [{ type: 'MultiPolygon', coordinates: [[square(-93.5, 42.0)]] }],
      // @turf/centroid: mean of the four distinct vertices
      centroid: { latitude: expect.closeTo(42.005, 10), longitude: expect.closeTo(-93.495, 10) },
    });
  });

  it('centroid covers every geometry of the collection', async () => {
    const body = {
      ...fieldBody(),
      geometries: [
        { type: 'Polygon', coordinates: [square(10, 50)] },
        { type: 'Polygon', coordinates: [square(12, 52)] },
      ],
    };
    const res = await create(t.alice, body);
    expect(res.status).toBe(201);
    expect(res.body.geometries).toHaveLength(2);
    expect(res.body.centroid.longitude).toBeCloseTo(11.005, 9);
    expect(res.body.centroid.latitude).toBeCloseTo(51.005, 9);
  });

  it('keeps a polygon with a hole and nests both rings one level deeper', async () => {
    const hole = [
      [-93.498, 42.002],
      [-93.498, 42.004],
      [-93.496, 42.004],
      [-93.496, 42.002],
      [-93.498, 42.002],
    ];
    const res = await create(t.alice, fieldBody([square(-93.5, 42.0), hole]));
    expect(res.status).toBe(201);
    expect(res.body.geometries[0].coordinates).toEqual([[square(-93.5, 42.0), hole]]);
  });

  it('lists only the caller’s fields, oldest first', async () => {
    const a1 = (await create(t.alice, fieldBody(undefined, 'a1'))).body;
    const a2 = (await create(t.alice, fieldBody(undefined, 'a2'))).body;
    await create(t.bob, fieldBody(undefined, 'b1'));
    const res = await request(app()).get('/fields').set('Authorization', t.alice.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([a1, a2]);
  });

  it('reads, replaces and deletes a field', async () => {
    const created = (await create(t.alice)).body;
    const got = await request(app()).get(`/fields/${created.id}`).set('Authorization', t.alice.auth);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created);

    const replaced = await request(app())
      .put(`/fields/${created.id}`)
      .set('Authorization', t.alice.auth)
      .send(fieldBody([square(5, 5)], 'moved'));
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({
      id: created.id,
      description: 'moved',
      type: 'GeometryCollection',
      geometries: [{ type: 'MultiPolygon', coordinates: [[square(5, 5)]] }],
      centroid: { latitude: expect.closeTo(5.005, 9), longitude: expect.closeTo(5.005, 9) },
    });

    const removed = await request(app()).delete(`/fields/${created.id}`).set('Authorization', t.alice.auth);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual(replaced.body);
    const gone = await request(app()).get(`/fields/${created.id}`).set('Authorization', t.alice.auth);
    expect(gone.status).toBe(404);
    expect(gone.body.id).toBe('field_does_not_exist');
  });

  it('description defaults to empty text', async () => {
    const { description: _omit, ...body } = fieldBody();
    const res = await create(t.alice, body);
    expect(res.status).toBe(201);
    expect(res.body.description).toBe('');
  });

  it('description counts characters: 10,000 outside the BMP are stored as PostgreSQL counts them, 10,001 refused (decision 0485)', async () => {
    const corn = '\u{1F33D}'; // one character, two UTF-16 code units
    const res = await create(t.alice, fieldBody(undefined, corn.repeat(10_000)));
    expect(res.status).toBe(201);
    expect((await request(app()).get(`/fields/${res.body.id}`).set('Authorization', t.alice.auth)).body.description).toBe(
      corn.repeat(10_000),
    );
    expect(await storedCharLength(t.fleet, 'agriculture.fields', res.body.id, 'description')).toBe(10_000);
    const over = await create(t.alice, fieldBody(undefined, corn.repeat(10_001)));
    expect([over.status, over.body.errors]).toEqual([
      400,
      [{ path: 'description', message: 'description must be text of at most 10,000 characters' }],
    ]);
    expect(await countFields()).toBe(1);
  });
});

describe('fields: ownership', () => {
  it('another account gets 404 for read, replace and delete, and nothing changes', async () => {
    const created = (await create(t.alice)).body;
    for (const req of [
      request(app()).get(`/fields/${created.id}`),
      request(app())
        .put(`/fields/${created.id}`)
        .send(fieldBody([square(1, 1)], 'stolen')),
      request(app()).delete(`/fields/${created.id}`),
    ]) {
      const res = await req.set('Authorization', t.bob.auth);
      expect(res.status).toBe(404);
      expect(res.body.id).toBe('field_does_not_exist');
    }
    const still = await request(app()).get(`/fields/${created.id}`).set('Authorization', t.alice.auth);
    expect(still.body).toEqual(created);
  });

  it('an unknown id gets 404 and a malformed one 400', async () => {
    const unknown = await request(app()).get('/fields/3f1c2a7e-8b9d-4e6f-a1b2-c3d4e5f60718').set('Authorization', t.alice.auth);
    expect(unknown.status).toBe(404);
    expect(unknown.body.id).toBe('field_does_not_exist');
    const malformed = await request(app()).get('/fields/not-a-uuid').set('Authorization', t.alice.auth);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ id: 'invalid_parameter', status: 400, errors: [{ path: 'id', message: 'must be a UUID' }] });
  });
});

describe('fields: bad geometry gets 422 invalid_geometry with the path, and changes nothing', () => {
  const open = square(0, 0)
    .slice(0, 4)
    .concat([[0.005, 0.005]]);
  const bowtie = [
    [0, 0],
    [1, 1],
    [1, 0],
    [0, 1],
    [0, 0],
  ];
  const cases: [string, unknown, string][] = [
    ['type is not GeometryCollection', { ...fieldBody(), type: 'FeatureCollection' }, 'type'],
    ['geometries is empty', { ...fieldBody(), geometries: [] }, 'geometries'],
    [
      'a ring has fewer than 4 positions',
      fieldBody([
        [
          [0, 0],
          [1, 0],
          [0, 0],
        ],
      ]),
      'geometries.0.coordinates.0',
    ],
    ['a ring is not closed', fieldBody([open]), 'geometries.0.coordinates.0'],
    [
      'a ring closed on its longitude and latitude but not its altitude (RFC 7946 3.1.6: identical values)',
      fieldBody([[...square(0, 0).slice(0, 4), [0, 0, 7]]]),
      'geometries.0.coordinates.0',
    ],
    [
      'a ring whose last position drops the altitude of its first',
      fieldBody([[[0, 0, 7], ...square(0, 0).slice(1)]]),
      'geometries.0.coordinates.0',
    ],
    ['a longitude is out of range', fieldBody([square(180, 0)]), 'geometries.0.coordinates.0.1'],
    ['a latitude is out of range', fieldBody([square(0, 89.995)]), 'geometries.0.coordinates.0.2'],
    ['the ring intersects itself', fieldBody([bowtie]), 'geometries.0.coordinates.0'],
    ['a hole outside the exterior ring', fieldBody([square(0, 0), square(1, 1)]), 'geometries.0.coordinates.1'],
    ['two holes overlapping', fieldBody([square(0, 0, 1), square(0.2, 0.2, 0.3), square(0.3, 0.3, 0.3)]), 'geometries.0.coordinates.2'],
    [
      'a hole inside another hole',
      fieldBody([square(0, 0, 1), square(0.2, 0.2, 0.5), square(0.3, 0.3, 0.1)]),
      'geometries.0.coordinates.2',
    ],
    [
      'an edge across the antimeridian the long way (not cut, RFC 7946 3.1.9)',
      fieldBody([
        [
          [179.9, 0],
          [-179.9, 0],
          [-179.9, 0.1],
          [179.9, 0.1],
          [179.9, 0],
        ],
      ]),
      'geometries.0.coordinates.0.1',
    ],
    [
      'two polygons overlapping',
      {
        ...fieldBody(),
        geometries: [
          { type: 'Polygon', coordinates: [square(10, 50, 0.02)] },
          { type: 'Polygon', coordinates: [square(10.01, 50.01, 0.02)] },
        ],
      },
      'geometries.1',
    ],
    [
      'one polygon inside another',
      {
        ...fieldBody(),
        geometries: [
          { type: 'Polygon', coordinates: [square(10, 50, 0.1)] },
          { type: 'Polygon', coordinates: [square(10.03, 50.03)] },
        ],
      },
      'geometries.1',
    ],
    ['an entry is not a Polygon', { ...fieldBody(), geometries: [{ type: 'Point', coordinates: [0, 0] }] }, 'geometries.0.type'],
  ];
  it.each(cases)('%s', async (_name, body, path) => {
    const res = await create(t.alice, body);
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ id: 'invalid_geometry', status: 422, type: 'urn:fieldcast:problem:invalid_geometry' });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(await countFields()).toBe(0);
  });

  it.each([
    [
      'geometries left out',
      { type: 'GeometryCollection', description: 'North 40' },
      [{ path: 'geometries', message: 'geometries must be an array of 1 to 1,000 Polygons' }],
    ],
    [
      'geometries a string',
      { ...fieldBody(), geometries: 'x' },
      [{ path: 'geometries', message: 'geometries must be an array of 1 to 1,000 Polygons' }],
    ],
    [
      'an entry that is a Point',
      { ...fieldBody(), geometries: [{ type: 'Point', coordinates: [0, 0] }] },
      [{ path: 'geometries.0.type', message: 'each geometry must be a Polygon' }],
    ],
    [
      'a position of one number',
      fieldBody([[[0, 0], [1, 0], [1], [0, 0]]]),
      [{ path: 'geometries.0.coordinates.0.2', message: 'a position is [longitude, latitude]' }],
    ],
    [
      'a position that is a string',
      fieldBody([[[0, 0], [1, 0], 'x', [0, 1], [0, 0]]] as never),
      [{ path: 'geometries.0.coordinates.0.2', message: 'a position is [longitude, latitude]' }],
    ],
    [
      'a description that is a number',
      { ...fieldBody(), description: 5 },
      [{ path: 'description', message: 'description must be text of at most 10,000 characters' }],
    ],
  ])('%s: one error at the path, in the API’s words', async (_name, body, errors) => {
    const res = await create(t.alice, body);
    expect([res.status, res.body.errors]).toEqual([expect.any(Number), errors]);
    expect(res.status === 400 || res.status === 422).toBe(true);
    expect(await countFields()).toBe(0);
  });

  it('overlapping polygons: the error names both, and neither POST nor PUT stores or publishes anything', async () => {
    const overlapping = {
      ...fieldBody(),
      geometries: [square(10, 50, 0.02), square(20, 50), square(10.01, 50.01, 0.02)].map((ring) => ({
        type: 'Polygon',
        coordinates: [ring],
      })),
    };
    const res = await create(t.alice, overlapping);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { path: 'geometries.2', message: expect.stringMatching(/polygon 2 overlaps polygon 0.*OGC Simple Features 6\.1\.14/) },
    ]);
    expect(await countFields()).toBe(0);

    const created = (await create(t.alice)).body;
    const put = await request(app()).put(`/fields/${created.id}`).set('Authorization', t.alice.auth).send(overlapping);
    expect(put.status).toBe(422);
    expect(put.body.errors.map((e: { path: string }) => e.path)).toEqual(['geometries.2']);
    expect((await request(app()).get(`/fields/${created.id}`).set('Authorization', t.alice.auth)).body).toEqual(created);
    const events = await t.fleet.db.knex.withSchema('agriculture').table('outbox').select('event');
    expect(events.map((r) => (typeof r.event === 'string' ? JSON.parse(r.event) : r.event).type)).toEqual(['fieldcast.field.created']);
  });

  it('polygons that touch (a shared edge, a single point) or lie apart are one valid field', async () => {
    const polygons = [square(10, 50), square(10.01, 50), square(10.02, 50.01), square(11, 51)];
    const res = await create(t.alice, { ...fieldBody(), geometries: polygons.map((ring) => ({ type: 'Polygon', coordinates: [ring] })) });
    expect(res.status).toBe(201);
    expect(res.body.geometries).toHaveLength(4);
  });

  it('a field cut at the antimeridian (RFC 7946 3.1.9) is accepted, its centroid at the antimeridian, not at longitude 0', async () => {
    const east = [
      [179.98, -17],
      [180, -17],
      [180, -16.98],
      [179.98, -16.98],
      [179.98, -17],
    ];
    const west = [
      [-180, -17],
      [-179.98, -17],
      [-179.98, -16.98],
      [-180, -16.98],
      [-180, -17],
    ];
    const res = await create(t.alice, {
      ...fieldBody(),
      geometries: [east, west].map((ring) => ({ type: 'Polygon', coordinates: [ring] })),
    });
    expect(res.status).toBe(201);
    expect(res.body.centroid.latitude).toBeCloseTo(-16.99, 9);
    expect(Math.abs(res.body.centroid.longitude)).toBeCloseTo(180, 9);
  });

  it('a bad replacement leaves the field as it was', async () => {
    const created = (await create(t.alice)).body;
    const res = await request(app())
      .put(`/fields/${created.id}`)
      .set('Authorization', t.alice.auth)
      .send({ ...fieldBody(), geometries: [] });
    expect(res.status).toBe(422);
    const still = await request(app()).get(`/fields/${created.id}`).set('Authorization', t.alice.auth);
    expect(still.body).toEqual(created);
  });
});

describe('fields: HTTP conventions (docs/architecture.md §3)', () => {
  it('no credentials: 401 with WWW-Authenticate and a problem body', async () => {
    const res = await request(app()).get('/fields');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    expect(res.body).toMatchObject({ id: 'unauthorized', status: 401, title: 'Unauthorized' });
  });

  it('a wrong key or a revoked key: 401', async () => {
    const wrong = await request(app())
      .get('/fields')
      .auth(t.alice.id, `${t.alice.key.slice(0, -4)}AAAA`);
    expect(wrong.status).toBe(401);
    await t.fleet.identity.revokeKey(t.alice.id, t.alice.key);
    const revoked = await request(app()).get('/fields').set('Authorization', t.alice.auth);
    expect(revoked.status).toBe(401);
  });

  it('version 2 or an unknown media type: 406; json and */* are served as version 1', async () => {
    for (const accept of ['application/vnd.fieldcast+json; version=2', 'text/html']) {
      const res = await request(app()).get('/fields').set('Authorization', t.alice.auth).set('Accept', accept);
      expect(res.status).toBe(406);
      expect(res.body.id).toBe('not_acceptable');
    }
    for (const accept of ['application/json', '*/*', 'application/vnd.fieldcast+json']) {
      const res = await request(app()).get('/fields').set('Authorization', t.alice.auth).set('Accept', accept);
      expect(res.status).toBe(200);
    }
  });

  it('malformed JSON: 400; wrong content type: 415; too large: 413; none of them stores anything', async () => {
    const malformed = await request(app())
      .post('/fields')
      .set('Authorization', t.alice.auth)
      .set('Content-Type', 'application/json')
      .send('{"type": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.id).toBe('malformed_json');
    const text = await request(app()).post('/fields').set('Authorization', t.alice.auth).set('Content-Type', 'text/plain').send('hello');
    expect(text.status).toBe(415);
    const huge = await create(t.alice, fieldBody(undefined, 'x'.repeat(1_100_000)));
    expect(huge.status).toBe(413);
    expect(huge.body.id).toBe('body_too_large');
    expect(await countFields()).toBe(0);
  });

  it.each(['null', '5', '"a field"', '[]'])('valid JSON that is no field (%s): 400 invalid_body, nothing stored', async (text) => {
    const res = await request(app()).post('/fields').set('Authorization', t.alice.auth).set('Content-Type', 'application/json').send(text);
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('invalid_body');
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect(await countFields()).toBe(0);
  });

  // RFC 7493 section 2.3: an object names each member once; read last-wins, the first value would
  // be dropped without a word (docs/interface.md §1, docs/decisions/0509).
  it("a field whose JSON names a member twice: 400 invalid_body with the duplicate's path, nothing stored", async () => {
    const polygon = JSON.stringify(fieldBody().geometries[0]!.coordinates);
    const text = `{"description":"North 40","type":"GeometryCollection","geometries":[{"type":"Polygon","coordinates":[],"coordinates":${polygon}}]}`;
    const res = await request(app()).post('/fields').set('Authorization', t.alice.auth).set('Content-Type', 'application/json').send(text);
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('invalid_body');
    expect(res.body.errors).toEqual([{ path: 'geometries.0.coordinates', message: expect.any(String) }]);
    expect(await countFields()).toBe(0);
  });

  // A request with no body has the wrong shape (docs/interface.md §1, 400; docs/decisions/0432):
  // it is told its body is missing, not that a geometry in it is invalid.
  it('a create, a replacement or a batch sent without a body: 400 invalid_body naming the missing body, nothing stored', async () => {
    const field = await create(t.alice);
    const bare = [
      request(app()).post('/fields'),
      request(app()).post('/fields').set('Content-Type', 'application/json'),
      request(app()).put(`/fields/${field.body.id}`).set('Content-Type', 'application/json'),
      request(app()).post('/growing-degree-days/batch'),
    ];
    for (const [k, req] of bare.entries()) {
      const res = await req.set('Authorization', t.alice.auth);
      expect({ k, status: res.status, id: res.body.id, errors: res.body.errors }).toEqual({
        k,
        status: 400,
        id: 'invalid_body',
        errors: [{ path: '', message: expect.stringContaining('no body') }],
      });
    }
    expect(await countFields()).toBe(1);
    expect((await request(app()).get(`/fields/${field.body.id}`).set('Authorization', t.alice.auth)).body).toEqual(field.body);
  });

  it('an unknown route: 404 problem', async () => {
    const res = await request(app()).get('/nowhere').set('Authorization', t.alice.auth);
    expect(res.status).toBe(404);
    expect(res.body.id).toBe('route_does_not_exist');
  });

  it('echoes X-Request-Id', async () => {
    const res = await request(app()).get('/fields').set('Authorization', t.alice.auth).set('X-Request-Id', 'abc-123');
    expect(res.headers['x-request-id']).toBe('abc-123');
  });
});

describe('fields: rings in right-hand order (RFC 7946 section 3.1.6)', () => {
  // A clockwise exterior ring and a counter-clockwise hole: RFC 7946 has parsers accept them,
  // and a producer answer the exterior counter-clockwise and holes clockwise.
  const hole = [
    [-93.498, 42.002],
    [-93.498, 42.004],
    [-93.496, 42.004],
    [-93.496, 42.002],
    [-93.498, 42.002],
  ];
  const reversed = (ring: number[][]) => [...ring].reverse();

  it('answers, stores and announces a field sent the other way round with its rings reversed, centroid and area unchanged', async () => {
    const right = (await create(t.alice, fieldBody([square(-93.5, 42.0), hole]))).body;
    const res = await create(t.alice, fieldBody([reversed(square(-93.5, 42.0)), reversed(hole)]));
    expect(res.status).toBe(201);
    expect(res.body.geometries).toEqual([{ type: 'MultiPolygon', coordinates: [[square(-93.5, 42.0), hole]] }]);
    expect(res.body.centroid).toEqual(right.centroid);
    expect((await request(app()).get(`/fields/${res.body.id}`).set('Authorization', t.alice.auth)).body).toEqual(res.body);
    const rows = await t.fleet.db.knex
      .withSchema('agriculture')
      .table('fields')
      .whereIn('id', [right.id, res.body.id])
      .select('id', 'polygons', 'area_m2');
    const stored = new Map(rows.map((r) => [r.id, r]));
    const polygons = (r: { polygons: unknown }) => (typeof r.polygons === 'string' ? JSON.parse(r.polygons) : r.polygons);
    expect(polygons(stored.get(res.body.id)!)).toEqual([[square(-93.5, 42.0), hole]]);
    expect(stored.get(res.body.id)!.area_m2).toBeCloseTo(stored.get(right.id)!.area_m2, 6);
    const events = await t.fleet.db.knex.withSchema('agriculture').table('outbox').where('key', res.body.id).select('event');
    const event = typeof events[0]!.event === 'string' ? JSON.parse(events[0]!.event) : events[0]!.event;
    expect(event.data.resource.geometries).toEqual(res.body.geometries);
  });

  it('gives a field sent with a position repeated in a row the centroid of the same ring without it', async () => {
    // the same ring, so the same place its degree days and chill are read at (decision 0521)
    const ring = square(-93.5, 42.0);
    const plain = (await create(t.alice, fieldBody([ring]))).body;
    const res = await create(t.alice, fieldBody([[ring[0]!, ring[1]!, ring[1]!, ...ring.slice(2)]]));
    expect(res.status).toBe(201);
    expect(res.body.geometries[0].coordinates[0][0]).toHaveLength(6); // stored and answered as sent
    expect(res.body.centroid).toEqual(plain.centroid);
  });

  it('answers a record stored the other way round in right-hand order too', async () => {
    const created = (await create(t.alice)).body;
    await t.fleet.db.knex
      .withSchema('agriculture')
      .table('fields')
      .where('id', created.id)
      .update({ polygons: JSON.stringify([[reversed(square(-93.5, 42.0))]]) });
    const res = await request(app()).get(`/fields/${created.id}`).set('Authorization', t.alice.auth);
    expect(res.body.geometries).toEqual([{ type: 'MultiPolygon', coordinates: [[square(-93.5, 42.0)]] }]);
  });
});

describe('fields: outbox (docs/architecture.md §5)', () => {
  it('each change writes its event in the same transaction, in order', async () => {
    const created = (await create(t.alice)).body;
    await request(app())
      .put(`/fields/${created.id}`)
      .set('Authorization', t.alice.auth)
      .send(fieldBody([square(1, 1)]));
    await request(app()).delete(`/fields/${created.id}`).set('Authorization', t.alice.auth);
    await create(t.alice, { ...fieldBody(), geometries: [] }); // rejected: no event
    const rows = await t.fleet.db.knex.withSchema('agriculture').table('outbox').orderBy('seq').select('topic', 'key', 'event');
    expect(rows.map((r) => (typeof r.event === 'string' ? JSON.parse(r.event) : r.event).type)).toEqual([
      'fieldcast.field.created',
      'fieldcast.field.updated',
      'fieldcast.field.deleted',
    ]);
    expect(rows.every((r) => r.topic === 'fieldcast.agriculture.fields' && r.key === created.id)).toBe(true);
    const event = typeof rows[0]!.event === 'string' ? JSON.parse(rows[0]!.event) : rows[0]!.event;
    expect(event).toMatchObject({
      specversion: '1.0',
      source: '/agriculture',
      subject: created.id,
      data: { account: t.alice.id, resource: created },
    });
  });
});
