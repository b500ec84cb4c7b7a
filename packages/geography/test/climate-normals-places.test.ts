// Every place of the climate normals (test/data/climate-normals.json, published 1991-2020
// station normals) stands on land in the geography file and at about the height it states.
// Calibrating the climate against these normals is the synthetic world's job; this only
// checks that the geography under each station is the right one.
import { readFileSync } from 'node:fs';
import { earthGeography } from '../src/index.js';

interface NormalsPlace {
  name: string;
  lat: number;
  lon: number;
  elev?: number;
}

const normals = JSON.parse(readFileSync(new URL('./data/climate-normals.json', import.meta.url), 'utf8')) as {
  places: NormalsPlace[];
};
const g = earthGeography();

/** Within a quarter of a degree (about one and a half cells), some point is mostly land. */
function landNear(lat: number, lon: number): boolean {
  for (let dy = -0.25; dy <= 0.25; dy += 0.125) {
    for (let dx = -0.25; dx <= 0.25; dx += 0.125) {
      if (g.landFractionAt(Math.max(-90, Math.min(90, lat + dy)), lon + dx) >= 0.5) return true;
    }
  }
  return false;
}

describe('climate normals places on the geography', () => {
  it('holds places to check', () => {
    expect(normals.places.length).toBeGreaterThanOrEqual(10);
  });

  it.each(normals.places.map((p) => [p.name, p] as const))('%s is on land', (_name, p) => {
    expect(landNear(p.lat, p.lon)).toBe(true);
  });

  it.each(normals.places.filter((p) => p.elev !== undefined).map((p) => [p.name, p] as const))(
    '%s stands at its stated height within 75 m + 5 %%',
    (_name, p) => {
      // A cell mean over about 18 km against a station's height: hills nearby lift it.
      const tolerance = 75 + 0.05 * p.elev!;
      expect(Math.abs(g.elevationAt(p.lat, p.lon) - p.elev!)).toBeLessThanOrEqual(tolerance);
    },
  );
});
