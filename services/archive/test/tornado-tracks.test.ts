import request from 'supertest';
import { haversineKm } from '@fieldcast/geo';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { severeEvents } from '@fieldcast/weather';
import { archiveService } from '../src/definition.js';
import { formatPoint } from '../src/domain/iso6709.js';
import { get, NOW, register } from './archive-client.js';
import { findAll, parseXml } from './xml-parse.js';

type Track = readonly (readonly [number, number])[];

/** A track's great-circle length, km. */
function trackKm(track: Track): number {
  let km = 0;
  for (let i = 1; i < track.length; i++) {
    const [a, b] = [track[i - 1]!, track[i]!];
    km += haversineKm({ lon: a[0], lat: a[1] }, { lon: b[0], lat: b[1] });
  }
  return km;
}

/**
 * A tornado record and its geometry agree (docs/decisions/0170-archive-requests.md): the track
 * is a LineString from touchdown, the record's latitude and longitude, to lift-off, and lengthKm
 * is its length.
 */
describe('tornado tracks start at the touchdown and are lengthKm long', () => {
  it('in the synthetic world, over a season of the plains and of Europe', () => {
    const season = { startMs: Date.UTC(2025, 3, 1), endMs: Date.UTC(2025, 8, 30) };
    const tornadoes = [...severeEvents('tornado', [-104, 30, -88, 46], season), ...severeEvents('tornado', [-10, 40, 30, 55], season)];
    expect(tornadoes.length).toBeGreaterThan(100);
    for (const t of tornadoes) {
      expect([t.id, t.track[0]]).toEqual([t.id, [t.lon, t.lat]]);
      // lengthKm is given to 0.1 km: the track's length is within half of that
      expect([t.id, trackKm(t.track)]).toEqual([t.id, expect.closeTo(t.lengthKm, 1)]);
    }
  });

  describe('as the archive serves them', () => {
    const t = useTestFleet([archiveService], { now: () => NOW });
    const REGION = '/v2/tornado/history/+40.0-095.0+32.0-103.0';
    const JUNE = { begin: '2025-06-01T00:00:00Z', end: '2025-06-30T00:00:00Z', limit: '1000' };
    let alice: { name: string; token: string };
    beforeEach(async () => {
      alice = await register(t, 'alice');
    });

    interface Feature {
      id: string;
      geometry: { coordinates: [number, number][] };
      properties: { latitude: number; longitude: number; lengthKm: number };
    }

    it('in JSON, XML and KML; a radius search at a touchdown finds its tornado at distance 0', async () => {
      const features = (await get(t, REGION, alice, JUNE)).body.data.features as Feature[];
      expect(features.length).toBeGreaterThan(5);
      for (const { geometry, properties: p } of features) {
        expect(geometry.coordinates[0]).toEqual([p.longitude, p.latitude]);
        expect(trackKm(geometry.coordinates)).toBeCloseTo(p.lengthKm, 1);
      }

      const xml = parseXml((await get(t, `${REGION}.xml`, alice, JUNE)).text);
      const tornadoes = findAll(xml, 'tornado');
      expect(tornadoes).toHaveLength(features.length);
      for (const el of tornadoes) {
        const track = findAll(el, 'point').map((pt) => [Number(pt.attributes.longitude), Number(pt.attributes.latitude)] as const);
        expect(track[0]).toEqual([Number(el.attributes.longitude), Number(el.attributes.latitude)]);
        expect(trackKm(track)).toBeCloseTo(Number(el.attributes.lengthKm), 1);
      }

      const kml = parseXml((await get(t, `${REGION}.kml`, alice, JUNE)).text);
      const placemarks = findAll(kml, 'Placemark');
      expect(placemarks).toHaveLength(features.length);
      for (const pm of placemarks) {
        const data = Object.fromEntries(findAll(pm, 'Data').map((d) => [d.attributes.name, Number(d.children[0]!.text)]));
        const track = findAll(pm, 'coordinates')[0]!
          .text.split(' ')
          .map((c) => c.split(',').map(Number) as [number, number]);
        expect(track[0]).toEqual([data.longitude, data.latitude]);
        expect(trackKm(track)).toBeCloseTo(data.lengthKm!, 1);
      }

      for (const { id, properties: p } of features) {
        const at = await request(t.fleet.app('archive'))
          .get(`/v2/tornado/history/${formatPoint({ lat: p.latitude, lon: p.longitude })}`)
          .query({ u: alice.name, t: alice.token, radius: '0.5', units: 'km', begin: JUNE.begin, end: JUNE.end });
        expect(at.status).toBe(200);
        const found = (at.body.data.features as Feature[]).find((f) => f.id === id);
        expect([id, found?.properties]).toEqual([id, expect.objectContaining({ distance: 0 })]);
      }
    }, 180_000);
  });
});
