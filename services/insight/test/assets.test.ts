import request from 'supertest';
import { type TestAccount, useTestFleet } from '@fieldcast/runtime/testing';
import { insightService } from '../src/definition.js';

const JSON_V1 = 'application/vnd.fieldcast+json; version=1';
const square = (lon: number, lat: number, size = 0.01) => [
  [lon, lat],
  [lon + size, lat],
  [lon + size, lat + size],
  [lon, lat + size],
  [lon, lat],
];
const polygon = (rings: number[][][] = [square(-93.5, 42.0)]) => ({ type: 'Polygon', coordinates: rings });
const assetBody = (geometry: unknown = polygon(), properties: unknown = { crop: 'corn' }) => ({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', geometry, properties }],
});

const t = useTestFleet([insightService]);
const app = () => t.fleet.app('insight');

const create = (account: TestAccount, body: unknown = assetBody()) =>
  request(app())
    .post('/assets')
    .set('Authorization', account.auth)
    .set('Accept', JSON_V1)
    .send(body as object);
const read = (account: TestAccount, path: string) => request(app()).get(path).set('Authorization', account.auth);

async function countAssets() {
  const row = await t.fleet.db.knex.withSchema('insight').table('assets').count({ n: '*' }).first();
  return Number(row?.n);
}

/**
 * A square of `km2` square kilometres from the equator north, s degrees a side. @turf/area
 * measures on a sphere of radius 6,371.0088 km (@turf/helpers earthRadius), where a latitude-longitude rectangle from the
 * equator has area R² Δλ sin φ; with Δλ = φ = s (radians), s sin s = km2 / R², solved by bisection.
 */
function equatorSquare(km2: number) {
  const target = km2 / 6371.0088 ** 2;
  let lo = 0,
    hi = 0.2;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (mid * Math.sin(mid) < target) lo = mid;
    else hi = mid;
  }
  return square(10, 0, (lo * 180) / Math.PI);
}

