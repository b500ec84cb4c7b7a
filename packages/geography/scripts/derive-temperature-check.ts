// A coarse global check of the synthetic climate: the mean air temperature of July and of
// December over the land of every 5 degree cell, from the Legates & Willmott climatology maps
// that Debian's marble-qt-data ships (docs/data-sources.md).
//
// The maps (maps/earth/temp-july/temp-july.jpg, maps/earth/temp-dec/temp-dec.jpg) are 8-bit
// grayscale JPEGs, 2160 x 1080 pixels of 10 arc minutes, equirectangular, row 0 at 90 N and
// column 0 at 180 W. Their themes (temp-july.dgml, temp-dec.dgml) state the source: "Legates,
// D.R. und Willmott, C.J. 1989. Average Monthly Surface Air Temperature and Precipitation",
// licence "CC by-SA 3.0", and draw them with the palette tempcolors.leg, stops at grey 0 and 255
// that the legend labels -69 and 42 degC. So a grey g is read as T = -69 + 111 g / 255 degC. The
// script checks that reading against station normals (the published July and December means
// below): it prints each station's difference and their mean and RMS, and refuses to write the
// grid if the mean is off by more than 1.5 K or the RMS exceeds 2.5 K (a wrong ramp is off by
// far more). JPEG artefacts and the pixel-to-station distance cost about a kelvin.
//
// Each 5 degree cell keeps the area-weighted means over its land pixels (land share >= 0.5 in
// this package's grid) and over its sea pixels, in tenths of a degree, with the cell's land
// share; a mean over less than a quarter of the cell is left out (null).
//
// Run: npx -y pnpm@10 exec tsx packages/geography/scripts/derive-temperature-check.ts [marble data dir]
// (default /usr/share/marble/data, from `apt-get install marble-qt-data`); writes
// test/data/temperature-july-december-5deg.json.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { earthGeography } from '../src/geography.js';
import { readAround, readClimatologyMap } from './climatology-map.js';

const root = process.argv[2] ?? '/usr/share/marble/data';
const CELL_DEG = 5;
const MIN_SHARE = 0.25;

/** The palette's reading of a grey value, degC. */
const celsius = (grey: number): number => -69 + (111 * grey) / 255;

const july = readClimatologyMap(root, 'temp-july'),
  december = readClimatologyMap(root, 'temp-dec');

// Published 1991-2020 July and December station means (national met services' normals as quoted
// in public climate tables), rounded: the check of the grey ramp.
const STATIONS: [string, number, number, number, number][] = [
  ['Ames, Iowa', 42.03, -93.62, 23.6, -3.9],
  ['Minneapolis', 44.98, -93.27, 23.2, -6.4],
  ['Miami', 25.79, -80.32, 29.2, 21.6],
  ['Berlin', 52.52, 13.4, 19.8, 1.6],
  ['London', 51.51, -0.13, 19.0, 6.2],
  ['Moscow', 55.75, 37.62, 19.2, -4.4],
  ['Cairo', 30.04, 31.24, 28.4, 16.2],
  ['New Delhi', 28.61, 77.21, 31.5, 15.9],
  ['Singapore', 1.35, 103.82, 27.9, 26.8],
  ['Tokyo', 35.68, 139.69, 25.8, 7.7],
  ['Buenos Aires', -34.6, -58.38, 11.0, 23.6],
  ['Sydney', -33.87, 151.21, 13.1, 22.0],
  ['Irkutsk', 52.27, 104.32, 18.8, -15.5],
  ['Yakutsk', 62.03, 129.73, 19.5, -38.5],
  ['Reykjavik', 64.13, -21.9, 11.5, 0.2],
  ['Perth', -31.95, 115.86, 13.3, 22.5],
];
let sum = 0,
  sq = 0,
  n = 0;
for (const [name, lat, lon, tj, td] of STATIONS) {
  const dj = readAround(july, lat, lon, celsius) - tj,
    dd = readAround(december, lat, lon, celsius) - td;
  console.log(`${name}: July ${dj.toFixed(1)} K, December ${dd.toFixed(1)} K (map minus station)`);
  sum += dj + dd;
  sq += dj * dj + dd * dd;
  n += 2;
}
const bias = sum / n,
  rms = Math.sqrt(sq / n);
