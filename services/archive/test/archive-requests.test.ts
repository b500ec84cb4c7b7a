import request from 'supertest';
import { archiveBody } from '@fieldcast/schemas';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { archiveService } from '../src/definition.js';
import { blockRows } from '../src/domain/event-blocks.js';
import { ARCHIVE_TYPES } from '../src/domain/types.js';
import { get, NOW, register, STORM_DAY, STORM_DAY_END, STORM_POINT, STORM_REGION, STORM_TIMES } from './archive-client.js';

const t = useTestFleet([archiveService], { now: () => NOW });
let alice: { name: string; token: string };
beforeEach(async () => {
  alice = await register(t, 'alice');
});

const day = (type: string, request: string, query: Record<string, string> = {}) =>
  get(t, `/v2/${type}/${request}/${STORM_POINT}/${STORM_DAY}`, alice, { radius: '20', ...query });

describe('every type and request (docs/interface.md §11), checked against the documented schemas', () => {
  it.each(ARCHIVE_TYPES.map((type) => [type]))('%s: summary, latest and history on a storm day', async (type) => {
    const query: Record<string, string> = type === 'lightning' ? { types: 'cloud,ground' } : {};
    const summary = await day(type, 'summary', query);
    const history = await day(type, 'history', query);
    const latest = await day(type, 'latest', query);
    for (const res of [summary, history, latest]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      archiveBody(type).parse(res.body);
      expect(res.body.apiVersion).toMatch(/^2\.\d+\.\d+$/);
    }
    // summary: the one event day, its count that of the history, its first and last times the history's
    const [item] = summary.body.data.items;
    expect(summary.body.data.items).toHaveLength(1);
    // inclusive bounds, the same as the query's for the one event day asked
    const lastMs = new Date(Date.parse(STORM_DAY_END) - 1).toISOString();
    expect(item).toMatchObject({ date: STORM_DAY, begin: `${STORM_DAY}T06:00:00.000Z`, end: lastMs });
    expect(summary.body.data.query).toMatchObject({ begin: item.begin, end: item.end });
    const features = history.body.data.features;
    expect(features.length).toBeGreaterThan(0);
    expect(item.count).toBe(history.body.data.totalItems);
    const times = features.map((f: { properties: { time: string } }) => f.properties.time);
    expect(times).toEqual([...times].sort().reverse()); // newest first
    expect(item.firstTime).toBe(times.at(-1));
    if (type !== 'tornado') expect(item.lastTime).toBe(times[0]);
    // latest: the newest of the history
    expect(latest.body.data.features).toEqual([features[0]]);
    expect(latest.body.data.totalItems).toBe(history.body.data.totalItems);
    // GeoJSON: the record in properties, geometry at the record's place (a tornado: its track from touchdown)
    for (const f of features) {
      expect(f.id).toBe(f.properties.id);
      expect(f.properties.distance).toBeLessThanOrEqual(20);
      if (type === 'tornado') expect(f.geometry.coordinates.length).toBeGreaterThan(1);
      else expect(f.geometry.coordinates).toEqual([f.properties.longitude, f.properties.latitude]);
    }
  });

  it('type maxima of a summary are the maxima of its history', async () => {
    const summary = (await day('hailsize', 'summary')).body.data.items[0];
    const sizes = (await day('hailsize', 'history')).body.data.features.map(
      (f: { properties: { maxSizeMm: number } }) => f.properties.maxSizeMm,
    );
    expect(summary.maxSizeMm).toBe(Math.max(...sizes));
    expect(summary.maxSizeIn).toBeCloseTo(summary.maxSizeMm / 25.4, 2);
    // a gust's maxima in both of its records' units, as the hail's are
    const gusts = (await day('gustdur', 'summary')).body.data.items[0];
    const peaks = (await day('gustdur', 'history')).body.data.features.map(
      (f: { properties: { peakGustMs: number; peakGustKt: number } }) => f.properties,
    );
    expect(gusts.maxPeakGustMs).toBe(Math.max(...peaks.map((p: { peakGustMs: number }) => p.peakGustMs)));
    expect(gusts.maxPeakGustKt).toBe(Math.max(...peaks.map((p: { peakGustKt: number }) => p.peakGustKt)));
    const reports = (await day('stormreports', 'summary')).body.data.items[0];
    const kinds = (await day('stormreports', 'history')).body.data.features.map(
      (f: { properties: { reportType: string } }) => f.properties.reportType,
    );
    for (const k of ['hail', 'wind', 'tornado']) expect(reports[k]).toBe(kinds.filter((x: string) => x === k).length);
  });

  it('storm reports follow the US NWS severe criteria and carry their text', async () => {
    const features = (await day('stormreports', 'history')).body.data.features;
    for (const { properties: p } of features) {
      expect(p.remarks).toMatch(/\(synthetic\)$/);
      if (p.reportType === 'hail') expect(p.magnitude).toBeGreaterThanOrEqual(25.4);
      if (p.reportType === 'wind') expect(p.magnitude).toBeGreaterThanOrEqual(25.7);
    }
  });

  it('summary over the default range: 90 days before end, end now; empty days are left out, newest first', async () => {
    const res = await get(t, `/v2/hailsize/summary/${STORM_POINT}`, alice, { radius: '20' });
    expect(res.status).toBe(200);
    const { query, items } = res.body.data;
    expect(query).toEqual({
      type: 'hailsize',
      request: 'summary',
      location: STORM_POINT,
      radius: 20,
      units: 'miles',
      begin: new Date(NOW.getTime() - 90 * 86_400_000).toISOString(),
      end: NOW.toISOString(),
    });
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item.count).toBeGreaterThan(0);
    const dates = items.map((i: { date: string }) => i.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(dates).toContain(STORM_DAY);
  });

  it('a summary from a begin inside a tornado’s life: its days within begin..end, their counts the history’s (docs/decisions/0365-archive-summary-days.md)', async () => {
    const [tornado] = (await day('tornado', 'history')).body.data.features;
    const { time, endTime } = tornado.properties as { time: string; endTime: string };
    const begin = new Date((Date.parse(time) + Date.parse(endTime)) / 2).toISOString();
    const range = { radius: '20', begin, end: STORM_TIMES.end };
    const history = await get(t, `/v2/tornado/history/${STORM_POINT}`, alice, range);
    expect(history.body.data.features.map((f: { id: string }) => f.id)).toContain(tornado.id);
    const { query, items } = (await get(t, `/v2/tornado/summary/${STORM_POINT}`, alice, range)).body.data;
    expect(items.reduce((n: number, i: { count: number }) => n + i.count, 0)).toBe(history.body.data.totalItems);
    for (const item of items) {
      expect(Date.parse(item.begin)).toBeGreaterThanOrEqual(Date.parse(query.begin));
      expect(Date.parse(item.end)).toBeLessThanOrEqual(Date.parse(query.end));
    }
    expect(items.at(-1)).toMatchObject({ date: STORM_DAY, begin: query.begin });
  });

  it('latest of a place without events in the range is an empty FeatureCollection', async () => {
    // mid-Atlantic: storm reports come only from land
    const res = await get(t, '/v2/stormreports/latest/+35.0000-040.0000', alice, { radius: '20' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: 'FeatureCollection', totalItems: 0, features: [] });
  });
});