describe('assets: the spec shapes (spec 2.2, 4.4)', () => {
  it('creates an asset: 201, Polygon in, MultiPolygon out, centroid and the tags as description', async () => {
    const res = await create(t.alice);
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/vnd.fieldcast+json; version=1; charset=utf-8');
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'GeometryCollection',
      geometries: [{ type: 'MultiPolygon', coordinates: [[square(-93.5, 42.0)]] }],
      centroid: { latitude: expect.closeTo(42.005, 10), longitude: expect.closeTo(-93.495, 10) },
      description: { crop: 'corn' },
    });
  });

  it.each([
    ['null', null],
    ['{}', {}],
    ['absent', undefined],
  ])('properties %s means no tags: description {}', async (_name, properties) => {
    const body = assetBody();
    if (properties === undefined) delete (body.features[0] as { properties?: unknown }).properties;
    else body.features[0]!.properties = properties as never;
    const res = await create(t.alice, body);
    expect(res.status).toBe(201);
    expect(res.body.description).toEqual({});
  });

  it('keeps a hole, nested one level deeper', async () => {
    const hole = [
      [-93.498, 42.002],
      [-93.498, 42.004],
      [-93.496, 42.004],
      [-93.496, 42.002],
      [-93.498, 42.002],
    ];
    const res = await create(t.alice, assetBody(polygon([square(-93.5, 42.0), hole])));
    expect(res.status).toBe(201);
    expect(res.body.geometries[0].coordinates).toEqual([[square(-93.5, 42.0), hole]]);
  });

  it('lists the caller’s assets oldest first; reads, replaces and deletes one', async () => {
    const a = (await create(t.alice, assetBody(polygon(), { n: '1' }))).body;
    const b = (await create(t.alice, assetBody(polygon([square(1, 1)]), { n: '2' }))).body;
    await create(t.bob);
    const list = await read(t.alice, '/assets');
    expect(list.status).toBe(200);
    expect(list.body.map((x: { id: string }) => x.id)).toEqual([a.id, b.id]);
    expect((await read(t.alice, `/assets/${a.id}`)).body).toEqual(a);
    const put = await request(app())
      .put(`/assets/${a.id}`)
      .set('Authorization', t.alice.auth)
      .send(assetBody(polygon([square(5, 5)]), { n: 'one' }));
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      id: a.id,
      description: { n: 'one' },
      geometries: [{ type: 'MultiPolygon', coordinates: [[square(5, 5)]] }],
    });
    expect(put.body.centroid.latitude).toBeCloseTo(5.005, 9);
    expect((await read(t.alice, `/assets/${a.id}`)).body).toEqual(put.body);
    const del = await request(app()).delete(`/assets/${a.id}`).set('Authorization', t.alice.auth);
    expect(del.status).toBe(200);
    expect(del.body).toEqual(put.body);
    expect((await read(t.alice, `/assets/${a.id}`)).status).toBe(404);
    expect((await read(t.alice, '/assets')).body.map((x: { id: string }) => x.id)).toEqual([b.id]);
  });

  it('a replace naming a stale ETag in If-Match is 412 and changes nothing; the current one replaces (RFC 9110 section 13.1.1)', async () => {
    const made = await create(t.alice);
    const tag = (await read(t.alice, `/assets/${made.body.id}`)).headers.etag as string;
    expect(made.headers.etag).toBe(tag);
    const put = (properties: object, ifMatch: string) =>
      request(app())
        .put(`/assets/${made.body.id}`)
        .set('Authorization', t.alice.auth)
        .set('If-Match', ifMatch)
        .send(assetBody(polygon(), properties));
    const first = await put({ crop: 'soy' }, tag);
    expect(first.status).toBe(200);
    const second = await put({ crop: 'wheat' }, tag);
    expect(second.status).toBe(412);
    expect(second.body).toMatchObject({ id: 'precondition_failed' });
    const now = await read(t.alice, `/assets/${made.body.id}`);
    expect(now.body.description).toEqual({ crop: 'soy' });
    expect(now.headers.etag).toBe(first.headers.etag);
    expect((await put({ crop: 'wheat' }, first.headers.etag as string)).status).toBe(200);
  });

  it('the tags are in one order, by key, in every answer, so the create’s ETag is the read’s, whatever order the database keeps them in', async () => {
    // jsonb keeps an object's keys shorter first (PostgreSQL, "JSON Types"): answered as sent, a
    // read would differ from the create's answer, and so would the ETag If-Match compares
    const made = await create(t.alice, assetBody(polygon(), { longname: 'a', b: 'c', ab: 'corn' }));
    expect(Object.keys(made.body.description)).toEqual(['ab', 'b', 'longname']);
    const back = await read(t.alice, `/assets/${made.body.id}`);
    const listed = (await read(t.alice, '/assets')).body.find((a: { id: string }) => a.id === made.body.id);
    const tags = (body: { description: object }) => JSON.stringify(body.description);
    expect([tags(back.body), tags(listed), back.headers.etag]).toEqual([tags(made.body), tags(made.body), made.headers.etag]);
    const replaced = await request(app())
      .put(`/assets/${made.body.id}`)
      .set('Authorization', t.alice.auth)
      .set('If-Match', made.headers.etag as string)
      .send(assetBody(polygon(), { zz: '1', a: '2' }));
    expect(replaced.status).toBe(200);
    const after = await read(t.alice, `/assets/${made.body.id}`);
    expect([tags(after.body), after.headers.etag]).toEqual([tags(replaced.body), replaced.headers.etag]);
  });

  it('a created asset’s Location (RFC 9110 section 10.2.2) reads it back', async () => {
    const made = await create(t.alice);
    expect([made.status, made.headers.location]).toEqual([201, `/assets/${made.body.id}`]);
    const back = await read(t.alice, made.headers.location!);
    expect([back.status, back.body.id]).toEqual([200, made.body.id]);
  });

  it('an after given twice is told so, though both are UUIDs', async () => {
    const { id } = (await create(t.alice)).body;
    const res = await read(t.alice, `/assets?after=${id}&after=${id}`);
    expect([res.status, res.body.errors]).toEqual([
      400,
      [{ path: 'after', message: 'after must be given once, as the id of an item of the list (a UUID)' }],
    ]);
  });
});

