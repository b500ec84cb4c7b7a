/**
 * Daily Tmax and Tmin at a point: the four grid points around it (a 2 x 2 block) for many days,
 * computed in one fused pass and mixed bilinearly. The general block code (temperature.ts)
 * vectorises over cells through [day][cell] scratch arrays and several noise objects; for four
 * cells over years of days its fixed and per-day overheads dominated (bench/README.md "Synthetic
 * weather"). Here:
 *
 * - the lattice corners of each noise octave are hashed once per time node for all four cells
 *   (the cells are 0.01 degrees apart on lattices of 2.5-8 degrees, so they share corners), and
 *   only the cheap spatial and temporal blends are per cell;
 * - the season term is per column and the day length per row and day of year, shared by the two
 *   cells of that column or row;
 * - the season term is one multiply-add per column from per-process tables (season.ts), the day
 *   length per row and day of year from the per-process row cache (daylight.ts);
 * - the daily extremes are the anchors themselves (temperature.ts), so Tmax and Tmin of a point
 *   are a bilinear mix of anchors with no sampling of the hourly curve.
 *
 * Formulas and the final step (finishAnchors) are the block path's; the noise is accumulated in
 * double instead of float32, so values agree with the block path to float32 rounding
 * (test/quad-extremes.test.ts compares them).
 */
import type { Block } from './block.js';
import { anomalyScale, LAPSE_RATE_K_PER_M, seaLevelMeanTemperature, seasonalAmplitude, TEMPERATURE_ANOMALY } from './climate.js';
import { DAILY_CLOUD_NOISE, cloudBias, DRYNESS_NOISE, dawnDewpointDepression } from './clouds.js';
import { daysFromCivil, yearOfDay } from './calendar.js';
import { dayLength, dayLengthRow, minimumHour } from './daylight.js';
import { latticeAxis, mix32, type NoiseOctave } from './noise.js';
import { seasonColumn, seasonTable } from './season.js';
import { finishAnchors, RAW_MARGIN, type TemperatureAnchors } from './temperature.js';

/**
 * Unit-amplitude values of one octave's time nodes kMin..kMin+nK-1 at the four cells of a 2 x 2
 * block, [k][cell]: OctaveOverBlock.fill's arithmetic (hash the lattice corners the block uses,
 * blend along longitude, then latitude, round to float32).
 */
function quadNodes(octave: NoiseOctave, block: Block, kMin: number, nK: number): Float32Array {
  const rows = latticeAxis(block.lats, -90, octave.spacingDeg, 0);
  const cols = latticeAxis(block.lons, -180, octave.spacingDeg, Math.round(360 / octave.spacingDeg));
  const ny = rows.nodes.length, nx = cols.nodes.length;
  const lattice = new Float64Array(ny * nx);
  const out = new Float32Array(nK * 4);
  const seed = octave.seed;
  const ra0 = rows.a[0]! * nx, rb0 = rows.b[0]! * nx, ra1 = rows.a[1]! * nx, rb1 = rows.b[1]! * nx;
  const wy0 = rows.w[0]!, wy1 = rows.w[1]!;
  const xa0 = cols.a[0]!, xb0 = cols.b[0]!, xa1 = cols.a[1]!, xb1 = cols.b[1]!;
  const wx0 = cols.w[0]!, wx1 = cols.w[1]!;
  // hash3(x, y, k, seed) = mix32(x P1 ^ y P2 ^ k P3 ^ seed): the part without k is per corner.
  const nn = ny * nx;
  const part = new Int32Array(nn);
  for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) part[y * nx + x] = Math.imul(cols.nodes[x]!, 73856093) ^ Math.imul(rows.nodes[y]!, 19349663) ^ seed;
  for (let q = 0; q < nK; q++) {
    const kz = Math.imul(kMin + q, 83492791);
    for (let c = 0; c < nn; c++) lattice[c] = mix32(part[c]! ^ kz) / 2147483648 - 1;
    const o = q * 4;
    out[o] = corner(lattice, ra0, rb0, xa0, xb0, wx0, wy0);
    out[o + 1] = corner(lattice, ra0, rb0, xa1, xb1, wx1, wy0);
    out[o + 2] = corner(lattice, ra1, rb1, xa0, xb0, wx0, wy1);
    out[o + 3] = corner(lattice, ra1, rb1, xa1, xb1, wx1, wy1);
  }
  return out;
}

/** The bilinear blend of OctaveOverBlock.fill for one cell. */
function corner(lattice: Float64Array, ra: number, rb: number, xa: number, xb: number, wx: number, wy: number): number {
  const v0 = lattice[ra + xa]! + (lattice[ra + xb]! - lattice[ra + xa]!) * wx;
  const v1 = lattice[rb + xa]! + (lattice[rb + xb]! - lattice[rb + xa]!) * wx;
  return v0 + (v1 - v0) * wy;
}

