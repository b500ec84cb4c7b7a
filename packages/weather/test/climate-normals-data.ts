/**
 * Climate normals the synthetic world is checked against, and how the synthetic climate of a
 * place is measured: the mean of the coldest month, the warmest month and the year over
 * 2016-2024 of (Tmax + Tmin) / 2 from dailyExtremesAt, the daily values the endpoints use.
 */
import { readFileSync } from 'node:fs';
import type { GridSource } from '../src/grid-source.js';

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
 * normals, rounded: a guard against fitting the model to the file's places.
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
