import { placeAt, placePath, placeText } from '../src/browser/place.js';

// A click on the map's copies of the world east or west of the antimeridian (worldCopyJump) is
// the same place on the one world the areas take, -180..180 (docs/interface.md §3).
describe('the place under a map click', () => {
  it('wraps a longitude beyond ±180 into the world the areas take', () => {
    expect(placeAt({ lat: -41.29, lng: 190.459 }).longitude).toBeCloseTo(-169.541, 9);
    expect(placeAt({ lat: 64.8, lng: -190 }).longitude).toBeCloseTo(170, 9);
    expect(placeAt({ lat: 0, lng: 540 }).longitude).toBe(-180);
    expect(placeAt({ lat: 0, lng: 720 + 12.5 }).longitude).toBeCloseTo(12.5, 9);
  });

  it('leaves a place on the first world as it is', () => {
    expect(placeAt({ lat: 38.5, lng: -98.5 })).toEqual({ latitude: 38.5, longitude: -98.5 });
    expect(placeAt({ lat: 0, lng: -180 }).longitude).toBe(-180);
    // as Leaflet's LatLng.wrap(): the antimeridian is named -180
    expect(placeAt({ lat: 0, lng: 180 }).longitude).toBe(-180);
  });

  it('names the place in the areas’ location paths and in the panel to four decimals', () => {
    const place = placeAt({ lat: -41.290001, lng: 190.45912 });
    expect(placePath(place)).toBe('-41.2900/-169.5409');
    expect(placeText(place)).toBe('-41.2900, -169.5409');
  });
});