describe('places', () => {
  it('radius defaults to 1 mile; a larger radius finds more; distances are in the units asked', async () => {
    const one = await get(t, `/v2/lightning/history/${STORM_POINT}/${STORM_DAY}`, alice, { types: 'cloud,ground' });
    expect(one.body.data.query).toMatchObject({ radius: 1, units: 'miles' });
    const wide = await day('lightning', 'history', { types: 'cloud,ground' });
    expect(wide.body.data.totalItems).toBeGreaterThan(one.body.data.totalItems);
    for (const f of one.body.data.features) expect(f.properties.distance).toBeLessThanOrEqual(1);
    const km = await day('lightning', 'history', { types: 'cloud,ground', units: 'km', radius: String(20 * 1.609344) });
    expect(km.body.data.totalItems).toBe(wide.body.data.totalItems);
    const byId = new Map(
      wide.body.data.features.map((f: { id: string; properties: { distance: number } }) => [f.id, f.properties.distance]),
    );
    for (const f of km.body.data.features) expect(f.properties.distance).toBeCloseTo((byId.get(f.id) as number) * 1.609344, 1);
  });

  it('radius is at most 20 statute miles (32.187 km), the limit as printed accepted in either units', async () => {
    expect((await day('hailsize', 'summary', { radius: '20' })).status).toBe(200);
    expect((await day('hailsize', 'summary', { radius: '20.0001' })).status).toBe(400);
    expect((await day('hailsize', 'summary', { radius: '20.01' })).status).toBe(400);
    expect((await day('hailsize', 'summary', { radius: '32', units: 'km' })).status).toBe(200);
    // the message's number is one a client may send; a step past it is refused
    const over = await day('hailsize', 'summary', { radius: '32.1871', units: 'km' });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toBe('radius is at most 20 miles (32.187 km)');
    const printed = await day('hailsize', 'summary', { radius: '32.187', units: 'km' });
    expect(printed.status).toBe(200);
    expect(printed.body.data.query).toMatchObject({ radius: 32.187, units: 'km' });
    expect((await day('hailsize', 'summary', { radius: '32.2', units: 'km' })).status).toBe(400);
    for (const radius of ['0', '-1', 'ten', '1e1', ' 5']) expect((await day('hailsize', 'summary', { radius })).status).toBe(400);
    expect((await day('hailsize', 'summary', { units: 'furlongs' })).status).toBe(400);
  });

  it('units is a unit word, read in any case as the path words and every unit word of the API are; echoed as the archive writes it', async () => {
    for (const units of ['KM', 'Km']) {
      const res = await day('hailsize', 'summary', { radius: '32.187', units });
      expect(res.status).toBe(200);
      expect(res.body.data.query).toMatchObject({ radius: 32.187, units: 'km' });
    }
    const miles = await day('hailsize', 'summary', { radius: '20', units: 'Miles' });
    expect([miles.status, miles.body.data.query.units]).toEqual([200, 'miles']);
    // the cap follows the units however they are written
    expect((await day('hailsize', 'summary', { radius: '21', units: 'MILES' })).status).toBe(400);
    const other = await day('hailsize', 'summary', { units: 'KMS' });
    expect([other.status, other.body.error.message]).toEqual([400, 'units must be miles or km (any case)']);
  });

  it('a region in either form gives the same answer, every record inside it', async () => {
    const adjacent = await get(t, `/v2/hailsize/history/${STORM_REGION.northEast}${STORM_REGION.southWest}/${STORM_DAY}`, alice);
    const comma = await get(t, `/v2/hailsize/history/${STORM_REGION.northEast},${STORM_REGION.southWest}/${STORM_DAY}`, alice);
    expect(adjacent.status).toBe(200);
    expect(comma.body).toEqual(adjacent.body);
    expect(adjacent.body.data.query.region).toEqual({ northEast: STORM_REGION.northEast, southWest: STORM_REGION.southWest });
    expect(adjacent.body.data.features.length).toBeGreaterThan(0);
    for (const { properties: p } of adjacent.body.data.features) {
      expect(p.latitude).toBeGreaterThanOrEqual(STORM_REGION.south);
      expect(p.latitude).toBeLessThanOrEqual(STORM_REGION.north);
      expect(p.longitude).toBeGreaterThanOrEqual(STORM_REGION.west);
      expect(p.longitude).toBeLessThanOrEqual(STORM_REGION.east);
      expect(p.distance).toBeUndefined();
    }
  });

  it.each([
    ['a malformed location', '/v2/hailsize/summary/39.7392,-104.9903', /±DD\.ddd±DDD\.ddd/],
    ['a latitude out of range', '/v2/hailsize/summary/+91.0000-104.9903', /outside -90\.\.\+90/],
    ['a longitude out of range', '/v2/hailsize/summary/+39.0000-181.0000', /outside -180\.\.\+180/],
    ['swapped corners', '/v2/hailsize/summary/+35.5-099.0+36.5-098.0', /north-east of its second/],
  ])('%s is 404, an invalid path (spec 7), saying the accepted form', async (_name, path, message) => {
    const res = await get(t, path, alice);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      apiVersion: expect.stringMatching(/^2\./),
      error: {
        code: 404,
        message: expect.stringMatching(message),
        errors: [expect.objectContaining({ reason: 'route_does_not_exist', location: 'location', locationType: 'path' })],
      },
    });
  });

  it('radius and units are for points', async () => {
    const res = await get(t, '/v2/hailsize/summary/+36.5-098.0+35.5-099.0', alice, { radius: '5' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/apply to a point/);
  });
});

