/**
 * Precipitation normals the synthetic world is checked against, and how its precipitation at a
 * place is measured: monthly totals of the hourly precipitation_rate the endpoints serve,
 * averaged over 2016-2024.
 */
import type { SyntheticSource } from '../src/index.js';

export interface PrecipitationNormal {
  name: string;
  lat: number;
  lon: number;
  /** kind of climate, for the report */
  kind: 'wet tropics' | 'monsoon' | 'desert' | 'continental' | 'maritime';
  /** mean annual total, mm */
  annual: number;
  /** mean totals of January and July, mm */
  january: number;
  july: number;
}

/**
 * Published 1991-2020 station normals (national met services' values as quoted in public climate
 * tables: NOAA NCEI for the United States, the Met Office, DWD, Roshydromet, IMD, the Bureau of
 * Meteorology, INMET, JMA, the Meteorological Service Singapore, MET Norway), rounded to about
 * 5 %.
 */
export const PRECIPITATION_NORMALS: PrecipitationNormal[] = [
  { name: 'Singapore', lat: 1.35, lon: 103.98, kind: 'wet tropics', annual: 2530, january: 220, july: 160 },
  { name: 'Manaus', lat: -3.1, lon: -60.02, kind: 'wet tropics', annual: 2300, january: 290, july: 90 },
  { name: 'Mumbai', lat: 19.08, lon: 72.88, kind: 'monsoon', annual: 2210, january: 1, july: 840 },
  { name: 'Kolkata', lat: 22.65, lon: 88.45, kind: 'monsoon', annual: 1650, january: 12, july: 340 },
  { name: 'New Delhi', lat: 28.58, lon: 77.2, kind: 'monsoon', annual: 770, january: 19, july: 210 },
  { name: 'Darwin', lat: -12.42, lon: 130.89, kind: 'monsoon', annual: 1730, january: 420, july: 1 },
  { name: 'Niamey', lat: 13.48, lon: 2.17, kind: 'monsoon', annual: 560, january: 0, july: 150 },
  { name: 'Cairo', lat: 30.13, lon: 31.4, kind: 'desert', annual: 25, january: 5, july: 0 },
  { name: 'Riyadh', lat: 24.71, lon: 46.68, kind: 'desert', annual: 90, january: 13, july: 0 },
  { name: 'Phoenix', lat: 33.43, lon: -112.01, kind: 'desert', annual: 180, january: 23, july: 27 },
  { name: 'Alice Springs', lat: -23.8, lon: 133.89, kind: 'desert', annual: 285, january: 40, july: 10 },
  { name: 'Ames, Iowa', lat: 42.03, lon: -93.62, kind: 'continental', annual: 900, january: 23, july: 114 },
  { name: 'Minneapolis', lat: 44.88, lon: -93.23, kind: 'continental', annual: 780, january: 22, july: 103 },
  { name: 'Moscow', lat: 55.83, lon: 37.62, kind: 'continental', annual: 710, january: 53, july: 94 },
  { name: 'Beijing', lat: 39.93, lon: 116.28, kind: 'continental', annual: 530, january: 3, july: 170 },
  { name: 'Irkutsk', lat: 52.27, lon: 104.32, kind: 'continental', annual: 480, january: 12, july: 110 },
  { name: 'London', lat: 51.48, lon: -0.45, kind: 'maritime', annual: 620, january: 55, july: 45 },
  { name: 'Bergen', lat: 60.38, lon: 5.33, kind: 'maritime', annual: 2250, january: 240, july: 140 },
  { name: 'Seattle', lat: 47.45, lon: -122.31, kind: 'maritime', annual: 990, january: 140, july: 15 },
  { name: 'Berlin', lat: 52.47, lon: 13.4, kind: 'maritime', annual: 570, january: 45, july: 55 },
  { name: 'Sydney', lat: -33.86, lon: 151.2, kind: 'maritime', annual: 1150, january: 90, july: 70 },
  { name: 'Tokyo', lat: 35.69, lon: 139.75, kind: 'maritime', annual: 1600, january: 60, july: 155 },
];

const YEARS = [2016, 2024] as const;

/** Mean monthly totals (mm, January first) and annual total of precipitation at a point over 2016-2024. */
export function precipitationOf(source: SyntheticSource, lat: number, lon: number): { months: number[]; annual: number } {
  const sum = new Float64Array(12);
  for (let y = YEARS[0]; y <= YEARS[1]; y++) {
    const s = source.pointSeriesSync('precipitation_rate', lon, lat, { startMs: Date.UTC(y, 0, 1), endMs: Date.UTC(y, 11, 31, 23) });
    for (let i = 0; i < s.values.length; i++) sum[new Date(s.startMs + i * s.stepMs).getUTCMonth()]! += s.values[i]!;
  }
  const n = YEARS[1] - YEARS[0] + 1;
  const months = Array.from(sum, (v) => v / n);
  return { months, annual: months.reduce((a, b) => a + b, 0) };
}
