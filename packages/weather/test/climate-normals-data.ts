/**
 * Climate normals the synthetic world is checked against, and how the synthetic climate of a
 * place is measured: the mean of the coldest month, the warmest month and the year over
 * 2016-2024 of (Tmax + Tmin) / 2 from dailyExtremesAt, the daily values the endpoints use.
 */
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import type { GridSource } from '../src/grid/grid-source.js';

export interface NormalsPlace {
  name: string;
  lat: number;
  lon: number;
  elev?: number;
  coldest: number;
  warmest: number;
  annual: number;
}

/** Published 1991-2020 station normals, with the tolerances they are held to (geography's test data). */
export const NORMALS = JSON.parse(readFileSync(new URL('../../geography/test/data/climate-normals.json', import.meta.url), 'utf8')) as {
  tolerance: { coldest: number; warmest: number; annual: number };
  places: NormalsPlace[];
};

/**
 * Places outside the file, from the same kind of published 1991-2020 (or 1981-2010) station
 * normals, rounded. The fit uses them beside the file's places (scripts/fit-geoclimate.ts), with
 * a third of the weight; the held-out places below are the check it never sees.
 */
export const EXTRA_PLACES: NormalsPlace[] = [
  { name: 'Irkutsk', lat: 52.27, lon: 104.32, coldest: -17.8, warmest: 18.8, annual: 1.2 },
  { name: 'Reykjavik', lat: 64.13, lon: -21.9, coldest: -0.5, warmest: 11.5, annual: 5.0 },
  { name: 'Lima', lat: -12.05, lon: -77.04, coldest: 16.5, warmest: 23.5, annual: 19.5 },
  { name: 'Perth', lat: -31.95, lon: 115.86, coldest: 13.2, warmest: 24.5, annual: 18.7 },
  { name: 'Nairobi', lat: -1.29, lon: 36.82, coldest: 15.8, warmest: 20.2, annual: 18.0 },
  { name: 'Anchorage', lat: 61.17, lon: -149.99, coldest: -8.0, warmest: 15.3, annual: 3.2 },
  { name: 'Honolulu', lat: 21.31, lon: -157.86, coldest: 23.2, warmest: 27.8, annual: 25.5 },
  { name: 'Cape Town', lat: -33.96, lon: 18.6, coldest: 12.3, warmest: 21.5, annual: 17.0 },
];

/**
 * Further stations, from the same kind of published 1991-2020 station normals (national met
 * services' values as quoted in public climate tables), rounded, split in two by alternating
 * down one list: the first half is fitted beside the extra places (scripts/fit-geoclimate.ts),
 * the second never is. The held-out half measures the model away from the places it is fitted
 * to: the fit script reports their residuals, climate-normals.test.ts bounds their RMS error, and
 * docs/decisions/0081 records them.
 */
export const FURTHER_FIT_PLACES: NormalsPlace[] = [
  { name: 'Bergen', lat: 60.38, lon: 5.33, coldest: 2.0, warmest: 15.7, annual: 8.6 },
  { name: 'Murmansk', lat: 68.97, lon: 33.08, coldest: -9.8, warmest: 13.4, annual: 0.8 },
  { name: 'Paris', lat: 48.82, lon: 2.33, coldest: 5.4, warmest: 21.0, annual: 12.9 },
  { name: 'Yakutsk', lat: 62.03, lon: 129.73, coldest: -38.6, warmest: 19.5, annual: -8.4 },
  { name: 'Beijing', lat: 39.93, lon: 116.28, coldest: -3.1, warmest: 27.0, annual: 12.9 },
  { name: 'Hong Kong', lat: 22.3, lon: 114.17, coldest: 16.3, warmest: 29.0, annual: 23.5 },
  { name: 'Riyadh', lat: 24.71, lon: 46.68, coldest: 15.0, warmest: 36.0, annual: 26.8 },
  { name: 'Johannesburg', lat: -26.2, lon: 28.04, coldest: 10.4, warmest: 20.4, annual: 16.0 },
  { name: 'Santiago', lat: -33.45, lon: -70.67, coldest: 8.5, warmest: 21.1, annual: 14.6 },
  { name: 'Hobart', lat: -42.88, lon: 147.33, coldest: 8.0, warmest: 17.2, annual: 12.5 },
  { name: 'Juneau', lat: 58.36, lon: -134.58, coldest: -1.3, warmest: 14.3, annual: 5.9 },
  { name: 'Calgary', lat: 51.1, lon: -114.0, coldest: -6.8, warmest: 16.5, annual: 4.4 },
  { name: 'Chicago', lat: 41.98, lon: -87.9, coldest: -4.4, warmest: 23.6, annual: 10.2 },
  { name: 'New York', lat: 40.78, lon: -73.97, coldest: 0.9, warmest: 25.6, annual: 13.2 },
];

