import { execFileSync } from 'node:child_process';
import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { archiveFeatureCollection } from '@fieldcast/schemas';
import { archiveService } from '../src/definition.js';
import { get, NOW, register, STORM_DAY, STORM_POINT, STORM_REGION } from './archive-client.js';
import { findAll, parseXml, type XmlNode } from './xml-parse.js';

const t = useTestFleet([archiveService], { now: () => NOW });
let alice: { name: string; token: string };
beforeEach(async () => {
  alice = await register(t, 'alice');
});

const KML = 'application/vnd.google-earth.kml+xml';
const VENDOR_KML = 'application/vnd.fieldcast-earth.kml+xml';
const path = (type: string, request: string, suffix = '') => `/v2/${type}/${request}/${STORM_POINT}/${STORM_DAY}${suffix}`;
const ask = (p: string, accept?: string, query: Record<string, string> = {}) => {
  const req = get(t, p, alice, { radius: '20', ...query })
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => done(null, text));
    });
  return accept ? req.set('Accept', accept) : req;
};
const text = async (p: string, accept?: string, query?: Record<string, string>) => {
  const res = await ask(p, accept, query);
  return { status: res.status, type: res.headers['content-type'] as string, body: res.body as string };
};

describe('formats chosen both ways (docs/interface.md §11)', () => {
  it.each([
    ['no Accept', undefined, '', 'application/json'],
    ['Accept: application/json', 'application/json', '', 'application/json'],
    ['.json', 'application/xml', '.json', 'application/json'],
    ['Accept: application/xml', 'application/xml', '', 'application/xml'],
    ['Accept: text/xml, answered as text/xml', 'text/xml', '', 'text/xml'],
    ['Accept: text/*, answered as text/xml', 'text/*', '', 'text/xml'],
    ['.xml', undefined, '.xml', 'application/xml'],
    ['.xml with Accept: text/xml', 'text/xml', '.xml', 'text/xml'],
    ['Accept: the registered KML type', KML, '', KML],
    ['Accept: the vendor KML type', VENDOR_KML, '', VENDOR_KML],
    ['.kml', undefined, '.kml', KML],
    ['the better quality', `application/xml;q=0.5, ${KML}`, '', KML],
    ['*/*', '*/*', '', 'application/json'],
  ])('%s', async (_name, accept, suffix, type) => {
    const res = await text(path('hailsize', 'history', suffix), accept);
    expect(res.status).toBe(200);
    expect(res.type).toBe(`${type}; charset=utf-8`);
  });

  it('Accept: application/geo+json: latest and history are the GeoJSON FeatureCollection itself, a summary JSON', async () => {
    for (const kind of ['history', 'latest']) {
      const json = await text(path('tornado', kind));
      const geo = await text(path('tornado', kind), 'application/geo+json');
      expect(geo.status).toBe(200);
      expect(geo.type).toBe('application/geo+json');
      expect(JSON.parse(geo.body)).toEqual(JSON.parse(json.body).data);
      archiveFeatureCollection('tornado').parse(JSON.parse(geo.body));
    }
    const summary = await text(path('hailsize', 'summary'), 'application/geo+json');
    expect(summary.status).toBe(200);
    expect(summary.type).toBe('application/json; charset=utf-8');
    expect(JSON.parse(summary.body)).toEqual(JSON.parse((await text(path('hailsize', 'summary'))).body));
    // a failure is no set of places either
    const failure = await text('/v2/hailsize/history/+99.0000-104.9903', 'application/geo+json');
    expect(failure.status).toBe(404);
    expect(failure.type).toBe('application/json; charset=utf-8');
    expect(JSON.parse(failure.body).error).toMatchObject({ code: 404 });
  });

  it('an Accept the archive cannot serve is 406, in JSON', async () => {
    const res = await text(path('hailsize', 'history'), 'text/html');
    expect(res.status).toBe(406);
    expect(JSON.parse(res.body).error).toMatchObject({ code: 406, errors: [{ reason: 'not_acceptable' }] });
  });

  it('XML asked in another charset than the UTF-8 it is written in is 406; in UTF-8, XML', async () => {
    const latin = await text(path('hailsize', 'history'), 'application/xml;charset=iso-8859-1');
    expect([latin.status, JSON.parse(latin.body).error.errors[0].reason]).toEqual([406, 'not_acceptable']);
    const utf8 = await text(path('hailsize', 'history'), 'application/xml; charset=utf-8');
    expect([utf8.status, utf8.type]).toEqual([200, 'application/xml; charset=utf-8']);
  });

  it('XML carries the JSON answer: a record element per record, attributes as documented', async () => {
    for (const type of ['hailsize', 'tornado', 'stormreports', 'lightning'] as const) {
      const json = JSON.parse(
        (await text(path(type, 'history'), undefined, { ...(type === 'lightning' ? { types: 'cloud,ground' } : {}) })).body,
      ).data;
      const xml = parseXml(
        (await text(path(type, 'history', '.xml'), undefined, { ...(type === 'lightning' ? { types: 'cloud,ground' } : {}) })).body,
      );
      expect(xml.name).toBe('response');
      expect(xml.attributes.apiVersion).toMatch(/^2\.\d+\.\d+$/);
      const [data] = xml.children as [XmlNode];
      const [query, features] = data.children as [XmlNode, XmlNode];
      expect(query.attributes).toMatchObject({ type, request: 'history', location: STORM_POINT, radius: '20', units: 'miles' });
      expect(features.attributes).toEqual({ totalItems: String(json.totalItems), itemsPerPage: String(json.itemsPerPage) });
      expect(features.children).toHaveLength(json.features.length);
      features.children.forEach((el, i) => {
        const p = json.features[i].properties;
        expect(el.name).toBe({ hailsize: 'hail', tornado: 'tornado', stormreports: 'report', lightning: 'stroke' }[type]);
        for (const [k, v] of Object.entries(p)) {
          if (k === 'remarks') expect(findAll(el, 'remarks')[0]!.text).toBe(v);
          else expect(el.attributes[k]).toBe(String(v));
        }
        if (type === 'tornado')
          expect(findAll(el, 'point').map((n) => [Number(n.attributes.longitude), Number(n.attributes.latitude)])).toEqual(
            json.features[i].geometry.coordinates,
          );
      });
    }
  });

  it('XML of a summary: day elements with the JSON members', async () => {
    const json = JSON.parse((await text(path('stormreports', 'summary'))).body).data;
    const xml = parseXml((await text(path('stormreports', 'summary'), 'application/xml')).body);
    const days = findAll(xml, 'day');
    expect(days).toHaveLength(json.items.length);
    expect(days[0]!.attributes).toEqual(Object.fromEntries(Object.entries(json.items[0]).map(([k, v]) => [k, String(v)])));
  });

  it('KML 2.2: a Placemark per record with time, style and place; a tornado as its track', async () => {
    const kml = parseXml((await text(path('tornado', 'history', '.kml'))).body);
    expect(kml.name).toBe('kml');
    expect(kml.attributes.xmlns).toBe('http://www.opengis.net/kml/2.2');
    const [doc] = kml.children as [XmlNode];
    expect(doc.name).toBe('Document');
    expect(findAll(doc, 'Style').map((s) => s.attributes.id)).toEqual(['tornado']);
    const json = JSON.parse((await text(path('tornado', 'history'))).body).data;
    const placemarks = findAll(doc, 'Placemark');
    expect(placemarks).toHaveLength(json.features.length);
    const [pm] = placemarks as [XmlNode];
    // KML 2.2 schema order within a Placemark
    expect(pm.children.map((c) => c.name)).toEqual(['name', 'description', 'TimeSpan', 'styleUrl', 'ExtendedData', 'LineString']);
    expect(findAll(pm, 'begin')[0]!.text).toBe(json.features[0].properties.time);
    expect(findAll(pm, 'end')[0]!.text).toBe(json.features[0].properties.endTime);
    const coords = findAll(pm, 'coordinates')[0]!
      .text.split(' ')
      .map((c) => c.split(',').map(Number));
    expect(coords).toEqual(json.features[0].geometry.coordinates);

    const hail = parseXml((await text(path('hailsize', 'history'), KML)).body);
    const first = findAll(hail, 'Placemark')[0]!;
    expect(first.children.map((c) => c.name)).toEqual(['name', 'description', 'TimeStamp', 'styleUrl', 'ExtendedData', 'Point']);
    const data = Object.fromEntries(findAll(first, 'Data').map((d) => [d.attributes.name, d.children[0]!.text]));
    const props = JSON.parse((await text(path('hailsize', 'history'))).body).data.features[0].properties;
    expect(data).toEqual(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, String(v)])));
    expect(findAll(first, 'coordinates')[0]!.text).toBe(`${props.longitude},${props.latitude}`);
  });

  it('KML names a gust in both units of its record, as a hail stone', async () => {
    const kml = parseXml((await text(path('gustdur', 'history', '.kml'))).body);
    const props = JSON.parse((await text(path('gustdur', 'history'))).body).data.features[0].properties;
    expect(findAll(kml, 'Placemark')[0]!.children[0]!.text).toBe(
      `Gusts ${props.peakGustMs} m/s (${props.peakGustKt} kt) for ${props.durationMinutes} min`,
    );
  });

  it('KML of a summary: a Placemark per event day at the point, or the region’s outline', async () => {
    const point = parseXml((await text(path('hailsize', 'summary', '.kml'))).body);
    expect(findAll(point, 'Placemark')).toHaveLength(1);
    expect(findAll(point, 'Point')).toHaveLength(1);
    const region = parseXml(
      (await get(t, `/v2/hailsize/summary/${STORM_REGION.northEast}${STORM_REGION.southWest}/${STORM_DAY}.kml`, alice)).text,
    );
    expect(findAll(region, 'Placemark')).toHaveLength(1);
    const corner = (iso: string) => iso.match(/[+-][\d.]+/g)!.map(Number) as [number, number];
    const [n, e] = corner(STORM_REGION.northEast);
    const [south, w] = corner(STORM_REGION.southWest);
    expect(findAll(region, 'LinearRing')[0]!.children[0]!.text).toBe(`${w},${south} ${e},${south} ${e},${n} ${w},${n} ${w},${south}`);
  });

  it('KML of a wide region: its north and south edges follow their parallels, a vertex at least every degree', async () => {
    // A globe viewer draws an edge as a great-circle arc: 20 degrees wide at 45 N it would bow
    // 0.44 degrees north of the region's north edge in its middle.
    const wide = parseXml((await get(t, '/v2/hailsize/summary/+46.0-090.0+40.0-110.0.kml', alice)).text);
    const ring = findAll(wide, 'LinearRing')[0]!
      .children[0]!.text!.split(' ')
      .map((p) => p.split(',').map(Number) as [number, number]);
    const south = Array.from({ length: 21 }, (_, i) => [-110 + i, 40]);
    const north = Array.from({ length: 21 }, (_, i) => [-90 - i, 46]);
    expect(ring).toEqual([...south, ...north, [-110, 40]]);
  });
});