console.log(`map minus station normals: mean ${bias.toFixed(2)} K, RMS ${rms.toFixed(2)} K over ${n} values`);
if (Math.abs(bias) > 1.5 || rms > 2.5) throw new Error('the grey ramp does not read as the legend says; not writing the grid');

const geo = earthGeography();
const nLat = 180 / CELL_DEG,
  nLon = 360 / CELL_DEG;
type Means = { july: number; december: number } | null;
const cells: { lat: number; lon: number; land: number; overLand: Means; overSea: Means }[] = [];
const px = 360 / july.width;
for (let i = 0; i < nLat; i++) {
  for (let j = 0; j < nLon; j++) {
    const south = -90 + i * CELL_DEG,
      west = -180 + j * CELL_DEG;
    // [area, July sum, December sum] over land and over sea pixels, area-weighted.
    const sums = { land: [0, 0, 0], sea: [0, 0, 0] };
    for (let y = Math.round((90 - south - CELL_DEG) / px); y < Math.round((90 - south) / px); y++) {
      const lat = 90 - (y + 0.5) * px;
      const w = Math.cos((lat * Math.PI) / 180);
      for (let x = Math.round((west + 180) / px); x < Math.round((west + CELL_DEG + 180) / px); x++) {
        const lon = -180 + (x + 0.5) * px;
        const s = geo.landFractionAt(lat, lon) >= 0.5 ? sums.land : sums.sea;
        s[0]! += w;
        s[1]! += w * celsius(july.data[y * july.width + x]!);
        s[2]! += w * celsius(december.data[y * december.width + x]!);
      }
    }
    const area = sums.land[0]! + sums.sea[0]!;
    const means = (s: number[]): Means => (s[0]! / area < MIN_SHARE ? null : { july: s[1]! / s[0]!, december: s[2]! / s[0]! });
    cells.push({
      lat: south + CELL_DEG / 2,
      lon: west + CELL_DEG / 2,
      land: Math.round((sums.land[0]! / area) * 100) / 100,
      overLand: means(sums.land),
      overSea: means(sums.sea),
    });
  }
}
// Five layers of nLat x nLon bytes, rows from the south, columns from 180 W: the land share in
// percent (uint8) and the four means rounded to whole degrees (int8, -128 for none), each
// deflated (node:zlib) and base64-encoded. Whole degrees are ample for a check whose errors are
// kelvins (rounding adds 0.3 K RMS) and keep the file a few kilobytes.
const NONE = -128;
const layer = (pick: (c: (typeof cells)[number]) => number | null | undefined): string => {
  const bytes = new Int8Array(cells.length);
  cells.forEach((c, k) => {
    const v = pick(c);
    bytes[k] = v === null || v === undefined ? NONE : Math.round(v);
  });
  return deflateSync(new Uint8Array(bytes.buffer)).toString('base64');
};
const out = {
  about:
    'Mean air temperature (degC) of July and of December over the land and over the sea of 5 degree cells (a mean over less than a quarter of the cell is left out), from the Legates & Willmott (1989) climatology with CRU CL 2.0 as shipped in Debian marble-qt-data (maps/earth/temp-july, temp-dec; grey g read as -69 + 111 g / 255 degC). Derived by packages/geography/scripts/derive-temperature-check.ts.',
  source: 'Legates, D.R. and Willmott, C.J. 1989. Average Monthly Surface Air Temperature and Precipitation; via Debian marble-qt-data',
  licence: 'CC BY-SA 3.0',
  stationCheck: { meanK: Math.round(bias * 100) / 100, rmsK: Math.round(rms * 100) / 100, values: n },
  cellDeg: CELL_DEG,
  layout: `each layer: ${nLat} x ${nLon} bytes, rows from 90 S, columns from 180 W, deflated and base64; landPercent uint8, the others int8 whole degC with ${NONE} for none`,
  layers: {
    landPercent: deflateSync(Uint8Array.from(cells, (c) => Math.round(c.land * 100))).toString('base64'),
    julyLand: layer((c) => c.overLand?.july),
    decemberLand: layer((c) => c.overLand?.december),
    julySea: layer((c) => c.overSea?.july),
    decemberSea: layer((c) => c.overSea?.december),
  },
};
const file = new URL('../test/data/temperature-july-december-5deg.json', import.meta.url);
writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
console.log(`wrote ${cells.length} cells to ${file.pathname}`);
