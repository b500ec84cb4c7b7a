// Earth's land, sea and elevation as fast point lookups over the committed grid file.
//
// The grid (data/earth-geography.bin, built by scripts/derive-geography.ts from the datasets
// in docs/data-sources.md) is regular in latitude and longitude, rows from 90 N southwards,
// columns from 180 W eastwards; a value belongs to its cell's centre. Lookups interpolate
// bilinearly between the four surrounding centres, wrap in longitude and hold the first and
// last rows' values up to the poles. Everything is a pure function of the file, so every
// machine returns the same numbers.
import { existsSync, readFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { decodeGridFile, type DecodedLayer, type GridShape, gridShapeOf } from './grid-file.js';
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

/**
 * A geography's decoded layers: a cell's four integers side by side in one Int16Array on a
 * SharedArrayBuffer, and per slot the unit and offset that make them values. Plain data that a
 * worker thread receives through workerData without a copy (structured clone shares a
 * SharedArrayBuffer), so threads read the layers their process decoded.
 */
export interface GeographyCells {
  shape: GridShape;
  cells: Int16Array;
  unit: number[];
  offset: number[];
}

export interface Geography {
  readonly shape: GridShape;
  /** the decoded layers this geography reads, to hand to other threads */
  readonly decoded: GeographyCells;
  elevationAt(lat: number, lon: number): number;
  landFractionAt(lat: number, lon: number): number;
  /** A point is land when at least half of the interpolated neighbourhood is. */
  isLandAt(lat: number, lon: number): boolean;
  coastDistanceKm(lat: number, lon: number): number;
  continentalityAt(lat: number, lon: number): number;
  /** All layers at once, sharing the cell search. */
  sampleAt(lat: number, lon: number): GeographySample;
  /** sampleAt written into `out`, which is returned: for loops over many points, which then allocate nothing per point. */
  sampleInto(lat: number, lon: number, out: GeographySample): GeographySample;
}

/** Layer order inside a cell's four interleaved values. */
const ELEVATION = 0;
const LAND = 1;
const COAST = 2;
const INLAND = 3;
const PER_CELL = 4;

/**
 * A layer's values as exact integers times a unit: the stored integer for a linear curve,
 * sign(s) * s^2 for a square one (whose values are s^2 * scale^2). Both fit an int16: square
 * curves are only accepted on int8 codes (at most 128^2 = 16384).
 */
function unitOf(layer: DecodedLayer): number {
  return layer.curve === 'square' ? layer.scale * layer.scale : layer.scale;
}

// One loop per array type, so each stays monomorphic: the Earth grid has 2.3 million cells.
function spreadInt16(cells: Int16Array, slot: number, v: Int16Array, layer: DecodedLayer): void {
  if (layer.curve !== 'linear') throw new Error(`layer ${layer.name}: int16 layers must be linear`);
  for (let k = 0, at = slot; k < v.length; k++, at += PER_CELL) cells[at] = v[k]!;
}

function spreadBytes(cells: Int16Array, slot: number, bytes: Uint8Array, layer: DecodedLayer): void {
  if (layer.curve === 'square' && layer.kind !== 'int8') {
    throw new Error(`layer ${layer.name}: square curves need int8 codes to fit an int16`);
  }
  // Every byte's integer, read as the layer's kind (int8 bytes are two's complement).
  const table = new Int16Array(256);
  for (let b = 0; b < 256; b++) {
    const s = layer.kind === 'int8' ? (b << 24) >> 24 : b;
    table[b] = layer.curve === 'square' ? Math.sign(s) * s * s : s;
  }
  for (let k = 0, at = slot; k < bytes.length; k++, at += PER_CELL) cells[at] = table[bytes[k]!]!;
}

/** Bilinear blend of one slot of the four cells around a point (lerp along x, then y). */
function bilinear(cells: Int16Array, at: number, below: number, east: number, fx: number, fy: number): number {
  const top = cells[at]! + fx * (cells[at + east]! - cells[at]!);
  const bottom = cells[below]! + fx * (cells[below + east]! - cells[below]!);
  return top + fy * (bottom - top);
}

function requireLayer(layers: Map<string, DecodedLayer>, def: (typeof LAYERS)[keyof typeof LAYERS]): DecodedLayer {
  const layer = layers.get(def.name);
  if (!layer) throw new Error(`geography file has no ${def.name} layer`);
  if (layer.kind !== def.kind || layer.curve !== def.curve) {
    throw new Error(`geography file: layer ${def.name} is ${layer.kind}/${layer.curve}, expected ${def.kind}/${def.curve}`);
  }
  return layer;
}

/**
 * Decodes a grid file's bytes (the committed file or a test fixture) into the layout lookups read.
 *
 * The layers are decoded into one Int16Array with a cell's four integers side by side, so a
 * lookup reads two short runs of memory (the two rows around the point) whatever it asks
 * for, and every read is of one array type, which V8 keeps monomorphic: 8 bytes a cell,
 * 19 MB for the Earth grid. A value is its slot's unit times the interpolated integers, plus
 * the layer's offset. The array lives on a SharedArrayBuffer so other threads can read it.
 */
export function decodeGeography(bytes: Uint8Array, cells: Int16Array = cellsFor(gridShapeOf(bytes))): GeographyCells {
  const { shape, layers } = decodeGridFile(bytes);
  const sources = [LAYERS.elevation, LAYERS.land, LAYERS.coast, LAYERS.continentality].map((def) => requireLayer(layers, def));
  if (cells.length !== PER_CELL * shape.nlon * shape.nlat) throw new Error('decoded geography: cells of another shape');
  sources.forEach((layer, slot) => {
    const v = layer.values;
    if (v instanceof Int16Array) spreadInt16(cells, slot, v, layer);
    else spreadBytes(cells, slot, new Uint8Array(v.buffer, v.byteOffset, v.byteLength), layer);
  });
  return { shape, cells, unit: sources.map(unitOf), offset: sources.map((layer) => layer.offset) };
}

/** Room for a grid's decoded layers, on a SharedArrayBuffer. */
function cellsFor(shape: GridShape): Int16Array {
  return new Int16Array(new SharedArrayBuffer(PER_CELL * shape.nlon * shape.nlat * Int16Array.BYTES_PER_ELEMENT));
}

/**
 * Decoded layers as a thread receives them: `cells` and `numbers` (the four units, then the four
 * offsets) on SharedArrayBuffers that the giving thread may still be filling; `state` says when
 * they are whole (FILLING, then FILLED or FAILED), so a thread can start, and load its modules,
 * while its process decodes.
 */
export interface SharedGeography {
  shape: GridShape;
  cells: Int16Array;
  numbers: Float64Array;
  state: Int32Array;
}

const FILLING = 0;
const FILLED = 1;
const FAILED = 2;

/**
 * Room for a grid file's decoded layers that threads can be handed at once, and `fill`, which
 * decodes into it (once; later calls return the same layers) and tells waiting threads.
 */
export function shareGeography(bytes: Uint8Array): { handed: SharedGeography; fill: () => GeographyCells } {
  const shape = gridShapeOf(bytes);
  const handed: SharedGeography = {
    shape,
    cells: cellsFor(shape),
    numbers: new Float64Array(new SharedArrayBuffer(2 * PER_CELL * Float64Array.BYTES_PER_ELEMENT)),
    state: new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)),
  };
  let filled: GeographyCells | undefined;
  const fill = (): GeographyCells => {
    if (filled) return filled;
    try {
      filled = decodeGeography(bytes, handed.cells);
    } catch (err) {
      Atomics.store(handed.state, 0, FAILED);
      Atomics.notify(handed.state, 0);
      throw err;
    }
    markFilled(handed, filled);
    return filled;
  };
  return { handed, fill };
}

