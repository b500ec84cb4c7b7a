// A map-tile-sized window of the synthetic temperature field shows the continents: at 50 N the
// land is colder than the sea in January and warmer in July (across the European/Atlantic and
// the Pacific/North American coasts), cell by cell against the geography's land mask.
import { coastDistanceKm, isLandAt } from '@fieldcast/geography';
import { SyntheticSource } from '../src/index.js';

const source = new SyntheticSource({ now: () => Date.UTC(2025, 0, 1) });

/** Monthly mean of (Tmax + Tmin) / 2 at a point, 2023. */
async function monthMean(lat: number, lon: number, month: number): Promise<number> {
  const startMs = Date.UTC(2023, month, 1),
    endMs = Date.UTC(2023, month + 1, 0);
  const { tmax, tmin } = await source.dailyExtremesAt(lon, lat, { startMs, endMs });
  let s = 0;
  for (let i = 0; i < tmax.values.length; i++) s += (tmax.values[i]! + tmin.values[i]!) / 2;
  return s / tmax.values.length;
}

/** Cells of a 2-degree window around 50 N, each land or sea by the mask and at least 150 km from the coast. */
function cells(west: number, east: number): { lat: number; lon: number; land: boolean }[] {
  const out: { lat: number; lon: number; land: boolean }[] = [];
  for (let lat = 46; lat <= 54; lat += 2) {
    for (let lon = west; lon <= east; lon += 2) {
      if (Math.abs(coastDistanceKm(lat, lon)) < 150) continue;
      out.push({ lat, lon, land: isLandAt(lat, lon) });
    }
  }
  return out;
}

describe.each([
  ['Atlantic and Europe', -40, 40],
  ['Pacific and North America', -170, -90],
] as const)('temperature field across the %s at 50 N', (_name, west, east) => {
  const window = cells(west, east);

  it('holds land and sea cells', () => {
    expect(window.filter((c) => c.land).length).toBeGreaterThanOrEqual(8);
    expect(window.filter((c) => !c.land).length).toBeGreaterThanOrEqual(8);
  });

  it.each([
    ['January', 'colder', 0, -1],
    ['July', 'warmer', 6, 1],
  ] as const)('in %s the land is %s than the sea, cell by cell', async (_month, _word, month, sign) => {
    const values = await Promise.all(window.map(async (c) => ({ ...c, t: await monthMean(c.lat, c.lon, month) })));
    const sea = values.filter((c) => !c.land);
    const land = values.filter((c) => c.land);
    // Compare each land cell with the sea cells of its own latitude (the zonal gradient aside).
    let agree = 0;
    for (const c of land) {
      const row = sea.filter((s) => s.lat === c.lat);
      const seaMean = row.length ? row.reduce((a, s) => a + s.t, 0) / row.length : sea.reduce((a, s) => a + s.t, 0) / sea.length;
      if (sign * (c.t - seaMean) > 0) agree++;
    }
    expect(agree / land.length).toBeGreaterThanOrEqual(0.85);
    const mean = (xs: { t: number }[]) => xs.reduce((a, x) => a + x.t, 0) / xs.length;
    expect(sign * (mean(land) - mean(sea))).toBeGreaterThan(3);
  });
});