describe('times', () => {
  it('begin and end as RFC 3339 or as POSIX seconds give the same answer', async () => {
    const rfc = await get(t, `/v2/stormreports/history/${STORM_POINT}`, alice, {
      radius: '20',
      begin: STORM_TIMES.begin,
      end: STORM_TIMES.end,
    });
    const posix = await get(t, `/v2/stormreports/history/${STORM_POINT}`, alice, {
      radius: '20',
      begin: STORM_TIMES.beginPosix,
      end: STORM_TIMES.endPosix,
    });
    expect(rfc.status).toBe(200);
    expect(posix.body).toEqual(rfc.body);
    expect(rfc.body.data.totalItems).toBe((await day('stormreports', 'history')).body.data.totalItems);
  });

  it('begin alone runs to now; end alone starts 90 days before it', async () => {
    const res = await get(t, `/v2/hailsize/summary/${STORM_POINT}`, alice, { end: '2025-05-01T00:00:00Z' });
    expect(res.body.data.query).toMatchObject({ begin: '2025-01-31T00:00:00.000Z', end: '2025-05-01T00:00:00.000Z' });
    const begin = await get(t, `/v2/hailsize/summary/${STORM_POINT}`, alice, { begin: '2025-05-01T00:00:00Z' });
    expect(begin.body.data.query).toMatchObject({ begin: '2025-05-01T00:00:00.000Z', end: NOW.toISOString() });
  });

  it('the archive holds no events after now', async () => {
    const res = await get(t, `/v2/lightning/history/${STORM_POINT}`, alice, {
      radius: '20',
      begin: '2025-06-01T00:00:00Z',
      end: '2025-12-31T00:00:00Z',
      types: 'cloud,ground',
      limit: '1000',
    });
    expect(res.status).toBe(200);
    for (const f of res.body.data.features) expect(Date.parse(f.properties.time)).toBeLessThanOrEqual(NOW.getTime());
  });

  it.each([
    // out of order: the end is named, as every area names a range's end (rangeOrderFault in packages/schemas)
    [{ begin: '2025-05-02T00:00:00Z', end: '2025-05-01T00:00:00Z' }, 'end', /after end/],
    // the end left to its default (now) is no parameter sent: the begin is named
    [{ begin: '2025-07-02T00:00:00Z' }, 'begin', /after end/],
    [{ begin: 'yesterday' }, 'begin', /RFC 3339/],
    [{ end: '2025-04-31T00:00:00Z' }, 'end', /calendar/],
  ])('%j is 400', async (query, location, message) => {
    const res = await get(t, `/v2/hailsize/summary/${STORM_POINT}`, alice, query);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
    expect(res.body.error.errors[0]).toMatchObject({ location, locationType: 'parameter' });
  });

  it('a 400 names every malformed parameter of the range, begin and end, each an item of errors', async () => {
    const res = await get(t, `/v2/hailsize/summary/${STORM_POINT}`, alice, { begin: 'yesterday', end: '2025-04-31T00:00:00Z' });
    expect(res.status).toBe(400);
    expect(res.body.error.errors).toEqual([
      expect.objectContaining({
        reason: 'invalid_parameter',
        location: 'begin',
        locationType: 'parameter',
        message: expect.stringMatching(/RFC 3339/),
      }),
      expect.objectContaining({
        reason: 'invalid_parameter',
        location: 'end',
        locationType: 'parameter',
        message: expect.stringMatching(/calendar/),
      }),
    ]);
  });

  it('an offset whose + was sent unencoded, read as a space, is 400 naming the parameter with the encoding to use', async () => {
    for (const [name, query] of [
      ['begin', 'begin=2025-05-01T14:00:00+02:00'],
      ['end', 'end=2025-05-01T14:00:00+02:00'],
    ] as const) {
      const res = await get(t, `/v2/hailsize/summary/${STORM_POINT}?${query}`, alice);
      expect(res.status).toBe(400);
      expect(res.body.error.errors[0]).toMatchObject({ location: name, locationType: 'parameter' });
      expect(res.body.error.message).toContain(`${name} is malformed: a time is RFC 3339`);
      expect(res.body.error.message).toContain(
        "a + in a query string reads as a space, so send an offset's + as %2B (2026-05-01T14:00:00%2B00:00)",
      );
    }
  });

  it('a path date names one event day, as a date, an RFC 3339 time or POSIX seconds in it; then no begin or end', async () => {
    const byDate = await day('hailsize', 'history');
    const byTime = await get(t, `/v2/hailsize/history/${STORM_POINT}/${STORM_TIMES.lateInDay}`, alice, { radius: '20' });
    const byPosix = await get(t, `/v2/hailsize/history/${STORM_POINT}/${STORM_TIMES.noonPosix}`, alice, { radius: '20' });
    expect(byTime.body).toEqual(byDate.body);
    expect(byPosix.body).toEqual(byDate.body);
    expect((await day('hailsize', 'history', { begin: '2025-04-01T00:00:00Z' })).status).toBe(400);
    // a date that is none is an invalid path (spec 7)
    const noDay = await get(t, `/v2/hailsize/history/${STORM_POINT}/2025-04-32`, alice);
    expect(noDay.status).toBe(404);
    expect(noDay.body.error.errors[0]).toMatchObject({ reason: 'route_does_not_exist', location: 'date', locationType: 'path' });
  });
});

