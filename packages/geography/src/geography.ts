// Earth's land, sea and elevation as fast point lookups over the committed grid file.
//
// The grid (data/earth-geography.bin, built by scripts/derive-geography.ts from the datasets
// in docs/data-sources.md) is regular in latitude and longitude, rows from 90 N southwards,
// columns from 180 W eastwards; a value belongs to its cell's centre. Lookups interpolate
// bilinearly between the four surrounding centres, wrap in longitude and hold the first and
// last rows' values up to the poles. Everything is a pure function of the file, so every
// machine returns the same numbers.
import { readFileSync } from 'node:fs';
import { decodeGridFile, storedToValue, type DecodedLayer, type GridShape } from './grid-file.js';
import { LAYERS } from './layers.js';

export interface GeographySample {
  /** Mean ground height in metres; 0 at sea. */
  elevation: number;
  /** Share of land, 0..1. */
  landFraction: number;
  /** Signed distance to the coast in km: positive on land, negative at sea. */
  coastDistanceKm: number;
  /** Upwind land share, 0 (maritime) .. 1 (continental). */
  continentality: number;
}

export interface Geography {
  readonly shape: GridShape;
  elevationAt(lat: number, lon: number): number;
  landFractionAt(lat: number, lon: number): number;
  /** A point is land when at least half of the interpolated neighbourhood is. */
  isLandAt(lat: number, lon: number): boolean;
  coastDistanceKm(lat: number, lon: number): number;
  continentalityAt(lat: number, lon: number): number;
  /** All layers at once, sharing the cell search. */
  sampleAt(lat: number, lon: number): GeographySample;
}

/** One layer ready for interpolation: stored integers plus how to turn them into values. */
interface Plane {
  values: Int16Array | Uint8Array | Int8Array;
  /** For linear curves the value is a * stored + b and interpolates as the stored integers do. */
  a: number;
  b: number;
  /** For other curves, the value of every stored code (index code + 128 for int8). */
  table: Float64Array | undefined;
  tableBias: number;
}

function planeOf(layer: DecodedLayer): Plane {
  if (layer.curve === 'linear') {
    return { values: layer.values, a: layer.scale, b: layer.offset, table: undefined, tableBias: 0 };
  }
  if (layer.kind === 'int16') throw new Error(`layer ${layer.name}: non-linear int16 layers are not supported`);
  const bias = layer.kind === 'int8' ? 128 : 0;
  const table = new Float64Array(256);
  for (let code = 0; code < 256; code++) table[code] = storedToValue(layer, code - bias);
  return { values: layer.values, a: 1, b: 0, table, tableBias: bias };
}

function requireLayer(layers: Map<string, DecodedLayer>, def: (typeof LAYERS)[keyof typeof LAYERS]): Plane {
  const layer = layers.get(def.name);
  if (!layer) throw new Error(`geography file has no ${def.name} layer`);
  if (layer.kind !== def.kind || layer.curve !== def.curve) {
    throw new Error(`geography file: layer ${def.name} is ${layer.kind}/${layer.curve}, expected ${def.kind}/${def.curve}`);
  }
  return planeOf(layer);
}

/** Builds lookups over a grid file's bytes (the committed file or a test fixture). */
export function createGeography(bytes: Uint8Array): Geography {
  const { shape, layers } = decodeGridFile(bytes);
  const { nlon, nlat, west, north, step } = shape;
  const elevation = requireLayer(layers, LAYERS.elevation);
  const land = requireLayer(layers, LAYERS.land);
  const coast = requireLayer(layers, LAYERS.coast);
  const inland = requireLayer(layers, LAYERS.continentality);
  const inverseStep = 1 / step;

  // The four corner indices and weights of the last lookup's cell, reused by sample().
  let i00 = 0;
  let i01 = 0;
  let i10 = 0;
  let i11 = 0;
  let w00 = 0;
  let w01 = 0;
  let w10 = 0;
  let w11 = 0;

  function locate(lat: number, lon: number): void {
    if (!(lat >= -90 && lat <= 90) || !Number.isFinite(lon)) {
      throw new RangeError(`latitude must be in [-90, 90] and longitude finite, got ${lat}, ${lon}`);
    }
    let x = (lon - west) * inverseStep - 0.5;
    x -= Math.floor(x / nlon) * nlon; // wrap: 0 <= x < nlon
    let y = (north - lat) * inverseStep - 0.5;
    if (y < 0) y = 0;
    else if (y > nlat - 1) y = nlat - 1;
    const x0 = Math.floor(x);
    const y0 = Math.min(Math.floor(y), nlat - 2);
    const fx = x - x0;
    const fy = y - y0;
    const x1 = x0 + 1 === nlon ? 0 : x0 + 1;
    const row0 = y0 * nlon;
    const row1 = row0 + nlon;
    i00 = row0 + x0;
    i01 = row0 + x1;
    i10 = row1 + x0;
    i11 = row1 + x1;
    w00 = (1 - fx) * (1 - fy);
    w01 = fx * (1 - fy);
    w10 = (1 - fx) * fy;
    w11 = fx * fy;
  }

  function blend(p: Plane): number {
    const v = p.values;
    const t = p.table;
    if (t === undefined) {
      return p.a * (w00 * v[i00]! + w01 * v[i01]! + w10 * v[i10]! + w11 * v[i11]!) + p.b;
    }
    const bias = p.tableBias;
    return w00 * t[v[i00]! + bias]! + w01 * t[v[i01]! + bias]! + w10 * t[v[i10]! + bias]! + w11 * t[v[i11]! + bias]!;
  }

  const at = (p: Plane) => (lat: number, lon: number) => {
    locate(lat, lon);
    return blend(p);
  };

  const landFractionAt = at(land);
  return {
    shape,
    elevationAt: at(elevation),
    landFractionAt,
    isLandAt: (lat, lon) => landFractionAt(lat, lon) >= 0.5,
    coastDistanceKm: at(coast),
    continentalityAt: at(inland),
    sampleAt(lat, lon) {
      locate(lat, lon);
      return {
        elevation: blend(elevation),
        landFraction: blend(land),
        coastDistanceKm: blend(coast),
        continentality: blend(inland),
      };
    },
  };
}

/** Where the committed grid lives, beside this package's sources. */
export const GEOGRAPHY_FILE = new URL('../data/earth-geography.bin', import.meta.url);

let earth: Geography | undefined;

/** Earth's geography, decoded from the committed file at first use and kept for the process. */
export function earthGeography(): Geography {
  earth ??= createGeography(readFileSync(GEOGRAPHY_FILE));
  return earth;
}

export const elevationAt = (lat: number, lon: number): number => earthGeography().elevationAt(lat, lon);
export const landFractionAt = (lat: number, lon: number): number => earthGeography().landFractionAt(lat, lon);
export const isLandAt = (lat: number, lon: number): boolean => earthGeography().isLandAt(lat, lon);
export const coastDistanceKm = (lat: number, lon: number): number => earthGeography().coastDistanceKm(lat, lon);
export const continentalityAt = (lat: number, lon: number): number => earthGeography().continentalityAt(lat, lon);
export const geographyAt = (lat: number, lon: number): GeographySample => earthGeography().sampleAt(lat, lon);