describe('assets: ownership', () => {
  it('another account’s asset is 404 on read, update and delete, exactly like a missing one, and stays unchanged', async () => {
    const a = (await create(t.alice)).body;
    const missing = await read(t.bob, '/assets/00000000-0000-4000-8000-000000000000');
    const others = await read(t.bob, `/assets/${a.id}`);
    expect(others.status).toBe(404);
    expect(others.body.id).toBe('asset_does_not_exist');
    expect(others.body.id).toBe(missing.body.id);
    const put = await request(app())
      .put(`/assets/${a.id}`)
      .set('Authorization', t.bob.auth)
      .send(assetBody(polygon([square(5, 5)])));
    expect(put.status).toBe(404);
    const del = await request(app()).delete(`/assets/${a.id}`).set('Authorization', t.bob.auth);
    expect(del.status).toBe(404);
    expect((await read(t.alice, `/assets/${a.id}`)).body).toEqual(a);
    expect((await read(t.bob, '/assets')).body).toEqual([]);
  });
});

describe('assets: bad input is refused with the path of each fault, and nothing is stored', () => {
  const bowtie = [
    [0, 0],
    [1, 1],
    [1, 0],
    [0, 1],
    [0, 0],
  ];
  const feature = assetBody().features[0]!;
  it.each([
    ['not a FeatureCollection', { ...assetBody(), type: 'GeometryCollection' }, 'type'],
    ['a bare Feature', feature, 'type'],
    ['zero features', { type: 'FeatureCollection', features: [] }, 'features'],
    ['two features', { type: 'FeatureCollection', features: [feature, feature] }, 'features'],
    ['a feature that is no Feature', { type: 'FeatureCollection', features: [{ ...feature, type: 'Polygon' }] }, 'features.0.type'],
    ['a MultiPolygon', assetBody({ type: 'MultiPolygon', coordinates: [[square(0, 0)]] }), 'features.0.geometry.type'],
    ['a Point', assetBody({ type: 'Point', coordinates: [0, 0] }), 'features.0.geometry.type'],
    ['a tag value that is a number', assetBody(polygon(), { height: 3 }), 'features.0.properties.height'],
    ['a tag value that is null', assetBody(polygon(), { height: null }), 'features.0.properties.height'],
    ['properties that are an array', assetBody(polygon(), ['a']), 'features.0.properties'],
    ['101 tags', assetBody(polygon(), Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v']))), 'features.0.properties'],
    ['a tag key over 1,000 characters', assetBody(polygon(), { ['k'.repeat(1001)]: 'v' }), 'features.0.properties'],
    ['a tag value over 1,000 characters', assetBody(polygon(), { k: 'v'.repeat(1001) }), 'features.0.properties.k'],
    // an own member __proto__, as JSON.parse makes it (a literal would set the prototype): refused, not dropped
    ['a tag named __proto__', assetBody(polygon(), JSON.parse('{"__proto__": "x", "b": "y"}')), 'features.0.properties.__proto__'],
    ['an unclosed ring', assetBody(polygon([square(0, 0).slice(0, 4)])), 'features.0.geometry.coordinates.0'],
    ['a self-crossing ring', assetBody(polygon([bowtie])), 'features.0.geometry.coordinates.0'],
    [
      'a latitude out of range',
      assetBody(
        polygon([
          [
            [0, 0],
            [1, 0],
            [1, 91],
            [0, 0],
          ],
        ]),
      ),
      'features.0.geometry.coordinates.0',
    ],
  ])('%s: 422 invalid_geometry', async (_name, body, path) => {
    const res = await create(t.alice, body);
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.id).toBe('invalid_geometry');
    expect(res.body.errors.some((e: { path: string }) => e.path.startsWith(path))).toBe(true);
    expect(await countAssets()).toBe(0);
  });

  it.each([
    [
      'a Point',
      assetBody({ type: 'Point', coordinates: [0, 0] }),
      [{ path: 'features.0.geometry.type', message: 'each geometry must be a Polygon' }],
    ],
    [
      'a geometry without type',
      assetBody({ coordinates: [square(0, 0)] }),
      [{ path: 'features.0.geometry.type', message: 'each geometry must be a Polygon' }],
    ],
    [
      'a tag key over 1,000 characters',
      assetBody(polygon(), { ['k'.repeat(1001)]: 'v' }),
      [{ path: `features.0.properties.${'k'.repeat(1001)}`, message: 'a tag key has at most 1,000 characters' }],
    ],
    [
      'features left out',
      { type: 'FeatureCollection' },
      [{ path: 'features', message: 'an asset is a FeatureCollection of exactly one Feature' }],
    ],
    // the tag map is a JSON object (spec 2.2), named as this API names it, not as the schema library does
    [
      'properties that are an array',
      assetBody(polygon(), ['corn']),
      [{ path: 'features.0.properties', message: 'must be an object, not an array' }],
    ],
    [
      'properties that are a string',
      assetBody(polygon(), 'corn'),
      [{ path: 'features.0.properties', message: 'must be an object, not a string' }],
    ],
  ])('%s: one error at the path, in the API’s words', async (_name, body, errors) => {
    const res = await create(t.alice, body);
    expect(res.body.errors).toEqual(errors);
    expect(await countAssets()).toBe(0);
  });

  it.each([
    [
      'an edge across the antimeridian',
      [
        [179.5, 0],
        [-179.5, 0],
        [-179.5, 1],
        [179.5, 1],
        [179.5, 0],
      ],
      'features.0.geometry.coordinates.0.1',
    ],
    [
      'longitudes past 180',
      [
        [179.5, 0],
        [180.5, 0],
        [180.5, 1],
        [179.5, 1],
        [179.5, 0],
      ],
      'features.0.geometry.coordinates.0.1',
    ],
  ])('%s: 422 saying an asset, one Polygon, cannot be cut in two there (RFC 7946 section 3.1.9)', async (_name, ring, path) => {
    const res = await create(t.alice, assetBody(polygon([ring])));
    expect([res.status, res.body.id]).toEqual([422, 'invalid_geometry']);
    const fault = res.body.errors.find((e: { path: string }) => e.path === path);
    expect(fault.message).toMatch(/an asset is one Polygon.*one asset on each side of longitude ±180/);
    // never the advice to send two Polygons, which an asset refuses
    expect(res.body.errors.every((e: { message: string }) => !e.message.includes('two Polygons'))).toBe(true);
    expect(await countAssets()).toBe(0);
  });

  it('100 tags and tags of 1,000 characters are accepted', async () => {
    const tags = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`${i}`.padEnd(1000, 'k'), 'v'.repeat(1000)]));
    const res = await create(t.alice, assetBody(polygon(), tags));
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.description)).toHaveLength(100);
  });

  it('tag limits count characters: a key and a value of 1,000 outside the BMP are accepted, 1,001 refused (decision 0485)', async () => {
    const corn = '\u{1F33D}'; // one character, two UTF-16 code units
    const tags = { [corn.repeat(1000)]: corn.repeat(1000) };
    const res = await create(t.alice, assetBody(polygon(), tags));
    expect(res.status).toBe(201);
    expect((await read(t.alice, `/assets/${res.body.id}`)).body.description).toEqual(tags);
    const stored = await t.fleet.db.knex
      .withSchema('insight')
      .table('assets')
      .where({ id: res.body.id })
      .first(t.fleet.db.knex.raw(`char_length(tags ->> ?) as n`, [corn.repeat(1000)]));
    expect(stored.n).toBe(1000);
    const value = await create(t.alice, assetBody(polygon(), { crop: corn.repeat(1001) }));
    expect([value.status, value.body.errors]).toEqual([
      422,
      [{ path: 'features.0.properties.crop', message: expect.stringMatching(/at most 1,000 characters/) }],
    ]);
    const key = await create(t.alice, assetBody(polygon(), { [corn.repeat(1001)]: 'v' }));
    expect([key.status, key.body.errors.map((e: { path: string }) => e.path)]).toEqual([
      422,
      [`features.0.properties.${corn.repeat(1001)}`],
    ]);
    expect(await countAssets()).toBe(1);
  });

  it.each([
    ['an array', [assetBody()]],
    ['an array of nothing', []],
  ])('a body that is %s: 400 invalid_body', async (_name, body) => {
    const res = await request(app())
      .post('/assets')
      .set('Authorization', t.alice.auth)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(res.body.id).toBe('invalid_body');
    expect(await countAssets()).toBe(0);
  });

  // A request with no body has the wrong shape (docs/interface.md §1, 400; docs/decisions/0432):
  // it is told its body is missing, not that the FeatureCollection in it is invalid.
  it('a create, a replacement or a series batch sent without a body: 400 invalid_body naming the missing body, nothing stored', async () => {
    const a = (await create(t.alice)).body;
    const bare = [
      request(app()).post('/assets'),
      request(app()).post('/assets').set('Content-Type', 'application/json'),
      request(app()).put(`/assets/${a.id}`).set('Content-Type', 'application/json'),
      request(app()).post('/hourly-relative-humidity/batch'),
      request(app()).post('/hourly-evapotranspiration-short-crop/batch'),
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
    expect(await countAssets()).toBe(1);
    expect((await read(t.alice, `/assets/${a.id}`)).body).toEqual(a);
  });

  it('a bad PUT changes nothing', async () => {
    const a = (await create(t.alice)).body;
    const res = await request(app())
      .put(`/assets/${a.id}`)
      .set('Authorization', t.alice.auth)
      .send(assetBody(polygon([bowtie])));
    expect(res.status).toBe(422);
    expect((await read(t.alice, `/assets/${a.id}`)).body).toEqual(a);
  });
});

