/**
 * Precipitation normals the synthetic world is checked against, the global July and December
 * climatology it is fitted to, and how its precipitation at a place is measured: monthly totals
 * of the hourly precipitation_rate the endpoints serve, averaged over 2016-2024.
 */
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import type { SyntheticSource } from '../src/index.js';
import type { ClimatologyCell } from './climate-normals-data.js';

export interface PrecipitationNormal {
  name: string;
  lat: number;
  lon: number;
  /** kind of climate, for the report */
  kind: 'wet tropics' | 'monsoon' | 'desert' | 'continental' | 'maritime' | 'mediterranean' | 'humid subtropical';
  /** mean annual total, mm */
  annual: number;
  /** mean totals of January and July, mm */
  january: number;
  july: number;
  /** whose normal it is (where the header's list does not name it) */
  source?: string;
}

/**
 * Published 1991-2020 station normals (national met services' values as quoted in public climate
 * tables: NOAA NCEI for the United States, the Met Office, DWD, Roshydromet, IMD, the Bureau of
 * Meteorology, INMET, JMA, the Meteorological Service Singapore, MET Norway, and the services named
 * per place), rounded to about 5-10 %. No fit reads them (scripts/fit-precipitation.ts fits a
 * gridded climatology): they check the climate at places it never saw.
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
  // The US plains and Southeast, the Mediterranean climates of five continents, the Pampas and
  // southeastern South America, Africa, Asia and Europe.
  {
    name: 'Amarillo',
    lat: 35.23,
    lon: -101.71,
    kind: 'continental',
    annual: 510,
    january: 18,
    july: 70,
    source: 'NOAA NCEI',
  },
  {
    name: 'Kansas City',
    lat: 39.3,
    lon: -94.71,
    kind: 'continental',
    annual: 1040,
    january: 30,
    july: 110,
    source: 'NOAA NCEI',
  },
  {
    name: 'Sacramento',
    lat: 38.51,
    lon: -121.49,
    kind: 'mediterranean',
    annual: 460,
    january: 95,
    july: 0,
    source: 'NOAA NCEI',
  },
  { name: 'Madrid', lat: 40.41, lon: -3.68, kind: 'mediterranean', annual: 420, january: 33, july: 12, source: 'AEMET' },
  {
    name: 'Perth',
    lat: -31.93,
    lon: 115.98,
    kind: 'mediterranean',
    annual: 720,
    january: 15,
    july: 145,
    source: 'Bureau of Meteorology',
  },
  {
    name: 'Santiago de Chile',
    lat: -33.45,
    lon: -70.68,
    kind: 'mediterranean',
    annual: 280,
    january: 1,
    july: 65,
    source: 'Dirección Meteorológica de Chile',
  },
  {
    name: 'Córdoba, Argentina',
    lat: -31.31,
    lon: -64.21,
    kind: 'humid subtropical',
    annual: 800,
    january: 120,
    july: 10,
    source: 'SMN Argentina',
  },
  {
    name: 'São Paulo',
    lat: -23.5,
    lon: -46.62,
    kind: 'humid subtropical',
    annual: 1650,
    january: 290,
    july: 50,
    source: 'INMET',
  },
  {
    name: 'Johannesburg',
    lat: -26.14,
    lon: 28.25,
    kind: 'humid subtropical',
    annual: 700,
    january: 125,
    july: 5,
    source: 'South African Weather Service',
  },
  { name: 'Lagos', lat: 6.58, lon: 3.32, kind: 'wet tropics', annual: 1500, january: 12, july: 220, source: 'NiMet' },
  {
    name: 'Dhaka',
    lat: 23.78,
    lon: 90.38,
    kind: 'monsoon',
    annual: 2100,
    january: 7,
    july: 380,
    source: 'Bangladesh Meteorological Department',
  },
  { name: 'Tehran', lat: 35.68, lon: 51.32, kind: 'desert', annual: 230, january: 35, july: 3, source: 'IRIMO' },
  { name: 'Paris', lat: 48.82, lon: 2.34, kind: 'maritime', annual: 640, january: 50, july: 60, source: 'Météo-France' },
  {
    name: 'Shanghai',
    lat: 31.4,
    lon: 121.45,
    kind: 'humid subtropical',
    annual: 1250,
    january: 75,
    july: 170,
    source: 'CMA',
  },
  {
    name: 'Houston',
    lat: 29.98,
    lon: -95.36,
    kind: 'humid subtropical',
    annual: 1265,
    january: 90,
    july: 95,
    source: 'NOAA NCEI',
  },
  {
    name: 'Oklahoma City',
    lat: 35.39,
    lon: -97.6,
    kind: 'continental',
    annual: 920,
    january: 33,
    july: 75,
    source: 'NOAA NCEI',
  },
  {
    name: 'Dallas',
    lat: 32.9,
    lon: -97.04,
    kind: 'humid subtropical',
    annual: 955,
    january: 58,
    july: 53,
    source: 'NOAA NCEI',
  },
  { name: 'Denver', lat: 39.85, lon: -104.66, kind: 'continental', annual: 370, january: 10, july: 55, source: 'NOAA NCEI' },
  {
    name: 'Atlanta',
    lat: 33.64,
    lon: -84.43,
    kind: 'humid subtropical',
    annual: 1280,
    january: 107,
    july: 120,
    source: 'NOAA NCEI',
  },
  {
    name: 'Miami',
    lat: 25.79,
    lon: -80.29,
    kind: 'humid subtropical',
    annual: 1570,
    january: 45,
    july: 165,
    source: 'NOAA NCEI',
  },
  {
    name: 'Los Angeles',
    lat: 33.94,
    lon: -118.41,
    kind: 'mediterranean',
    annual: 320,
    january: 65,
    july: 0,
    source: 'NOAA NCEI',
  },
  {
    name: 'Rome',
    lat: 41.8,
    lon: 12.59,
    kind: 'mediterranean',
    annual: 790,
    january: 70,
    july: 15,
    source: 'Aeronautica Militare',
  },
  { name: 'Athens', lat: 37.9, lon: 23.73, kind: 'mediterranean', annual: 390, january: 55, july: 6, source: 'HNMS' },
  {
    name: 'Cape Town',
    lat: -33.97,
    lon: 18.6,
    kind: 'mediterranean',
    annual: 515,
    january: 15,
    july: 90,
    source: 'South African Weather Service',
  },
  {
    name: 'Buenos Aires',
    lat: -34.58,
    lon: -58.48,
    kind: 'humid subtropical',
    annual: 1240,
    january: 140,
    july: 70,
    source: 'SMN Argentina',
  },
  {
    name: 'Nairobi',
    lat: -1.3,
    lon: 36.75,
    kind: 'wet tropics',
    annual: 900,
    january: 55,
    july: 15,
    source: 'Kenya Meteorological Department',
  },
  {
    name: 'Karachi',
    lat: 24.9,
    lon: 67.15,
    kind: 'desert',
    annual: 190,
    january: 5,
    july: 65,
    source: 'Pakistan Meteorological Department',
  },
  { name: 'Warsaw', lat: 52.16, lon: 20.96, kind: 'continental', annual: 550, january: 35, july: 80, source: 'IMGW' },
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

/**
 * July and December precipitation over the land and the sea of 2.5 degree cells (Legates &
 * Willmott 1989 via Debian marble-qt-data, CC BY-SA 3.0; derived by
 * packages/geography/scripts/derive-precipitation-check.ts, whose comment gives the layout).
 * `stationCheck` is how the maps read at stations (ln of map over normal).
 */