describe('Cache-Control: private, no-store on every answer (docs/interface.md §11: their URLs hold tokens)', () => {
  const cases: [string, () => request.Test, number][] = [
    ['a JSON answer', () => ask(path('hailsize', 'history')), 200],
    ['a GeoJSON answer', () => ask(path('hailsize', 'history'), 'application/geo+json'), 200],
    ['an XML answer', () => ask(path('hailsize', 'summary', '.xml')), 200],
    ['a KML answer', () => ask(path('tornado', 'history'), KML), 200],
    ['a 400 of a parameter', () => ask(path('hailsize', 'summary'), undefined, { raduis: '5' }), 400],
    ['a 400 of a path that is not UTF-8', () => request(t.fleet.app('archive')).get('/v2/hailsize/summary/%FF.kml'), 400],
    ['a 401', () => request(t.fleet.app('archive')).get(path('hailsize', 'summary', '.xml')), 401],
    ['a 404 of a location', () => ask('/v2/hailsize/summary/+99.0000-104.9903.kml'), 404],
    ['a 404 of a type', () => ask(`/v2/snow/summary/${STORM_POINT}`, 'application/xml'), 404],
    ['a 404 of another version', () => ask(`/v1/hailsize/summary/${STORM_POINT}`), 404],
    ['a 406', () => ask(path('hailsize', 'history'), 'text/html'), 406],
    [
      'a 422',
      () => get(t, '/v2/lightning/summary/+60.0+010.0+10.0-120.0', alice, { begin: '2024-01-01T00:00:00Z' }).set('Accept', KML),
      422,
    ],
  ];
  it.each(cases)('%s', async (_name, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });
});