function markFilled(handed: SharedGeography, decoded: GeographyCells): void {
  handed.numbers.set([...decoded.unit, ...decoded.offset]);
  Atomics.store(handed.state, 0, FILLED);
  Atomics.notify(handed.state, 0);
}

/** Layers this thread has decoded already, as threads receive them. */
function handedAsFilled(decoded: GeographyCells): SharedGeography {
  const handed: SharedGeography = {
    shape: decoded.shape,
    cells: decoded.cells,
    numbers: new Float64Array(new SharedArrayBuffer(2 * PER_CELL * Float64Array.BYTES_PER_ELEMENT)),
    state: new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)),
  };
  markFilled(handed, decoded);
  return handed;
}

/**
 * The layers a thread was handed, once its giver has filled them (waiting for that: a thread
 * cannot answer before its geography is whole); undefined when the giver failed to decode.
 */
export function adoptSharedGeography(handed: SharedGeography, waitMs = 120_000): GeographyCells | undefined {
  const { shape, cells, numbers, state } = handed;
  if (![cells.buffer, numbers.buffer, state.buffer].every((buffer) => buffer instanceof SharedArrayBuffer)) {
    throw new Error('handed geography is not on SharedArrayBuffers');
  }
  if (Atomics.load(state, 0) === FILLING) Atomics.wait(state, 0, FILLING, waitMs);
  if (Atomics.load(state, 0) !== FILLED) return undefined;
  return { shape, cells, unit: Array.from(numbers.subarray(0, PER_CELL)), offset: Array.from(numbers.subarray(PER_CELL)) };
}