describe('assets: the area limit of 65,000 km² (spherical, as @turf/area measures it, holes subtracted)', () => {
  it('a polygon just under the limit is accepted', async () => {
    const res = await create(t.alice, assetBody(polygon([equatorSquare(64_990)])));
    expect(res.status).toBe(201);
  });

  it('a polygon just over is 422 asset_too_large, naming its area and the limit; nothing stored', async () => {
    const res = await create(t.alice, assetBody(polygon([equatorSquare(65_010)])));
    expect(res.status).toBe(422);
    expect(res.body.id).toBe('asset_too_large');
    expect(res.body.message).toMatch(/65,01\d\.\d km²/);
    expect(res.body.message).toContain('65,000 km²');
    expect(await countAssets()).toBe(0);
  });

  it('an area a hair over the limit is named with the decimals that show it over, never as the limit itself', async () => {
    const res = await create(t.alice, assetBody(polygon([equatorSquare(65_000.04)])));
    expect(res.status).toBe(422);
    const [, shown] = /covers ([\d,.]+) km²/.exec(res.body.message)!;
    expect(Number(shown!.replaceAll(',', ''))).toBeGreaterThan(65_000);
    expect(Number(/area ([\d,.]+) km²/.exec(res.body.errors[0].message)![1]!.replaceAll(',', ''))).toBeGreaterThan(65_000);
  });

  it('holes are subtracted: a shell over the limit with a hole that brings it under is accepted', async () => {
    const shell = equatorSquare(70_000);
    const side = shell[1]![0]! - shell[0]![0]!;
    const hole = square(10 + side / 4, side / 4, side / 2).reverse(); // a quarter of the shell's area
    const res = await create(t.alice, assetBody(polygon([shell, hole])));
    expect(res.status).toBe(201);
  });

  it('a PUT over the limit is refused and the asset stays as it was', async () => {
    const a = (await create(t.alice)).body;
    const res = await request(app())
      .put(`/assets/${a.id}`)
      .set('Authorization', t.alice.auth)
      .send(assetBody(polygon([equatorSquare(66_000)])));
    expect(res.status).toBe(422);
    expect(res.body.id).toBe('asset_too_large');
    expect((await read(t.alice, `/assets/${a.id}`)).body).toEqual(a);
  });
});

