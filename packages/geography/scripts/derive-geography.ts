// Derives data/earth-geography.bin from registry packages (see docs/data-sources.md):
//   Natural Earth 1:10m land   npm world-atlas (TopoJSON), decoded with topojson-client
//   SRTM30 elevation tiles     Debian marble-qt-data (maps/earth/srtm and srtm2)
//
//   tsx scripts/derive-geography.ts [--marble /usr/share/marble/data] [--per-degree 6] [--out data/earth-geography.bin]
//
// --per-degree is the number of cells per degree; it must divide 30 (the 2 arc-minute tiles).
//
// Only this script needs the Debian package; the runtime reads the committed file.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encodeGridFile, layerSizes, valueToStored, type GridShape } from '../src/grid-file.js';
import { LAYERS } from '../src/layers.js';
import { coastDistanceKm } from './coast-distance.js';
import { continentality } from './continentality.js';
import { landFraction, loadNaturalEarthLand } from './land-raster.js';
import { calibrateGrey, cellElevation, readGreyMosaic, readSrtm2Heights } from './marble-elevation.js';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

const marble = option('marble', '/usr/share/marble/data');
const perDegree = Number(option('per-degree', '6'));
if (!Number.isInteger(perDegree) || 30 % perDegree !== 0) throw new Error('--per-degree must divide 30');
const step = 1 / perDegree;
const out = option('out', fileURLToPath(new URL('../data/earth-geography.bin', import.meta.url)));
const landSamples = Number(option('land-samples', '5'));

const nlon = 360 * perDegree;
const nlat = 180 * perDegree;
const shape: GridShape = { nlon, nlat, west: -180, north: 90, step };

const time = (label: string) => {
  const t0 = process.hrtime.bigint();
  return () => console.error(`${label}: ${Number(process.hrtime.bigint() - t0) / 1e9} s`);
};

let done = time('read marble tiles');
const grey = readGreyMosaic(marble);
const srtm2 = readSrtm2Heights(marble);
done();

const calibration = calibrateGrey(grey, srtm2);
console.error('grey -> metres (measured medians, pixels):');
console.error(calibration.measured.map((m) => `${m.grey}:${m.metres}(${m.pixels})`).join(' '));
console.error('ramp:', [100, 120, 140, 160, 180, 200, 220, 240, 255].map((g) => `${g}=${Math.round(calibration.metres[g]!)}`).join(' '));

done = time('land fraction');
const land = landFraction(loadNaturalEarthLand(), shape, landSamples);
done();

done = time('elevation');
const elevation = cellElevation(grey, calibration.metres, nlon, nlat);
done();

done = time('coast distance');
const coast = coastDistanceKm(land, shape);
done();

done = time('continentality');
const inland = continentality(land, shape);
done();

const n = nlon * nlat;
const quantised = {
  elevation: new Int16Array(n),
  land: new Uint8Array(n),
  coast: new Int8Array(n),
  continentality: new Uint8Array(n),
};
for (let k = 0; k < n; k++) {
  // Open sea is 0 m: the grey ramp clips bathymetry, and a cell with no land has no height.
  quantised.elevation[k] = land[k]! > 0 ? valueToStored(LAYERS.elevation, elevation[k]!) : 0;
  quantised.land[k] = valueToStored(LAYERS.land, land[k]!);
  quantised.coast[k] = valueToStored(LAYERS.coast, coast[k]!);
  quantised.continentality[k] = valueToStored(LAYERS.continentality, inland[k]!);
}

const file = encodeGridFile(shape, [
  { ...LAYERS.elevation, values: quantised.elevation },
  { ...LAYERS.land, values: quantised.land },
  { ...LAYERS.coast, values: quantised.coast },
  { ...LAYERS.continentality, values: quantised.continentality },
]);
writeFileSync(out, file);
for (const { name, bytes } of layerSizes(file)) console.error(`  ${name}: ${bytes} bytes`);
console.error(`wrote ${out}: ${nlon} x ${nlat} cells of ${step} degrees, ${file.length} bytes`);