describe('errors in the format asked for', () => {
  it.each([
    ['.xml', '.xml', undefined],
    ['Accept: application/xml', '', 'application/xml'],
  ])('XML by %s', async (_name, suffix, accept) => {
    const res = await text(`/v2/hailsize/summary/+99.0000-104.9903${suffix}`, accept);
    expect(res.status).toBe(404);
    expect(res.type).toBe('application/xml; charset=utf-8');
    const xml = parseXml(res.body);
    const [error] = xml.children as [XmlNode];
    expect(error.name).toBe('error');
    expect(error.attributes).toMatchObject({ code: '404', message: expect.stringMatching(/outside -90\.\.\+90/) });
    expect(findAll(error, 'item')[0]!.attributes).toMatchObject({
      reason: 'route_does_not_exist',
      location: 'location',
      locationType: 'path',
    });
  });

  it.each([
    ['.kml', '.kml', undefined],
    ['Accept: KML', '', KML],
  ])('KML by %s', async (_name, suffix, accept) => {
    const res = await text(`/v2/hailsize/summary/+99.0000-104.9903${suffix}`, accept);
    expect(res.status).toBe(404);
    const kml = parseXml(res.body);
    expect(findAll(kml, 'name')[0]!.text).toBe('Error 404');
    expect(findAll(kml, 'description')[0]!.text).toMatch(/outside -90\.\.\+90/);
  });

  it('a path segment that is not UTF-8 percent-encoding is 400 in the archive’s format', async () => {
    const res = await request(t.fleet.app('archive')).get('/v2/hailsize/summary/%FF%FE.xml');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(findAll(parseXml(res.text), 'item')[0]!.attributes.reason).toBe('malformed_path');
    const json = await request(t.fleet.app('archive')).get('/v2/hailsize/summary/%FF');
    expect(json.body.error).toMatchObject({ code: 400, errors: [{ reason: 'malformed_path' }] });
  });

  it('a 404 of another version in XML', async () => {
    const res = await text(`/v1/hailsize/summary/${STORM_POINT}.xml`);
    expect(res.status).toBe(404);
    expect(parseXml(res.body).children[0]!.attributes.message).toMatch(/serves \/v2/);
  });

  it('what a caller sends back in a message is escaped: any name stays well-formed XML', async () => {
    const hostile = '<b a="1">&amp;\u0001\'"</b>]]>';
    const res = await request(t.fleet.app('archive'))
      .get(`/v2/hailsize/summary/${STORM_POINT}.xml`)
      .query({ u: alice.name, t: alice.token, [hostile]: '1' })
      .buffer(true)
      .parse((r, done) => {
        let s = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (s += c));
        r.on('end', () => done(null, s));
      });
    expect(res.status).toBe(400);
    const item = findAll(parseXml(res.body as string), 'item')[0]!;
    expect(item.attributes.location).toBe('<b a="1">&amp;\uFFFD\'"</b>]]>');
    const kml = (
      await request(t.fleet.app('archive'))
        .get(`/v2/hailsize/summary/${STORM_POINT}.kml`)
        .query({ [hostile]: '1' })
    ).text;
    expect(() => parseXml(kml)).not.toThrow();
  });
});

/** xmllint (Debian's libxml2-utils) where installed: a second, independent parser of the same documents. */
const xmllint = (() => {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
(xmllint ? describe : describe.skip)('xmllint agrees the documents are well-formed', () => {
  it('XML, KML and their errors', async () => {
    const docs = [
      (await text(path('stormreports', 'history', '.xml'))).body,
      (await text(path('tornado', 'history', '.kml'))).body,
      (await text(path('hailsize', 'summary', '.kml'))).body,
      (await text('/v2/hailsize/summary/+99.0000-104.9903.kml')).body,
      (await text('/v2/hailsize/summary/+99.0000-104.9903.xml')).body,
    ];
    for (const doc of docs)
      expect(() => execFileSync('xmllint', ['--noout', '-'], { input: doc, stdio: ['pipe', 'pipe', 'pipe'] })).not.toThrow();
    // the control: xmllint refuses a broken document
    expect(() => execFileSync('xmllint', ['--noout', '-'], { input: '<a><b></a>', stdio: ['pipe', 'pipe', 'pipe'] })).toThrow();
  });
});