export const PRECIPITATION_GRID = ((): {
  cellDeg: number;
  stationCheck: { meanLnRatio: number; rmsLnRatio: number };
  cells: ClimatologyCell[];
} => {
  type Layer = 'landPercent' | 'julyLand' | 'decemberLand' | 'julySea' | 'decemberSea';
  const file = JSON.parse(readFileSync(new URL('../../geography/test/data/precipitation-july-december.json', import.meta.url), 'utf8')) as {
    cellDeg: number;
    stationCheck: { meanLnRatio: number; rmsLnRatio: number };
    layers: Record<Layer, string>;
  };
  const bytes = (name: Layer) => inflateSync(Buffer.from(file.layers[name], 'base64'));
  const millimetres = (name: Exclude<Layer, 'landPercent'>) => {
    const b = bytes(name);
    return Array.from({ length: b.length / 2 }, (_, k) => {
      const v = b.readUInt16LE(2 * k);
      return v === 0xffff ? null : v;
    });
  };
  const [julyLand, decemberLand, julySea, decemberSea] = (['julyLand', 'decemberLand', 'julySea', 'decemberSea'] as const).map(millimetres);
  const nLon = 360 / file.cellDeg;
  const cells = Array.from(bytes('landPercent'), (l, k) => ({
    lat: -90 + (Math.floor(k / nLon) + 0.5) * file.cellDeg,
    lon: -180 + ((k % nLon) + 0.5) * file.cellDeg,
    land: l / 100,
    julyLand: julyLand![k]!,
    decemberLand: decemberLand![k]!,
    julySea: julySea![k]!,
    decemberSea: decemberSea![k]!,
  }));
  return { cellDeg: file.cellDeg, stationCheck: file.stationCheck, cells };
})();