describe('assets: rings in right-hand order (RFC 7946 section 3.1.6)', () => {
  it('answers, stores and announces a clockwise Polygon counter-clockwise, centroid and area unchanged', async () => {
    const right = (await create(t.alice)).body;
    const res = await create(t.alice, assetBody(polygon([[...square(-93.5, 42.0)].reverse()])));
    expect(res.status).toBe(201);
    expect(res.body.geometries).toEqual([{ type: 'MultiPolygon', coordinates: [[square(-93.5, 42.0)]] }]);
    expect(res.body.centroid).toEqual(right.centroid);
    const rows = await t.fleet.db.knex
      .withSchema('insight')
      .table('assets')
      .whereIn('id', [right.id, res.body.id])
      .select('id', 'polygon', 'area_m2');
    const stored = new Map(rows.map((r) => [r.id, r]));
    const ring = (r: { polygon: unknown }) => (typeof r.polygon === 'string' ? JSON.parse(r.polygon) : r.polygon);
    expect(ring(stored.get(res.body.id)!)).toEqual([square(-93.5, 42.0)]);
    expect(stored.get(res.body.id)!.area_m2).toBeCloseTo(stored.get(right.id)!.area_m2, 6);
    const events = await t.fleet.db.knex.withSchema('insight').table('outbox').where('key', res.body.id).select('event');
    const event = typeof events[0]!.event === 'string' ? JSON.parse(events[0]!.event) : events[0]!.event;
    expect(event.data.resource.geometries).toEqual(res.body.geometries);
  });
});

