// The synthetic world's July and December over land against a global climatology: the 5 degree
// land means of Legates & Willmott (1989) with CRU CL 2.0 (packages/geography/test/data, derived by
// packages/geography/scripts/derive-temperature-check.ts). The maps are older than the stations'
// 1991-2020 normals; the derivation measured how much colder they read at stations
// (`stationCheck.meanK`), and that is added back before comparing. The bounds are the model's
// measured skill with a margin (docs/decisions/0080-geographic-temperature-climate.md): a change
// that degrades the climate somewhere on Earth shows here even where no station checks it.
import { earthGeography } from '@fieldcast/geography';
import { SyntheticSource } from '../src/index.js';
import { TEMPERATURE_GRID } from './climate-normals-data.js';

const source = new SyntheticSource({ now: () => Date.UTC(2025, 0, 1), pointCacheChunks: 0 });
const geo = earthGeography();
const YEARS = [2016, 2020, 2024];

/**
 * Latitude bands and their bounds: area-weighted bias (model - map) and RMSE, K, for July and
 * December. Measured (years 2016, 2020, 2024), with the sea upwind in the fit
 * (docs/decisions/0088-temperature-with-the-sea-upwind.md): 60-90 N July 0.2 / 1.8, December
 * 0.1 / 2.8; 30-60 N -0.1 / 1.9, 0.1 / 2.2; 30 S-30 N 0.2 / 1.8, -0.2 / 1.7; 60-30 S 0.2 / 2.1,
 * 0.3 / 1.9; Antarctica 0.0 / 5.4, 0.4 / 4.1 (no station constrains the ice sheet; the
 * climatology's cells do). Before it: 4.2 and 7.9 in the Arctic, 3.0-4.3 in mid-latitudes and
 * the tropics, 11.3 over Antarctica.
 */
const BANDS = [
  { name: '60-90 N', south: 60, north: 90, maxBias: 1.0, maxRmse: 3.4 },
  { name: '30-60 N', south: 30, north: 60, maxBias: 0.7, maxRmse: 2.7 },
  { name: '30 S-30 N', south: -30, north: 30, maxBias: 0.7, maxRmse: 2.3 },
  { name: '60-30 S', south: -60, north: -30, maxBias: 0.8, maxRmse: 2.6 },
  { name: 'Antarctica, 90-60 S', south: -90, north: -60, maxBias: 1.0, maxRmse: 6.0 },
];

/** Mean of (Tmax + Tmin) / 2 over a month of the given years at a point. */
async function monthMean(lat: number, lon: number, month: number): Promise<number> {
  let sum = 0,
    n = 0;
  for (const y of YEARS) {
    const { tmax, tmin } = await source.dailyExtremesAt(lon, lat, { startMs: Date.UTC(y, month, 1), endMs: Date.UTC(y, month + 1, 0) });
    for (let i = 0; i < tmax.values.length; i++, n++) sum += (tmax.values[i]! + tmin.values[i]!) / 2;
  }
  return sum / n;
}

/** Up to four land points of a cell (2.5 degrees apart), as the map's land mean is over land. */
function landPoints(lat: number, lon: number): [number, number][] {
  const q = TEMPERATURE_GRID.cellDeg / 4;
  const pts: [number, number][] = [];
  for (const dy of [-q, q]) for (const dx of [-q, q]) if (geo.landFractionAt(lat + dy, lon + dx) >= 0.5) pts.push([lat + dy, lon + dx]);
  return pts;
}

interface Stat {
  w: number;
  bias: number;
  sq: number;
}

const stats = new Map<string, { july: Stat; december: Stat }>();

beforeAll(async () => {
  const offset = -TEMPERATURE_GRID.stationCheck.meanK;
  for (const b of BANDS) stats.set(b.name, { july: { w: 0, bias: 0, sq: 0 }, december: { w: 0, bias: 0, sq: 0 } });
  for (const { lat, lon, julyLand: july, decemberLand: december } of TEMPERATURE_GRID.cells) {
    if (july === null || december === null) continue;
    const pts = landPoints(lat, lon);
    if (pts.length === 0) continue;
    const band = BANDS.find((b) => lat >= b.south && lat < b.north)!;
    const s = stats.get(band.name)!;
    const w = Math.cos((lat * Math.PI) / 180);
    for (const [month, map, st] of [
      [6, july, s.july],
      [11, december, s.december],
    ] as const) {
      let m = 0;
      for (const [y, x] of pts) m += await monthMean(y, x, month);
      const d = m / pts.length - (map + offset);
      st.w += w;
      st.bias += w * d;
      st.sq += w * d * d;
    }
  }
  const rows = BANDS.map((b) => {
    const s = stats.get(b.name)!;
    const f = (st: Stat) => `bias ${(st.bias / st.w).toFixed(2)} K, RMSE ${Math.sqrt(st.sq / st.w).toFixed(2)} K`;
    return `${b.name}: July ${f(s.july)}; December ${f(s.december)}`;
  });
  console.log(rows.join('\n'));
}, 600_000);

describe('synthetic July and December over land against the 5 degree climatology', () => {
  it('covers the land of every latitude band', () => {
    for (const b of BANDS) expect(stats.get(b.name)!.july.w).toBeGreaterThan(0);
  });
  it.each(BANDS.map((b) => [b.name, b] as const))('%s: bias and RMSE within the bounds', (name, b) => {
    const s = stats.get(name)!;
    for (const st of [s.july, s.december]) {
      expect(Math.abs(st.bias / st.w)).toBeLessThanOrEqual(b.maxBias);
      expect(Math.sqrt(st.sq / st.w)).toBeLessThanOrEqual(b.maxRmse);
    }
  });
});
