// A global climatology of precipitation for the synthetic world's precipitation climate: the mean
// July and December totals over the land and the sea of every 2.5 degree cell, from the Legates & Willmott
// climatology maps that Debian's marble-qt-data ships (docs/data-sources.md). The synthetic
// climate is fitted to it (packages/weather/scripts/fit-precipitation.ts) and checked against it
// (packages/weather/test/precipitation-global.test.ts); station normals it never sees check both.
//
// The maps (maps/earth/precip-july/precip-july.jpg, maps/earth/precip-dec/precip-dec.jpg) are
// 8-bit greyscale JPEGs of 2160 x 1080 pixels of 10 arc minutes, equirectangular, row 0 at 90 N
// and column 0 at 180 W. Their themes (precip-july.dgml, precip-dec.dgml) name the source
// ("Legates, D.R. und Willmott, C.J. 1989. Average Monthly Surface Air Temperature and
// Precipitation", licence "CC by-SA 3.0") and draw them with the palette precipcolors.leg, whose
// stops sit at grey fractions 0, 0.04, 0.16, 0.25, 0.35, 0.50, 0.75, 0.87 and 0.93 and which the
// legend labels 0, 10, 40, 63, 89, 127, 256, 512 and "1024 mm or more". A grey g is read by linear
// interpolation between those stops (below 127 mm that is one millimetre a grey level: the
// encoding is linear there and coarser above, where the grey histogram piles up at the stops);
// from the last stop up it is 1,024 mm (the map saturates there: Mumbai's and Cherrapunji's
// monsoon months read 1,024). The script checks that reading against station normals (the
// published July totals below): it prints each station's ratio and the mean and RMS of
// ln((map + 3) / (normal + 3)), and refuses to write the grid if the mean is off by more than
// 0.25 (a quarter, either way) or the RMS exceeds 0.6 (a wrong ramp is off by far more; a 10
// arc-minute pixel is not a rain gauge, and the maps are of an older period than the normals).
//
// Each 2.5 degree cell keeps the area-weighted mean totals (mm) over its land pixels (land share
// >= 0.5 in this package's grid) and over its sea pixels, with the cell's land share; a mean over
// less than a quarter of the cell is left out. The sea's values (the climatology's ocean estimates)
// are less sure than the land's gauges; the fit leans on them lightly.
//
// Run: npx -y pnpm@10 exec tsx packages/geography/scripts/derive-precipitation-check.ts [marble data dir]
// (default /usr/share/marble/data, from `apt-get install marble-qt-data`); writes
// test/data/precipitation-july-december.json.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { earthGeography } from '../src/geography.js';
import { readAround, readClimatologyMap } from './climatology-map.js';

const root = process.argv[2] ?? '/usr/share/marble/data';
const CELL_DEG = 2.5;
const MIN_SHARE = 0.25;
const NONE = 0xffff;

/** The stops of precipcolors.leg and the legend's labels: [grey fraction, mm]. */
const STOPS: readonly (readonly [number, number])[] = [
  [0, 0],
  [0.04, 10],
  [0.16, 40],
  [0.25, 63],
  [0.35, 89],
  [0.5, 127],
  [0.75, 256],
  [0.87, 512],
  [0.93, 1024],
];

/** The legend's reading of a grey value, mm a month. */
function millimetres(grey: number): number {
  const x = grey / 255;
  for (let i = 1; i < STOPS.length; i++) {
    const [x0, y0] = STOPS[i - 1]!,
      [x1, y1] = STOPS[i]!;
    if (x <= x1) return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
  }
  return STOPS[STOPS.length - 1]![1];
}
const MM = Float64Array.from({ length: 256 }, (_, g) => millimetres(g));

const july = readClimatologyMap(root, 'precip-july'),
  december = readClimatologyMap(root, 'precip-dec');

// Published 1991-2020 July totals, mm (national met services' station normals as quoted in public
// climate tables), rounded: the check of the grey ramp, from dry to monsoon months.
const STATIONS: [string, number, number, number][] = [
  ['Singapore', 1.35, 103.98, 160],
  ['Manaus', -3.1, -60.02, 90],
  ['Mumbai', 19.08, 72.88, 840],
  ['Kolkata', 22.65, 88.45, 340],
  ['New Delhi', 28.58, 77.2, 210],
  ['Niamey', 13.48, 2.17, 150],
  ['Cairo', 30.13, 31.4, 0],
  ['Phoenix', 33.43, -112.01, 27],
  ['Alice Springs', -23.8, 133.89, 10],
  ['Ames, Iowa', 42.03, -93.62, 114],
  ['Minneapolis', 44.88, -93.23, 103],
  ['Moscow', 55.83, 37.62, 94],
  ['Beijing', 39.93, 116.28, 170],
  ['Irkutsk', 52.27, 104.32, 110],
  ['London', 51.48, -0.45, 45],
  ['Bergen', 60.38, 5.33, 140],
  ['Seattle', 47.45, -122.31, 15],
  ['Berlin', 52.47, 13.4, 55],
  ['Sydney', -33.86, 151.2, 70],
  ['Tokyo', 35.69, 139.75, 155],
  ['Oklahoma City', 35.39, -97.6, 75],
  ['Atlanta', 33.64, -84.43, 120],
  ['Sacramento', 38.51, -121.49, 0],
  ['Perth', -31.93, 115.98, 145],
  ['Madrid', 40.41, -3.68, 12],
];
let sum = 0,
  sq = 0;