describe('assets: events (docs/architecture.md §5)', () => {
  it('create, update and delete each write one event to fieldcast.insight.assets, keyed by the asset, owned by the account', async () => {
    const a = (await create(t.alice)).body;
    await request(app())
      .put(`/assets/${a.id}`)
      .set('Authorization', t.alice.auth)
      .send(assetBody(polygon(), { v: '2' }));
    await request(app()).delete(`/assets/${a.id}`).set('Authorization', t.alice.auth);
    const rows = await t.fleet.db.knex.withSchema('insight').table('outbox').orderBy('seq').select('topic', 'key', 'event');
    const events = rows.map((r) => (typeof r.event === 'string' ? JSON.parse(r.event) : r.event));
    expect(rows.every((r) => r.topic === 'fieldcast.insight.assets' && r.key === a.id)).toBe(true);
    expect(events.map((e) => e.type)).toEqual(['fieldcast.asset.created', 'fieldcast.asset.updated', 'fieldcast.asset.deleted']);
    expect(events.every((e) => e.subject === a.id && e.source === '/insight' && e.data.account === t.alice.id)).toBe(true);
    expect(events[1].data.resource.description).toEqual({ v: '2' });
    expect(events[2].data.resource.description).toEqual({ v: '2' });
    expect(events[0].data.related).toEqual([{ namespace: 'insight/assets', id: a.id }]);
  });

  it('a refused change writes no event', async () => {
    await create(t.alice, assetBody(polygon([equatorSquare(66_000)])));
    await create(t.alice, { type: 'FeatureCollection', features: [] });
    const row = await t.fleet.db.knex.withSchema('insight').table('outbox').count({ n: '*' }).first();
    expect(Number(row?.n)).toBe(0);
  });
});
