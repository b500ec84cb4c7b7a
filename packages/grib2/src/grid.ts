/**
 * Grid definition template 3.0, regular latitude/longitude (WMO FM 92 GRIB2, section 3), and
 * the scanning modes of flag table 3.4.
 */
import { int32, uint32 } from './bits.js';
import { GribError } from './errors.js';

/** The grid of a field, its values laid out west to east within rows, rows north to south. */
export interface LatLonGrid {
  template: 0;
  ni: number;
  nj: number;
  /** Latitude of the first (northernmost) row, degrees. */
  lat0: number;
  /** Longitude of the first (westernmost) column, degrees, as the message gives it (GFS 0..360, ECMWF -180..180). */
  lon0: number;
  /** Increments between rows and columns, degrees, positive. */
  dLat: number;
  dLon: number;
  /** Flag table 3.4 as the message had it, before the values were put in the order above. */
  scanningMode: number;
  /** Code table 3.2. */
  shapeOfEarth: number;
}

const MISSING = 0xffffffff;

/** Flag table 3.4 bits, counted from the most significant as WMO numbers them. */
const MINUS_I = 0x80;
const PLUS_J = 0x40;
const J_CONSECUTIVE = 0x20;
/**
 * Bits 4-8 (WMO FM 92 GRIB2, flag table 3.4; ecCodes' alternativeRowScanning and scanningMode5-8):
 * rows in alternating directions, or points offset by half a step with rows or columns of one
 * point fewer. Each puts values where a regular grid has no point, so a message with any of them
 * is refused rather than read as mode 0.
 */
const UNSUPPORTED_SCANNING: ReadonlyArray<readonly [bit: number, meaning: string]> = [
  [0x10, 'adjacent rows scan in opposite directions (flag table 3.4 bit 4)'],
  [0x08, 'points within odd rows are offset by half a grid step in i (flag table 3.4 bit 5)'],
  [0x04, 'points within even rows are offset by half a grid step in i (flag table 3.4 bit 6)'],
  [0x02, 'points are offset by half a grid step in j (flag table 3.4 bit 7)'],
  [0x01, 'rows or columns of offset points have one point fewer (flag table 3.4 bit 8)'],
];

/** `t` is section 3 from its first octet; octet n of the WMO table is t[n - 1]. */
export function readGrid(t: Uint8Array): LatLonGrid {
  const template = (t[12]! << 8) | t[13]!;
  if (template !== 0) throw new GribError(`grid definition template 3.${template} is not supported (only 3.0, regular latitude/longitude)`);
  if (t.length < 72) throw new GribError(`section 3 of ${t.length} octets, shorter than template 3.0's 72`);
  if (t[10] !== 0) throw new GribError('a list of numbers of points per row (quasi-regular grid) is not supported');
  const ni = uint32(t, 30);
  const nj = uint32(t, 34);
  const basicAngle = uint32(t, 38);
  const subdivisions = uint32(t, 42);
  // Units of 10^-6 degree unless a basic angle and its subdivisions say otherwise (92.1.6).
  const unit =
    basicAngle === 0 || basicAngle === MISSING || subdivisions === 0 || subdivisions === MISSING ? 1e-6 : basicAngle / subdivisions;
  const la1 = int32(t, 46) * unit;
  const lo1 = int32(t, 50) * unit;
  const flags = t[54]!;
  const la2 = int32(t, 55) * unit;
  const lo2 = int32(t, 59) * unit;
  const di = uint32(t, 63);
  const dj = uint32(t, 67);
  const scanningMode = t[71]!;
  const unsupported = UNSUPPORTED_SCANNING.filter(([bit]) => scanningMode & bit).map(([, meaning]) => meaning);
  if (unsupported.length)
    throw new GribError(
      `scanning mode 0x${scanningMode.toString(16).padStart(2, '0')} (section 3 octet 72) is not supported: ${unsupported.join(', ')}; only regular grids are read`,
    );
  if (ni < 1 || nj < 1 || ni === MISSING || nj === MISSING) throw new GribError(`grid of ${ni} x ${nj} points`);
  // Increments are "missing" when flag table 3.3 bits 3/4 are unset; then they follow from the corners.
  let lonSpan = Math.abs(lo2 - lo1);
  if (scanningMode & MINUS_I ? lo2 > lo1 : lo2 < lo1) lonSpan = 360 - lonSpan;
  const dLon = flags & 0x20 && di !== MISSING ? di * unit : ni > 1 ? lonSpan / (ni - 1) : 0;
  const dLat = flags & 0x10 && dj !== MISSING ? dj * unit : nj > 1 ? Math.abs(la2 - la1) / (nj - 1) : 0;
  return {
    template: 0,
    ni,
    nj,
    lat0: scanningMode & PLUS_J ? la2 : la1,
    lon0: scanningMode & MINUS_I ? lo2 : lo1,
    dLat,
    dLon,
    scanningMode,
    shapeOfEarth: t[14]!,
  };
}

/** Whether the message's scanning order is already the grid's (the mode GFS and ECMWF use, 0: +i, -j, i consecutive). */
export function isGridOrder(grid: LatLonGrid): boolean {
  return (grid.scanningMode & (MINUS_I | PLUS_J | J_CONSECUTIVE)) === 0;
}

/** Values in the message's scanning order, put in the grid's order (rows north to south, west to east within a row). */
export function toGridOrder(values: Float32Array, grid: LatLonGrid, out: Float32Array = new Float32Array(grid.ni * grid.nj)): Float32Array {
  const { ni, nj, scanningMode } = grid;
  const flipI = (scanningMode & MINUS_I) !== 0;
  const flipJ = (scanningMode & PLUS_J) !== 0;
  if (scanningMode & J_CONSECUTIVE) {
    let k = 0;
    for (let i = 0; i < ni; i++) {
      const col = flipI ? ni - 1 - i : i;
      for (let j = 0; j < nj; j++) out[(flipJ ? nj - 1 - j : j) * ni + col] = values[k++]!;
    }
  } else {
    for (let j = 0; j < nj; j++) {
      const row = (flipJ ? nj - 1 - j : j) * ni;
      const from = j * ni;
      if (flipI) for (let i = 0; i < ni; i++) out[row + ni - 1 - i] = values[from + i]!;
      else out.set(values.subarray(from, from + ni), row);
    }
  }
  return out;
}