/** Builds lookups over a grid file's bytes (the committed file or a test fixture). */
export function createGeography(bytes: Uint8Array): Geography {
  return geographyOver(decodeGeography(bytes));
}

/** Lookups over decoded layers, this thread's or another's; the layers are only read. */
export function geographyOver(decoded: GeographyCells): Geography {
  const { shape, cells, unit, offset } = decoded;
  const { nlon, nlat, west, north, step } = shape;
  if (cells.length !== PER_CELL * nlon * nlat || unit.length !== PER_CELL || offset.length !== PER_CELL) {
    throw new Error(`decoded geography: ${cells.length} integers for ${nlon} x ${nlat} cells of ${PER_CELL} layers`);
  }
  const inverseStep = 1 / step;
  const lastRow = nlat - 1;
  const rowStride = nlon * PER_CELL;

  /** Offset (times PER_CELL) of the cell west-north of the point, and the point's fractions. */
  function corner(lat: number, lon: number, out: Float64Array): number {
    if (!(lat >= -90 && lat <= 90) || !Number.isFinite(lon)) {
      throw new RangeError(`latitude must be in [-90, 90] and longitude finite, got ${lat}, ${lon}`);
    }
    let x = (lon - west) * inverseStep - 0.5;
    x -= Math.floor(x / nlon) * nlon; // wrap: 0 <= x < nlon
    let y = (north - lat) * inverseStep - 0.5;
    if (y < 0) y = 0;
    else if (y > lastRow) y = lastRow;
    const x0 = Math.floor(x);
    const y0 = y >= lastRow ? lastRow - 1 : Math.floor(y);
    out[0] = x - x0;
    out[1] = y - y0;
    out[2] = x0 + 1 === nlon ? -x0 * PER_CELL : PER_CELL; // step to the east neighbour, wrapping
    return (y0 * nlon + x0) * PER_CELL;
  }

  const where = new Float64Array(3);
  function interpolate(slot: number, lat: number, lon: number): number {
    const at = corner(lat, lon, where) + slot;
    return unit[slot]! * bilinear(cells, at, at + rowStride, where[2]!, where[0]!, where[1]!) + offset[slot]!;
  }
  const [unitElevation, unitLand, unitCoast, unitInland] = unit as [number, number, number, number];
  const [offsetElevation, offsetLand, offsetCoast, offsetInland] = offset as [number, number, number, number];

  return {
    shape,
    decoded,
    elevationAt: (lat, lon) => interpolate(ELEVATION, lat, lon),
    landFractionAt: (lat, lon) => interpolate(LAND, lat, lon),
    isLandAt: (lat, lon) => interpolate(LAND, lat, lon) >= 0.5,
    coastDistanceKm: (lat, lon) => interpolate(COAST, lat, lon),
    continentalityAt: (lat, lon) => interpolate(INLAND, lat, lon),
    sampleAt: (lat, lon) => sampleInto(lat, lon, { elevation: 0, landFraction: 0, coastDistanceKm: 0, continentality: 0 }),
    sampleInto,
  };

  function sampleInto(lat: number, lon: number, out: GeographySample): GeographySample {
    const at = corner(lat, lon, where);
    const below = at + rowStride;
    const east = where[2]!;
    const fx = where[0]!;
    const fy = where[1]!;
    out.elevation = unitElevation * bilinear(cells, at + ELEVATION, below + ELEVATION, east, fx, fy) + offsetElevation;
    out.landFraction = unitLand * bilinear(cells, at + LAND, below + LAND, east, fx, fy) + offsetLand;
    out.coastDistanceKm = unitCoast * bilinear(cells, at + COAST, below + COAST, east, fx, fy) + offsetCoast;
    out.continentality = unitInland * bilinear(cells, at + INLAND, below + INLAND, east, fx, fy) + offsetInland;
    return out;
  }
}

