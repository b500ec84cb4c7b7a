import { distanceToTrackKm, haversineKm } from '../src/distance.js';

const R = 6371.0088;

describe('great-circle distances', () => {
  it('gives the haversine distance of the published worked example, on the mean Earth radius', () => {
    // Rosetta Code, "Haversine formula": Nashville BNA (36.12, -86.67) to Los Angeles LAX
    // (33.94, -118.40) is 2887.2599506071106 km on a sphere of radius 6372.8 km; the distance
    // scales with the radius.
    const expected = (2887.2599506071106 * R) / 6372.8;
    expect(haversineKm({ lat: 36.12, lon: -86.67 }, { lat: 33.94, lon: -118.4 })).toBeCloseTo(expected, 6);
    // a quarter of a meridian: pi R / 2
    expect(haversineKm({ lat: 0, lon: 10 }, { lat: 90, lon: 10 })).toBeCloseTo((Math.PI * R) / 2, 6);
  });

  it('measures a point to a track by its nearest segment, across the antimeridian too', () => {
    const track: [number, number][] = [
      [0, 0],
      [1, 0],
    ];
    expect(distanceToTrackKm({ lat: 0, lon: 0.5 }, track)).toBeCloseTo(0, 9);
    // one degree north of the middle of the segment: one degree of a meridian
    expect(distanceToTrackKm({ lat: 1, lon: 0.5 }, track)).toBeCloseTo((Math.PI * R) / 180, 3);
    // beyond the end: the distance to the end point
    expect(distanceToTrackKm({ lat: 0, lon: 3 }, track)).toBeCloseTo(haversineKm({ lat: 0, lon: 3 }, { lat: 0, lon: 1 }), 6);
    expect(
      distanceToTrackKm({ lat: 0, lon: -179.5 }, [
        [179.5, 0],
        [179.9, 0],
      ]),
    ).toBeCloseTo(haversineKm({ lat: 0, lon: -179.5 }, { lat: 0, lon: 179.9 }), 6);
  });
});