/** The held-out half (see FURTHER_FIT_PLACES). */
export const HELD_OUT_PLACES: NormalsPlace[] = [
  { name: 'Tromso', lat: 69.65, lon: 18.93, coldest: -3.5, warmest: 12.6, annual: 3.4 },
  { name: 'Helsinki', lat: 60.17, lon: 24.95, coldest: -3.5, warmest: 18.1, annual: 6.5 },
  { name: 'Madrid', lat: 40.41, lon: -3.68, coldest: 6.3, warmest: 25.8, annual: 15.0 },
  { name: 'Ulaanbaatar', lat: 47.92, lon: 106.92, coldest: -21.6, warmest: 17.8, annual: -0.4 },
  { name: 'Vladivostok', lat: 43.12, lon: 131.9, coldest: -12.3, warmest: 20.2, annual: 4.9 },
  { name: 'Mumbai', lat: 19.08, lon: 72.88, coldest: 24.5, warmest: 30.0, annual: 27.3 },
  { name: 'Lagos', lat: 6.45, lon: 3.4, coldest: 25.0, warmest: 28.7, annual: 27.0 },
  { name: 'Manaus', lat: -3.1, lon: -60.02, coldest: 26.3, warmest: 28.5, annual: 27.2 },
  { name: 'Auckland', lat: -37.0, lon: 174.8, coldest: 11.0, warmest: 19.8, annual: 15.3 },
  { name: 'Fairbanks', lat: 64.82, lon: -147.86, coldest: -22.0, warmest: 17.0, annual: -2.2 },
  { name: 'Seattle', lat: 47.45, lon: -122.31, coldest: 5.4, warmest: 19.6, annual: 11.6 },
  { name: 'Winnipeg', lat: 49.9, lon: -97.24, coldest: -16.0, warmest: 19.9, annual: 3.3 },
  { name: 'Montreal', lat: 45.47, lon: -73.74, coldest: -9.7, warmest: 21.2, annual: 6.8 },
  { name: 'Phoenix', lat: 33.43, lon: -112.01, coldest: 12.8, warmest: 35.1, annual: 24.5 },
];

/** A cell of a July and December climatology: its centre, land share and the means over its land and its sea (degC or mm; null where none). */
export interface ClimatologyCell {
  lat: number;
  lon: number;
  land: number;
  julyLand: number | null;
  decemberLand: number | null;
  julySea: number | null;
  decemberSea: number | null;
}

/**
 * July and December mean temperatures over the land and the sea of 5 degree cells (Legates &
 * Willmott 1989 with CRU CL 2.0 via Debian marble-qt-data, CC BY-SA 3.0; derived by
 * packages/geography/scripts/derive-temperature-check.ts, whose comment gives the layout).
 * `stationCheck.meanK` is how much the maps read off station 1991-2020 normals (they are older).
 */
export const TEMPERATURE_GRID = ((): { cellDeg: number; stationCheck: { meanK: number; rmsK: number }; cells: ClimatologyCell[] } => {
  const file = JSON.parse(
    readFileSync(new URL('../../geography/test/data/temperature-july-december-5deg.json', import.meta.url), 'utf8'),
  ) as {
    cellDeg: number;
    stationCheck: { meanK: number; rmsK: number };
    layers: Record<'landPercent' | 'julyLand' | 'decemberLand' | 'julySea' | 'decemberSea', string>;
  };
  const bytes = (name: keyof typeof file.layers) => inflateSync(Buffer.from(file.layers[name], 'base64'));
  const signed = (name: keyof typeof file.layers) => {
    const b = bytes(name);
    return new Int8Array(b.buffer, b.byteOffset, b.length);
  };
  const land = bytes('landPercent');
  const [jl, dl, js, ds] = (['julyLand', 'decemberLand', 'julySea', 'decemberSea'] as const).map(signed);
  const nLon = 360 / file.cellDeg;
  const value = (v: number) => (v === -128 ? null : v);
  const cells: ClimatologyCell[] = Array.from(land, (l, k) => ({
    lat: -90 + (Math.floor(k / nLon) + 0.5) * file.cellDeg,
    lon: -180 + ((k % nLon) + 0.5) * file.cellDeg,
    land: l / 100,
    julyLand: value(jl![k]!),
    decemberLand: value(dl![k]!),
    julySea: value(js![k]!),
    decemberSea: value(ds![k]!),
  }));
  return { cellDeg: file.cellDeg, stationCheck: file.stationCheck, cells };
})();

const YEARS = [2016, 2024] as const;

/** Monthly and annual means of the daily mean temperature at a point over 2016-2024. */
export async function climateOf(
  source: GridSource,
  lat: number,
  lon: number,
): Promise<{ coldest: number; warmest: number; annual: number }> {
  const startMs = Date.UTC(YEARS[0], 0, 1),
    endMs = Date.UTC(YEARS[1], 11, 31);
  const { tmax, tmin } = await source.dailyExtremesAt(lon, lat, { startMs, endMs });
  const sum = new Float64Array(12),
    count = new Float64Array(12);
  for (let i = 0; i < tmax.values.length; i++) {
    const month = new Date(tmax.startMs + i * tmax.stepMs).getUTCMonth();
    sum[month]! += (tmax.values[i]! + tmin.values[i]!) / 2;
    count[month]! += 1;
  }
  const months = Array.from(sum, (s, m) => s / count[m]!);
  return { coldest: Math.min(...months), warmest: Math.max(...months), annual: months.reduce((a, b) => a + b, 0) / 12 };
}