describe('history, lightning and parameters', () => {
  it('history lists at most limit records (default 100, at most 1000), totalItems counting all', async () => {
    const all = await day('lightning', 'history', { types: 'cloud,ground', limit: '1000' });
    expect(all.body.data.totalItems).toBeGreaterThan(3);
    const two = await day('lightning', 'history', { types: 'cloud,ground', limit: '2' });
    expect(two.body.data).toMatchObject({ totalItems: all.body.data.totalItems, itemsPerPage: 2 });
    expect(two.body.data.features).toEqual(all.body.data.features.slice(0, 2));
    expect((await day('lightning', 'history')).body.data.itemsPerPage).toBe(100);
    for (const limit of ['0', '1001', 'x', '2.5']) expect((await day('lightning', 'history', { limit })).status).toBe(400);
    expect((await day('lightning', 'summary', { limit: '5' })).status).toBe(400);
  });

  it('limit is read as every list of the API reads it (countParam): digits only, the parameter named', async () => {
    for (const limit of ['NaN', '1e3', ' 5', '5.0', '+5', '']) {
      const res = await day('lightning', 'history', { limit });
      expect(res.status).toBe(400);
      expect(res.body.error.errors[0]).toMatchObject({ location: 'limit', locationType: 'parameter' });
      expect(res.body.error.message).toBe('limit must be a whole number from 1 to 1000');
    }
    const padded = await day('lightning', 'history', { limit: '01' });
    expect([padded.status, padded.body.data.itemsPerPage]).toEqual([200, 1]);
    const doc = (await request(t.fleet.app('archive')).get('/openapi.json')).body;
    const limit = doc.paths['/v2/lightning/{request}/{location}'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema.pattern).toBe('^[0-9]{1,7}$');
  });

  it('lightning: ground strokes by default, types=cloud or both; sort=distance nearest first', async () => {
    const ground = (await day('lightning', 'history', { limit: '1000' })).body.data;
    const cloud = (await day('lightning', 'history', { types: 'cloud', limit: '1000' })).body.data;
    const both = (await day('lightning', 'history', { types: 'cloud,ground', limit: '1000' })).body.data;
    expect(ground.query.types).toBe('ground');
    expect(ground.features.every((f: { properties: { strokeType: string } }) => f.properties.strokeType === 'ground')).toBe(true);
    expect(cloud.features.every((f: { properties: { strokeType: string } }) => f.properties.strokeType === 'cloud')).toBe(true);
    expect(both.totalItems).toBe(ground.totalItems + cloud.totalItems);
    expect(cloud.totalItems).toBeGreaterThan(0);
    const summary = (await day('lightning', 'summary', { types: 'cloud,ground' })).body.data.items[0];
    expect(summary).toMatchObject({ count: both.totalItems, cloud: cloud.totalItems, ground: ground.totalItems });
    const near = (await day('lightning', 'history', { types: 'cloud,ground', sort: 'distance', limit: '1000' })).body.data;
    const d = near.features.map((f: { properties: { distance: number } }) => f.properties.distance);
    expect(d).toEqual([...d].sort((a, b) => a - b));
    expect(near.totalItems).toBe(both.totalItems);
    expect((await day('lightning', 'history', { types: 'air' })).status).toBe(400);
    expect((await day('lightning', 'history', { sort: 'size' })).status).toBe(400);
    // sort orders a history; on a summary or latest it would change nothing, so it is refused as limit is
    for (const request of ['summary', 'latest']) {
      const res = await day('lightning', request, { sort: 'distance' });
      expect([request, res.status, res.body.error?.errors[0].location]).toEqual([request, 400, 'sort']);
    }
    expect((await get(t, '/v2/lightning/history/+36.5-098.0+35.5-099.0', alice, { sort: 'distance' })).status).toBe(400);
  });

  it('types and sort are lightning’s; an unknown or repeated parameter is 400, not ignored', async () => {
    for (const query of [{ types: 'cloud' }, { sort: 'time' }, { raduis: '5' }] as Record<string, string>[]) {
      const res = await day('hailsize', 'summary', query);
      expect(res.status).toBe(400);
      expect(res.body.error.errors[0].location).toBe(Object.keys(query)[0]);
    }
    const repeated = await request(t.fleet.app('archive')).get(
      `/v2/hailsize/summary/${STORM_POINT}?u=${alice.name}&t=${alice.token}&radius=1&radius=2`,
    );
    expect(repeated.status).toBe(400);
    // the credentials too, checked as parameters before they are checked as credentials
    const credentials = `u=${alice.name}&t=${alice.token}`;
    for (const [twice, location] of [
      [`${credentials}&u=${alice.name}`, 'u'],
      [`${credentials}&t=${alice.token}`, 't'],
    ]) {
      const res = await request(t.fleet.app('archive')).get(`/v2/hailsize/summary/${STORM_POINT}?${twice}`);
      expect(res.status).toBe(400);
      expect(res.body.error.errors[0]).toMatchObject({ reason: 'invalid_parameter', location });
    }
  });

  it('more work than one request does is 422 before any is done', async () => {
    const res = await get(t, '/v2/lightning/summary/+60.0+010.0+10.0-120.0', alice, { begin: '2024-01-01T00:00:00Z' });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 422, errors: [{ reason: 'request_too_large' }] });
    expect(res.body.error.message).toMatch(/narrow the region or the time range/);
  });

  it('an end years ahead is counted as what is read, up to now: not 422', async () => {
    const res = await get(t, '/v2/hailsize/summary/+35.0-097.0', alice, { begin: '2025-06-01T00:00:00Z', end: '2030-01-01T00:00:00Z' });
    expect(res.status).toBe(200);
    expect(res.body.data.query).toMatchObject({ end: '2030-01-01T00:00:00.000Z' });
  });
});

