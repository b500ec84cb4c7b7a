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
 * - Tmax and Tmin come from the same anchors in the same pass.
 *
 * Every value is computed with exactly the arithmetic of temperatureAnchors, fillDailyExtremes
 * and SyntheticSource.pointSeriesSync, in the same order and with the same float32 roundings, so
 * results are bit-for-bit those of the general path (test/quad-extremes.test.ts compares them).
 */
import type { Block } from './block.js';
import { anomalyScale, diurnalRange, LAPSE_RATE_K_PER_M, seaLevelMeanTemperature, seasonalAmplitude, seasonalPhase, TEMPERATURE_ANOMALY, TMAX_LOCAL_HOUR } from './climate.js';
import { DAILY_CLOUD_NOISE, cloudBias, cloudFraction } from './clouds.js';
import { daysFromCivil, yearOfDay } from './calendar.js';
import { hash3, latticeAxis, type NoiseOctave } from './noise.js';
import { solarDeclination } from './solar.js';

const DEG = Math.PI / 180;
const fround = Math.fround;

/** tan(declination) by day of year J (1..366): a pure function of J, tabulated once per process. */
const TAN_DECL = new Float64Array(367);
for (let j = 1; j <= 366; j++) TAN_DECL[j] = Math.tan(solarDeclination(j));

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
  for (let q = 0; q < nK; q++) {
    const k = kMin + q;
    for (let y = 0; y < ny; y++) {
      const iy = rows.nodes[y]!;
      for (let x = 0; x < nx; x++) lattice[y * nx + x] = hash3(cols.nodes[x]!, iy, k, seed);
    }
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

/** One noise octave sampled along the anchor times of a 2 x 2 block: nodes plus the octave's period. */
interface OctaveSeries {
  nodes: Float32Array;
  kMin: number;
  period: number;
  amp: number;
}

function octaveSeries(octave: NoiseOctave, block: Block, tFirst: number, tLast: number): OctaveSeries {
  const p = octave.periodHours;
  const kMin = Math.floor(tFirst / p);
  const kMax = Math.floor(tLast / p) + 1;
  return { nodes: quadNodes(octave, block, kMin, kMax - kMin + 1), kMin, period: p, amp: octave.amplitude };
}

export interface QuadAnchors {
  d0: number;
  nDays: number;
  /** [day][cell] daily maximum at 15:00 local, degC (float32, as temperatureAnchors) */
  tmax: Float32Array;
  /** [day][cell] daily minimum at sunrise, degC */
  tmin: Float32Array;
  /** [day][row] local mean solar hour of sunrise */
  sunrise: Float64Array;
}

/**
 * temperatureAnchors(block, d0, nDays, false) for a 2 x 2 block (rows = 2 latitudes, columns =
 * 2 longitudes, cells row-major), fused into one pass over days.
 */
export function quadTemperatureAnchors(block: Block, d0: number, nDays: number): QuadAnchors {
  const { lats, altitude, offsetHours } = block;
  if (block.nRows !== 2 || block.nCols !== 2) throw new Error('quadTemperatureAnchors needs a 2 x 2 block');
  const tmax = new Float32Array(nDays * 4);
  const tmin = new Float32Array(nDays * 4);
  const sunrise = new Float64Array(nDays * 2);
  const lat0 = lats[0]!, lat1 = lats[1]!;
  const off0 = offsetHours[0]!, off1 = offsetHours[1]!;
  const amp0 = seasonalAmplitude(lat0), amp1 = seasonalAmplitude(lat1);
  const sc0 = anomalyScale(lat0), sc1 = anomalyScale(lat1);
  const bias0 = cloudBias(lat0), bias1 = cloudBias(lat1);
  const tan0 = Math.tan(lat0 * DEG), tan1 = Math.tan(lat1 * DEG);
  const sl0 = seaLevelMeanTemperature(lat0), sl1 = seaLevelMeanTemperature(lat1);
  const base00 = sl0 - LAPSE_RATE_K_PER_M * altitude[0]!;
  const base01 = sl0 - LAPSE_RATE_K_PER_M * altitude[1]!;
  const base10 = sl1 - LAPSE_RATE_K_PER_M * altitude[2]!;
  const base11 = sl1 - LAPSE_RATE_K_PER_M * altitude[3]!;

  // Noise times are local noon at each column; the earliest and latest bound every node used.
  const tA = 24 * d0 + 12, tB = 24 * (d0 + nDays - 1) + 12;
  const tFirst = Math.min(tA - off0, tA - off1), tLast = Math.max(tB - off0, tB - off1);
  const [oa, ob] = TEMPERATURE_ANOMALY.octaves as [NoiseOctave, NoiseOctave];
  const A1 = octaveSeries(oa, block, tFirst, tLast);
  const A2 = octaveSeries(ob, block, tFirst, tLast);
  const C = octaveSeries(DAILY_CLOUD_NOISE.octaves[0]!, block, tFirst, tLast);
  if (TEMPERATURE_ANOMALY.octaves.length !== 2 || DAILY_CLOUD_NOISE.octaves.length !== 1) throw new Error('noise layout changed: update quad-extremes.ts');

  const nA1 = A1.nodes, kA1 = A1.kMin, pA1 = A1.period, ampA1 = A1.amp;
  const nA2 = A2.nodes, kA2 = A2.kMin, pA2 = A2.period, ampA2 = A2.amp;
  const nC = C.nodes, kC = C.kMin, pC = C.period, ampC = C.amp;

  // Day length by day of year for the two rows, filled on first use (as temperatureAnchors' byJ).
  const byJ = new Float64Array(367 * 2).fill(-1);
  let yearStart = daysFromCivil(yearOfDay(d0), 1, 1);
  let nextYear = daysFromCivil(yearOfDay(d0) + 1, 1, 1);
  for (let i = 0; i < nDays; i++) {
    const day = d0 + i;
    if (day >= nextYear) {
      yearStart = nextYear;
      nextYear = daysFromCivil(yearOfDay(day) + 1, 1, 1);
    }
    const j = day - yearStart + 1;
    let n0 = byJ[2 * j]!, n1 = byJ[2 * j + 1]!;
    if (n0 < 0) {
      const tanDecl = TAN_DECL[j]!;
      n0 = dayLength(tan0, tanDecl);
      n1 = dayLength(tan1, tanDecl);
      byJ[2 * j] = n0;
      byJ[2 * j + 1] = n1;
    }
    sunrise[2 * i] = 12 - n0 / 2;
    sunrise[2 * i + 1] = 12 - n1 / 2;
    const t0 = 24 * day + 12 - off0, t1 = 24 * day + 12 - off1;
    const s0 = seasonalPhase(t0), s1 = seasonalPhase(t1);
    // Anomaly: two octaves, accumulated in float32 as BlockNoise.seriesAtColumnTimes does; the
    // time weight and node pair of an octave are per column, shared by the column's two cells.
    let k = nodeOffset(t0, pA1, kA1), w = timeWeight(t0, pA1);
    const a0 = fround(0 + ampA1 * lerp(nA1, k, w)), a2 = fround(0 + ampA1 * lerp(nA1, k + 2, w));
    k = nodeOffset(t1, pA1, kA1);
    w = timeWeight(t1, pA1);
    const a1 = fround(0 + ampA1 * lerp(nA1, k + 1, w)), a3 = fround(0 + ampA1 * lerp(nA1, k + 3, w));
    k = nodeOffset(t0, pA2, kA2);
    w = timeWeight(t0, pA2);
    const an0 = fround(a0 + ampA2 * lerp(nA2, k, w)), an2 = fround(a2 + ampA2 * lerp(nA2, k + 2, w));
    k = nodeOffset(t1, pA2, kA2);
    w = timeWeight(t1, pA2);
    const an1 = fround(a1 + ampA2 * lerp(nA2, k + 1, w)), an3 = fround(a3 + ampA2 * lerp(nA2, k + 3, w));
    k = nodeOffset(t0, pC, kC);
    w = timeWeight(t0, pC);
    const c0 = fround(0 + ampC * lerp(nC, k, w)), c2 = fround(0 + ampC * lerp(nC, k + 2, w));
    k = nodeOffset(t1, pC, kC);
    w = timeWeight(t1, pC);
    const c1 = fround(0 + ampC * lerp(nC, k + 1, w)), c3 = fround(0 + ampC * lerp(nC, k + 3, w));
    const q = 4 * i;
    anchor(tmax, tmin, q, base00 + amp0 * s0 + sc0 * an0, cloudFraction(c0, bias0), n0);
    anchor(tmax, tmin, q + 1, base01 + amp0 * s1 + sc0 * an1, cloudFraction(c1, bias0), n0);
    anchor(tmax, tmin, q + 2, base10 + amp1 * s0 + sc1 * an2, cloudFraction(c2, bias1), n1);
    anchor(tmax, tmin, q + 3, base11 + amp1 * s1 + sc1 * an3, cloudFraction(c3, bias1), n1);
  }
  return { d0, nDays, tmax, tmin, sunrise };
}

/** Daylight hours from tan(lat) and tan(decl), FAO-56 eq. 34 as temperatureAnchors computes it. */
function dayLength(tanLat: number, tanDecl: number): number {
  const x = -tanLat * tanDecl;
  return x <= -1 ? 24 : x >= 1 ? 0 : (24 / Math.PI) * Math.acos(x);
}

/** Index of the first cell of time node floor(t / p) in an octave's [k][cell] node array. */
function nodeOffset(t: number, p: number, kMin: number): number {
  return (Math.floor(t / p) - kMin) * 4;
}

/** Smoothstep weight of the later time node at time t (seriesAtColumnTimes' arithmetic). */
function timeWeight(t: number, p: number): number {
  const x = t / p;
  const s = x - Math.floor(x);
  return s * s * (3 - 2 * s);
}

/** One cell's value between time nodes k and k + 1 (the next node is 4 entries on). */
function lerp(nodes: Float32Array, i: number, w: number): number {
  const a = nodes[i]!;
  return a + (nodes[i + 4]! - a) * w;
}

function anchor(tmax: Float32Array, tmin: Float32Array, q: number, mean: number, cloud: number, dayLen: number): void {
  const half = diurnalRange(cloud, dayLen) / 2;
  tmax[q] = mean + half;
  tmin[q] = mean - half;
}

/**
 * Daily max and min over local solar days dStart..dStart+n-1 at the four cells, mixed with the
 * bilinear weights (w00, w01, w10, w11) into maxOut and minOut: fillDailyExtremes followed by
 * pointSeriesSync's mix, for both variables in one pass. `A` must start at dStart - 1 and hold
 * n + 2 days (anchorDaysForDays).
 */
export function quadDailyExtremes(block: Block, A: QuadAnchors, dStart: number, n: number, w: readonly [number, number, number, number], maxOut: Float32Array, minOut: Float32Array): void {
  const { tmax, tmin, sunrise, d0 } = A;
  const offs = block.offsetHours;
  const [w00, w01, w10, w11] = w;
  const hi = new Float64Array(4), lo = new Float64Array(4);
  for (let i = 0; i < n; i++) {
    const D = dStart + i;
    const di = D - d0;
    for (let c = 0; c < 2; c++) {
      const off = offs[c]!;
      // First integer UTC hour whose local time falls in day D, by the hourly code's own test.
      let t0 = Math.ceil(24 * D - off);
      while (Math.floor((t0 + off) / 24) < D) t0++;
      while (Math.floor((t0 - 1 + off) / 24) >= D) t0--;
      const lh0 = t0 + off - 24 * D;
      for (let r = 0; r < 2; r++) {
        const cell = 2 * r + c;
        const sr = sunrise[di * 2 + r]!;
        const kA = clampCount(Math.ceil(sr - lh0));
        const kB = clampCount(Math.ceil(TMAX_LOCAL_HOUR - lh0));
        const prevMax = tmax[(di - 1) * 4 + cell]!;
        const tlo = tmin[di * 4 + cell]!;
        const thi = tmax[di * 4 + cell]!;
        const nextMin = tmin[(di + 1) * 4 + cell]!;
        const aFalls = prevMax >= tlo;
        const bRises = thi >= tlo;
        const cFalls = thi >= nextMin;
        const srNext = 24 + sunrise[(di + 1) * 2 + r]!;
        const a0 = TMAX_LOCAL_HOUR - 24;
        let mx = -Infinity, mn = Infinity;
        if (kA > 0) {
          mx = Math.max(mx, blend(a0, sr, prevMax, tlo, t0 + (aFalls ? 0 : kA - 1) + off - 24 * D));
          mn = Math.min(mn, blend(a0, sr, prevMax, tlo, t0 + (aFalls ? kA - 1 : 0) + off - 24 * D));
        }
        if (kB > kA) {
          mx = Math.max(mx, blend(sr, TMAX_LOCAL_HOUR, tlo, thi, t0 + (bRises ? kB - 1 : kA) + off - 24 * D));
          mn = Math.min(mn, blend(sr, TMAX_LOCAL_HOUR, tlo, thi, t0 + (bRises ? kA : kB - 1) + off - 24 * D));
        }
        if (kB < 24) {
          mx = Math.max(mx, blend(TMAX_LOCAL_HOUR, srNext, thi, nextMin, t0 + (cFalls ? kB : 23) + off - 24 * D));
          mn = Math.min(mn, blend(TMAX_LOCAL_HOUR, srNext, thi, nextMin, t0 + (cFalls ? 23 : kB) + off - 24 * D));
        }
        // The general path stores each cell's extreme as float32 before the mix.
        hi[cell] = fround(mx);
        lo[cell] = fround(mn);
      }
    }
    maxOut[i] = w00 * hi[0]! + w01 * hi[1]! + w10 * hi[2]! + w11 * hi[3]!;
    minOut[i] = w00 * lo[0]! + w01 * lo[1]! + w10 * lo[2]! + w11 * lo[3]!;
  }
}

/** Smoothstep blend from va at local hour a to vb at b, at local hour lh (temperatureAt's curve). */
function blend(a: number, b: number, va: number, vb: number, lh: number): number {
  const s = (lh - a) / (b - a);
  return va + (vb - va) * s * s * (3 - 2 * s);
}

function clampCount(k: number): number {
  return k < 0 ? 0 : k > 24 ? 24 : k;
}