for (const [name, lat, lon, normal] of STATIONS) {
  const map = readAround(july, lat, lon, (g) => MM[g]!);
  const d = Math.log((map + 3) / (normal + 3));
  console.log(`${name}: July map ${map.toFixed(0)} mm, normal ${normal} mm, ln ratio ${d.toFixed(2)}`);
  sum += d;
  sq += d * d;
}
const bias = sum / STATIONS.length,
  rms = Math.sqrt(sq / STATIONS.length);
console.log(`ln((map + 3) / (normal + 3)) over ${STATIONS.length} stations: mean ${bias.toFixed(3)}, RMS ${rms.toFixed(3)}`);
if (Math.abs(bias) > 0.25 || rms > 0.6) throw new Error('the grey ramp does not read as the legend says; not writing the grid');

const geo = earthGeography();
const nLat = 180 / CELL_DEG,
  nLon = 360 / CELL_DEG;
const landPercent = new Uint8Array(nLat * nLon),
  julyLand = new Uint16Array(nLat * nLon).fill(NONE),
  decemberLand = new Uint16Array(nLat * nLon).fill(NONE),
  julySea = new Uint16Array(nLat * nLon).fill(NONE),
  decemberSea = new Uint16Array(nLat * nLon).fill(NONE);
const px = 360 / july.width;
let kept = 0;
for (let i = 0; i < nLat; i++) {
  for (let j = 0; j < nLon; j++) {
    const south = -90 + i * CELL_DEG,
      west = -180 + j * CELL_DEG;
    let area = 0,
      landArea = 0,
      jul = 0,
      dec = 0,
      seaJul = 0,
      seaDec = 0;
    for (let y = Math.round((90 - south - CELL_DEG) / px); y < Math.round((90 - south) / px); y++) {
      const lat = 90 - (y + 0.5) * px;
      const w = Math.cos((lat * Math.PI) / 180);
      for (let x = Math.round((west + 180) / px); x < Math.round((west + CELL_DEG + 180) / px); x++) {
        area += w;
        const j = w * MM[july.data[y * july.width + x]!]!,
          d = w * MM[december.data[y * december.width + x]!]!;
        if (geo.landFractionAt(lat, -180 + (x + 0.5) * px) < 0.5) {
          seaJul += j;
          seaDec += d;
          continue;
        }
        landArea += w;
        jul += j;
        dec += d;
      }
    }
    const k = i * nLon + j;
    landPercent[k] = Math.round((100 * landArea) / area);
    const seaArea = area - landArea;
    if (seaArea / area >= MIN_SHARE) {
      julySea[k] = Math.round(seaJul / seaArea);
      decemberSea[k] = Math.round(seaDec / seaArea);
    }
    if (landArea / area < MIN_SHARE) continue;
    julyLand[k] = Math.round(jul / landArea);
    decemberLand[k] = Math.round(dec / landArea);
    kept++;
  }
}
// Three layers of nLat x nLon values, rows from the south, columns from 180 W, each deflated
// (node:zlib) and base64-encoded: the land share in percent (uint8), and the July and December
// land and sea means in whole millimetres (uint16, little-endian, 65535 for none).
const encode = (a: Uint8Array | Uint16Array) => deflateSync(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).toString('base64');
const out = {
  about:
    'Mean precipitation (mm) of July and of December over the land and over the sea of 2.5 degree cells (a mean over less than a quarter of the cell is left out), from the Legates & Willmott (1989) climatology as shipped in Debian marble-qt-data (maps/earth/precip-july, precip-dec; grey read through the legend of precipcolors.leg). Derived by packages/geography/scripts/derive-precipitation-check.ts.',
  source: 'Legates, D.R. and Willmott, C.J. 1989. Average Monthly Surface Air Temperature and Precipitation; via Debian marble-qt-data',
  licence: 'CC BY-SA 3.0',
  stationCheck: { meanLnRatio: Math.round(bias * 1000) / 1000, rmsLnRatio: Math.round(rms * 1000) / 1000, stations: STATIONS.length },
  cellDeg: CELL_DEG,
  layout: `each layer: ${nLat} x ${nLon} values, rows from 90 S, columns from 180 W, deflated and base64; landPercent uint8, julyLand, decemberLand, julySea and decemberSea uint16 little-endian mm with ${NONE} for none`,
  layers: {
    landPercent: encode(landPercent),
    julyLand: encode(julyLand),
    decemberLand: encode(decemberLand),
    julySea: encode(julySea),
    decemberSea: encode(decemberSea),
  },
};
const file = new URL('../test/data/precipitation-july-december.json', import.meta.url);
writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
console.log(`wrote ${kept} land cells of ${nLat * nLon} to ${file.pathname}`);