describe('points near a pole (docs/decisions/0211-archive-polar-cap-blocks.md)', () => {
  it.each([
    ['-89.9999-179.9999', 'lightning'],
    ['+89.9999+179.9999', 'stormreports'],
    ['-89.9000+000.0000', 'tornado'],
  ])('a small circle around %s reads the polar cap’s blocks only, and answers (%s)', async (point, type) => {
    for (const radius of ['1', '20']) {
      const res = await get(t, `/v2/${type}/summary/${point}`, alice, { radius });
      expect(res.status).toBe(200);
      expect(res.body.data.items).toEqual([]);
    }
  });

  it('a polar row is one block wide; other rows are 8 degrees of longitude', () => {
    expect(blockRows({ south: -90, north: -89.98, west: -180, east: 180 })).toEqual([{ bi: 0, bj0: 0, bj1: 0 }]);
    expect(blockRows({ south: 87, north: 90, west: 10, east: 20 })).toEqual([{ bi: 22, bj0: 0, bj1: 0 }]);
    expect(blockRows({ south: -83, north: -81, west: 10, east: 20 })).toEqual([
      { bi: 0, bj0: 0, bj1: 0 },
      { bi: 1, bj0: 23, bj1: 25 },
    ]);
  });
});

describe('versions and paths', () => {
  it('another major version is 404 naming the served one', async () => {
    for (const v of ['v1', 'v3']) {
      const res = await get(t, `/${v}/hailsize/summary/${STORM_POINT}`, alice);
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 404, message: expect.stringMatching(/serves \/v2/) });
    }
  });

  it('an unknown type or request kind is 404 naming what is served', async () => {
    const type = await get(t, `/v2/snow/summary/${STORM_POINT}`, alice);
    expect(type.status).toBe(404);
    expect(type.body.error.message).toMatch(/hailsize, hailprob, tornado, gustdur, lightning, stormreports/);
    const request = await get(t, `/v2/hailsize/forecast/${STORM_POINT}`, alice);
    expect(request.status).toBe(404);
    expect(request.body.error.message).toMatch(/summary, latest, history/);
  });

  it('reads every word of a path in any case, as the version and type are read: the request kind and the format suffix too (docs/decisions/0406-archive-path-words-in-any-case.md)', async () => {
    const lower = await get(t, `/v2/hailsize/summary/${STORM_POINT}/${STORM_DAY}.xml`, alice, { radius: '20' });
    expect(lower.status).toBe(200);
    for (const path of [
      `/V2/HailSize/SUMMARY/${STORM_POINT}/${STORM_DAY}.XML`,
      `/v2/hailsize/Summary/${STORM_POINT}/${STORM_DAY}.Xml`,
      `/v2/hailsize/summary/${STORM_POINT}/${STORM_DAY}.XML`,
    ]) {
      const res = await get(t, path, alice, { radius: '20' });
      expect([path, res.status, res.headers['content-type']]).toEqual([path, 200, 'application/xml; charset=utf-8']);
      expect(res.text).toBe(lower.text);
    }
    const kml = await get(t, `/v2/hailsize/latest/${STORM_POINT}.KML`, alice);
    expect([kml.status, kml.headers['content-type']]).toEqual([200, 'application/vnd.google-earth.kml+xml; charset=utf-8']);
    const json = await get(t, `/v2/hailsize/LATEST/${STORM_POINT}.JSON`, alice);
    expect([json.status, json.body.data.query.request]).toEqual([200, 'latest']);
  });

  it('another major version in any case is the archive’s 404 naming the served one', async () => {
    const res = await get(t, `/V1/hailsize/summary/${STORM_POINT}`, alice);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 404, message: expect.stringMatching(/serves \/v2/) });
    const type = await get(t, `/V2/snow/summary/${STORM_POINT}`, alice);
    expect([type.status, type.body.error?.message]).toEqual([404, expect.stringMatching(/the types are hailsize/)]);
  });

  it('a suffix that names no format is 404 naming the suffixes served, not a malformed date or location', async () => {
    for (const path of [`/v2/hailsize/summary/${STORM_POINT}/${STORM_DAY}.csv`, `/v2/hailsize/summary/${STORM_POINT}.geojson`]) {
      const res = await get(t, path, alice);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.body.error.message).toMatch(/\.json, \.xml or \.kml/);
      expect(res.body.error.errors[0]).toMatchObject({ reason: 'route_does_not_exist', location: 'format', locationType: 'path' });
    }
  });

  it('a method other than GET on a resource is 405 with Allow, in the format asked for, not a 404 that says the resource is not there', async () => {
    const path = `/v2/hailsize/summary/${STORM_POINT}/${STORM_DAY}`;
    const query = { u: alice.name, t: alice.token };
    for (const [method, suffix] of [
      ['post', ''],
      ['put', '.json'],
      ['delete', ''],
    ] as const) {
      const res = await request(t.fleet.app('archive'))[method](`${path}${suffix}`).query(query);
      expect([method, res.status, res.headers.allow]).toEqual([method, 405, 'GET, HEAD, OPTIONS']);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.body).toEqual({
        apiVersion: expect.stringMatching(/^2\./),
        error: {
          code: 405,
          message: expect.stringMatching(/takes GET, HEAD, OPTIONS/),
          errors: [{ reason: 'method_not_allowed', message: expect.any(String) }],
        },
      });
    }
    const xml = await request(t.fleet.app('archive')).post(`${path}.xml`).query(query);
    expect([xml.status, xml.headers['content-type']]).toEqual([405, 'application/xml; charset=utf-8']);
    expect(xml.text).toContain('<error code="405"');
    // OPTIONS, no CORS preflight, is answered with the same Allow (RFC 9110 section 9.3.7)
    const options = await request(t.fleet.app('archive')).options(`${path}.xml`);
    expect([options.status, options.headers.allow]).toEqual([204, 'GET, HEAD, OPTIONS']);
    // a path that is no resource stays 404, whatever the method
    expect((await request(t.fleet.app('archive')).post(`/v2/snow/summary/${STORM_POINT}`).query(query)).status).toBe(404);
  });

  it('is documented in /openapi.json: each type’s records, the three formats, the archive’s error body', async () => {
    const doc = (await request(t.fleet.app('archive')).get('/openapi.json')).body;
    for (const type of ARCHIVE_TYPES) {
      const op = doc.paths[`/v2/${type}/{request}/{location}`].get;
      expect(Object.keys(op.responses['200'].content)).toEqual(
        expect.arrayContaining([
          'application/json',
          'application/geo+json',
          'application/xml',
          'text/xml',
          'application/vnd.google-earth.kml+xml',
        ]),
      );
      expect(op.responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/ArchiveError');
      const names = (path: string) => doc.paths[path].get.parameters.map((p: { name: string }) => p.name).sort();
      const own = type === 'lightning' ? ['types', 'sort'] : [];
      expect(names(`/v2/${type}/{request}/{location}`)).toEqual(
        ['request', 'location', 'u', 't', 'begin', 'end', 'radius', 'units', 'limit', ...own].sort(),
      );
      // a path that names an event day refuses begin and end (400), so it does not list them
      expect(names(`/v2/${type}/{request}/{location}/{date}`)).toEqual(
        ['request', 'location', 'date', 'u', 't', 'radius', 'units', 'limit', ...own].sort(),
      );
    }
    for (const record of [
      'ArchiveHailSizeRecord',
      'ArchiveHailProbRecord',
      'ArchiveTornadoRecord',
      'ArchiveGustDurationRecord',
      'ArchiveLightningRecord',
      'ArchiveStormReportRecord',
    ])
      expect(doc.components.schemas[record]).toBeDefined();
  });
});