/** Raw anchor scratch, reused between calls (everything here is synchronous; read before return). */
let scratchMax = new Float64Array(0);
let scratchMin = new Float64Array(0);

/** One noise octave sampled along the anchor times of a 2 x 2 block: nodes plus the octave's period. */
interface OctaveSeries {
  nodes: Float32Array;
  kMin: number;
  invPeriod: number;
  amp: number;
}

function octaveSeries(octave: NoiseOctave, block: Block, tFirst: number, tLast: number): OctaveSeries {
  const p = octave.periodHours;
  const kMin = Math.floor(tFirst / p);
  const kMax = Math.floor(tLast / p) + 1;
  return { nodes: quadNodes(octave, block, kMin, kMax - kMin + 1), kMin, invPeriod: 1 / p, amp: octave.amplitude };
}

/**
 * temperatureAnchors(block, d0, nDays, withDew, withHourly) for a 2 x 2 block (rows = 2 latitudes, columns =
 * 2 longitudes, cells row-major), fused into one pass over days. Same formulas and the same
 * final step (finishAnchors); the noise is accumulated in double rather than float32, so values
 * can differ from the block path's in the last float32 bit.
 */
export function quadTemperatureAnchors(block: Block, d0: number, nDays: number, withDew = false, withHourly = false): TemperatureAnchors {
  const { lats, lons, altitude, offsetHours } = block;
  if (block.nRows !== 2 || block.nCols !== 2) throw new Error('quadTemperatureAnchors needs a 2 x 2 block');
  if (TEMPERATURE_ANOMALY.octaves.length !== 2 || DAILY_CLOUD_NOISE.octaves.length !== 1 || DRYNESS_NOISE.octaves.length !== 1) throw new Error('noise layout changed: update quad-extremes.ts');
  const nExt = nDays + 2 * RAW_MARGIN;
  const e0 = d0 - RAW_MARGIN;
  const sunrise = new Float64Array(nDays * 2);
  const lat0 = lats[0]!, lat1 = lats[1]!;
  const off0 = offsetHours[0]!, off1 = offsetHours[1]!;
  const amp0 = seasonalAmplitude(lat0), amp1 = seasonalAmplitude(lat1);
  const sc0 = anomalyScale(lat0), sc1 = anomalyScale(lat1);
  const bias0 = cloudBias(lat0), bias1 = cloudBias(lat1);
  const sl0 = seaLevelMeanTemperature(lat0), sl1 = seaLevelMeanTemperature(lat1);
  const base00 = sl0 - LAPSE_RATE_K_PER_M * altitude[0]!;
  const base01 = sl0 - LAPSE_RATE_K_PER_M * altitude[1]!;
  const base10 = sl1 - LAPSE_RATE_K_PER_M * altitude[2]!;
  const base11 = sl1 - LAPSE_RATE_K_PER_M * altitude[3]!;
  const col0 = seasonColumn(lons[0]!), col1 = seasonColumn(lons[1]!);
  const row0 = dayLengthRow(lat0), row1 = dayLengthRow(lat1);

  // Noise times are local noon at each column; the earliest and latest bound every node used.
  const tA = 24 * e0 + 12, tB = 24 * (e0 + nExt - 1) + 12;
  const tFirst = Math.min(tA - off0, tA - off1), tLast = Math.max(tB - off0, tB - off1);
  const [oa, ob] = TEMPERATURE_ANOMALY.octaves as [NoiseOctave, NoiseOctave];
  const A1 = octaveSeries(oa, block, tFirst, tLast);
  const A2 = octaveSeries(ob, block, tFirst, tLast);
  const C = octaveSeries(DAILY_CLOUD_NOISE.octaves[0]!, block, tFirst, tLast);
  const nA1 = A1.nodes, kA1 = A1.kMin, iA1 = A1.invPeriod, ampA1 = A1.amp;
  const nA2 = A2.nodes, kA2 = A2.kMin, iA2 = A2.invPeriod, ampA2 = A2.amp;
  const nC = C.nodes, kC = C.kMin, iC = C.invPeriod, ampC = C.amp;

  const size = nExt * 4;
  if (scratchMax.length < size) {
    scratchMax = new Float64Array(size);
    scratchMin = new Float64Array(size);
  }
  const rawMax = scratchMax, rawMin = scratchMin;
  const cloudOf = withDew ? new Float64Array(size) : null;
  // Day length by day of year for the two rows, filled into the row caches up front so the day
  // loop only reads them; the season's per-day cos/sin pair from its tables.
  for (let j = 1; j <= 366; j++) {
    dayLength(row0, lat0, j);
    dayLength(row1, lat1, j);
  }
  const season = seasonTable(e0, nExt);
  const sCos = season.cos, sSin = season.sin, sOff = season.offset;
  const cc0 = col0.cos, cs0 = col0.sin, cc1 = col1.cos, cs1 = col1.sin;
  // The hot loop is written out (no helper calls): V8 stops inlining in a function this long.
  let yearStart = daysFromCivil(yearOfDay(e0), 1, 1);
  let nextYear = daysFromCivil(yearOfDay(e0) + 1, 1, 1);
  for (let e = 0; e < nExt; e++) {
    const day = e0 + e;
    if (day >= nextYear) {
      yearStart = nextYear;
      nextYear = daysFromCivil(yearOfDay(day) + 1, 1, 1);
    }
    const j = day - yearStart + 1;
    const n0 = row0[j]!, n1 = row1[j]!;
    const i = e - RAW_MARGIN;
    if (i >= 0 && i < nDays) {
      sunrise[2 * i] = minimumHour(n0);
      sunrise[2 * i + 1] = minimumHour(n1);
    }
    const t0 = 24 * day + 12 - off0, t1 = 24 * day + 12 - off1;
    const sc = sCos[e + sOff]!, ss = sSin[e + sOff]!;
    const s0 = sc * cc0 + ss * cs0, s1 = sc * cc1 + ss * cs1;
    // Noise: per octave the time weight and node pair are per column, shared by its two cells;
    // each cell's value is a + (b - a) w between consecutive time nodes (4 entries apart).
    let x = t0 * iA1, k = Math.floor(x), f = x - k, w = f * f * (3 - 2 * f), q = (k - kA1) * 4;
    let a = nA1[q]!, b = nA1[q + 2]!;
    let an0 = ampA1 * (a + (nA1[q + 4]! - a) * w), an2 = ampA1 * (b + (nA1[q + 6]! - b) * w);
    x = t1 * iA1; k = Math.floor(x); f = x - k; w = f * f * (3 - 2 * f); q = (k - kA1) * 4;
    a = nA1[q + 1]!; b = nA1[q + 3]!;
    let an1 = ampA1 * (a + (nA1[q + 5]! - a) * w), an3 = ampA1 * (b + (nA1[q + 7]! - b) * w);
    x = t0 * iA2; k = Math.floor(x); f = x - k; w = f * f * (3 - 2 * f); q = (k - kA2) * 4;
    a = nA2[q]!; b = nA2[q + 2]!;
    an0 += ampA2 * (a + (nA2[q + 4]! - a) * w);
    an2 += ampA2 * (b + (nA2[q + 6]! - b) * w);
    x = t1 * iA2; k = Math.floor(x); f = x - k; w = f * f * (3 - 2 * f); q = (k - kA2) * 4;
    a = nA2[q + 1]!; b = nA2[q + 3]!;
    an1 += ampA2 * (a + (nA2[q + 5]! - a) * w);
    an3 += ampA2 * (b + (nA2[q + 7]! - b) * w);
    x = t0 * iC; k = Math.floor(x); f = x - k; w = f * f * (3 - 2 * f); q = (k - kC) * 4;
    a = nC[q]!; b = nC[q + 2]!;
    // cloudFraction (clouds.ts) written out: 0.5 + 0.5 z / sqrt(1 + z^2), z = 1.5 (noise + bias).
    let z = 1.5 * (ampC * (a + (nC[q + 4]! - a) * w) + bias0);
    const c0 = 0.5 + (0.5 * z) / Math.sqrt(1 + z * z);
    z = 1.5 * (ampC * (b + (nC[q + 6]! - b) * w) + bias1);
    const c2 = 0.5 + (0.5 * z) / Math.sqrt(1 + z * z);
    x = t1 * iC; k = Math.floor(x); f = x - k; w = f * f * (3 - 2 * f); q = (k - kC) * 4;
    a = nC[q + 1]!; b = nC[q + 3]!;
    z = 1.5 * (ampC * (a + (nC[q + 5]! - a) * w) + bias0);
    const c1 = 0.5 + (0.5 * z) / Math.sqrt(1 + z * z);
    z = 1.5 * (ampC * (b + (nC[q + 7]! - b) * w) + bias1);
    const c3 = 0.5 + (0.5 * z) / Math.sqrt(1 + z * z);
    const o = 4 * e;
    const m0 = base00 + amp0 * s0 + sc0 * an0, m1 = base01 + amp0 * s1 + sc0 * an1;
    const m2 = base10 + amp1 * s0 + sc1 * an2, m3 = base11 + amp1 * s1 + sc1 * an3;
    // diurnalRange (climate.ts) written out: (3 + 11 (1 - cloud)) (0.35 + 0.65 min(1, N / 12)).
    const g0 = 0.35 + 0.65 * (n0 < 12 ? n0 / 12 : 1), g1 = 0.35 + 0.65 * (n1 < 12 ? n1 / 12 : 1);
    const h0 = ((3 + 11 * (1 - c0)) * g0) / 2, h1 = ((3 + 11 * (1 - c1)) * g0) / 2;
    const h2 = ((3 + 11 * (1 - c2)) * g1) / 2, h3 = ((3 + 11 * (1 - c3)) * g1) / 2;
    rawMax[o] = m0 + h0;
    rawMin[o] = m0 - h0;
    rawMax[o + 1] = m1 + h1;
    rawMin[o + 1] = m1 - h1;
    rawMax[o + 2] = m2 + h2;
    rawMin[o + 2] = m2 - h2;
    rawMax[o + 3] = m3 + h3;
    rawMin[o + 3] = m3 - h3;
    if (cloudOf) {
      cloudOf[o] = c0;
      cloudOf[o + 1] = c1;
      cloudOf[o + 2] = c2;
      cloudOf[o + 3] = c3;
    }
  }
  const tmax = new Float32Array(nDays * 4), tmin = new Float32Array(nDays * 4), mid = new Float32Array(withHourly ? (nDays + 1) * 4 : 0);
  const low = withDew ? new Float32Array((nDays + 1) * 4) : null;
  finishAnchors(rawMax, rawMin, 4, nDays, tmax, tmin, withHourly ? mid : null, low);
  const tdew = new Float32Array(withDew ? (nDays + 1) * 4 : 0);
  if (withDew && low && cloudOf) {
    const t0 = 24 * d0 + 12;
    const Y = octaveSeries(DRYNESS_NOISE.octaves[0]!, block, Math.min(t0 - off0, t0 - off1), Math.max(t0 + 24 * nDays - off0, t0 + 24 * nDays - off1));
    for (let i = 0; i <= nDays; i++) {
      const day = d0 + i;
      const ta = 24 * day + 12 - off0, tb = 24 * day + 12 - off1;
      let x = ta * Y.invPeriod, k = Math.floor(x), w = smooth(x - k), q = (k - Y.kMin) * 4;
      const y0 = Y.amp * lerp(Y.nodes, q, w), y2 = Y.amp * lerp(Y.nodes, q + 2, w);
      x = tb * Y.invPeriod; k = Math.floor(x); w = smooth(x - k); q = (k - Y.kMin) * 4;
      const y1 = Y.amp * lerp(Y.nodes, q + 1, w), y3 = Y.amp * lerp(Y.nodes, q + 3, w);
      const o = 4 * i, oc = o + 4 * RAW_MARGIN;
      tdew[o] = low[o]! - dawnDewpointDepression(y0, lat0, cloudOf[oc]!);
      tdew[o + 1] = low[o + 1]! - dawnDewpointDepression(y1, lat0, cloudOf[oc + 1]!);
      tdew[o + 2] = low[o + 2]! - dawnDewpointDepression(y2, lat1, cloudOf[oc + 2]!);
      tdew[o + 3] = low[o + 3]! - dawnDewpointDepression(y3, lat1, cloudOf[oc + 3]!);
    }
  }
  return { d0, nDays, nRows: 2, nCells: 4, tmax, tmin, mid, tdew, sunrise };
}

function smooth(s: number): number {
  return s * s * (3 - 2 * s);
}

/** One cell's value between time nodes k and k + 1 (the next node is 4 entries on). */
function lerp(nodes: Float32Array, i: number, w: number): number {
  const a = nodes[i]!;
  return a + (nodes[i + 4]! - a) * w;
}

/**
 * Daily max and min over local solar days d0..d0+n-1 of the anchors (which are the extremes of
 * the hourly curve, temperature.ts) mixed with the bilinear weights (w00, w01, w10, w11).
 */
export function quadDailyExtremes(A: TemperatureAnchors, w: readonly [number, number, number, number], maxOut: Float32Array, minOut: Float32Array): void {
  const { tmax, tmin, nDays } = A;
  const [w00, w01, w10, w11] = w;
  for (let i = 0, o = 0; i < nDays; i++, o += 4) {
    maxOut[i] = w00 * tmax[o]! + w01 * tmax[o + 1]! + w10 * tmax[o + 2]! + w11 * tmax[o + 3]!;
    minOut[i] = w00 * tmin[o]! + w01 * tmin[o + 1]! + w10 * tmin[o + 2]! + w11 * tmin[o + 3]!;
  }
}