/**
 * Where the committed grid lives: beside this package's sources when run from them, or beside the
 * compiled bundle, where scripts/build.ts copies it (<out>/data, next to cli.js).
 */
const GEOGRAPHY_CANDIDATES = [
  new URL('../data/earth-geography.bin', import.meta.url),
  new URL('./data/earth-geography.bin', import.meta.url),
];
export const GEOGRAPHY_FILE = GEOGRAPHY_CANDIDATES.find((file) => existsSync(file)) ?? GEOGRAPHY_CANDIDATES[0]!;

let earth: Geography | undefined;
/** The Earth layers being handed to threads, before this thread has filled them. */
let sharing: { handed: SharedGeography; fill: () => GeographyCells } | undefined;

/** The workerData key under which a thread receives its process's decoded Earth geography. */
export const EARTH_GEOGRAPHY_SHARE = 'fieldcastEarthGeography';

/**
 * What a worker thread's workerData carries so the thread reads this process's decoded Earth
 * geography instead of decoding the file again (docs/decisions/0325-geography-decoded-once-per-process.md).
 * Not yet decoded, it is decoded right after the caller's turn of the event loop, so the threads
 * it starts load their modules on the other cores meanwhile.
 */
export function earthGeographyForThreads(): Record<string, SharedGeography> {
  if (!sharing && earth) {
    const decoded = earth.decoded;
    sharing = { handed: handedAsFilled(decoded), fill: () => decoded };
  } else if (!sharing) {
    sharing = shareGeography(readFileSync(GEOGRAPHY_FILE));
    setImmediate(() => {
      // A file that fails to decode fails this thread's first geography read as before, not the
      // process at its warm-up; the threads are told and decode (and fail) themselves.
      try {
        earthGeography();
      } catch {
        /* thrown again where the geography is read */
      }
    });
  }
  return { [EARTH_GEOGRAPHY_SHARE]: sharing.handed };
}

/** The decoded Earth geography this thread was started with, if its giver decoded it. */
function handedEarthGeography(): Geography | undefined {
  const handed: unknown = (workerData as Record<string, unknown> | null | undefined)?.[EARTH_GEOGRAPHY_SHARE];
  if (handed === undefined) return undefined;
  const adopted = adoptSharedGeography(handed as SharedGeography);
  return adopted && geographyOver(adopted);
}

/**
 * Earth's geography, kept for the process: in a thread started with its process's decoded layers
 * ({@link earthGeographyForThreads}), those; otherwise decoded from the committed file at first use
 * (into the layers being handed to threads, if any).
 */
export function earthGeography(): Geography {
  earth ??= handedEarthGeography() ?? geographyOver(sharing ? sharing.fill() : decodeGeography(readFileSync(GEOGRAPHY_FILE)));
  return earth;
}

export const elevationAt = (lat: number, lon: number): number => earthGeography().elevationAt(lat, lon);
export const landFractionAt = (lat: number, lon: number): number => earthGeography().landFractionAt(lat, lon);
export const isLandAt = (lat: number, lon: number): boolean => earthGeography().isLandAt(lat, lon);
export const coastDistanceKm = (lat: number, lon: number): number => earthGeography().coastDistanceKm(lat, lon);
export const continentalityAt = (lat: number, lon: number): number => earthGeography().continentalityAt(lat, lon);
export const geographyAt = (lat: number, lon: number): GeographySample => earthGeography().sampleAt(lat, lon);
