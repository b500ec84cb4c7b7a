/**
 * Temperature anchors at a point: the four grid points around it (a 2 x 2 block) for many days,
 * computed in one fused pass; daily Tmax and Tmin of the point are their bilinear mix. The
 * general block code (temperature.ts) vectorises over cells through [day][cell] scratch arrays
 * and several noise objects; for four cells over years of days its fixed and per-day overheads
 * dominated (bench/README.md "Synthetic weather"). Here:
 *
 * - the lattice corners of each noise octave are hashed once per time node for all four cells
 *   (quad-noise.ts), straight into row-scaled double node values and their differences to the
 *   next node (`quadScaledNodes`, model v4), so a cell's blend is one multiply-add;
 * - the time weights of each octave cycle with its period (anchors are 24 h apart and every
 *   period is a whole number of hours, quad-noise.ts `octaveCycle`): a table look-up per column
 *   and octave instead of a floor and a cubic per day (model v3);
 * - the season term is one multiply-add per column from per-process tables (season.ts), the day
 *   of year a per-process table (calendar.ts `dayOfYearTable`), and the diurnal-range factor of
 *   day length a per-request table by row and day of year (daylight.ts);
 * - the cloud fraction is the v4 smoothstep (clouds.ts), with no sqrt or division;
 * - the finishing step of temperature.ts (`finishAnchors`: a day keeps warming or cooling through
 *   its extremes) runs inside the day loop on the last three raw days, so raw anchors are never
 *   stored;
 * - the daily extremes are the anchors themselves (temperature.ts), so Tmax and Tmin of a point
 *   are a bilinear mix of anchors with no sampling of the hourly curve.
 *
 * Formulas are the block path's (diurnalRange and cloudFraction written out and regrouped); the
 * noise is accumulated in double instead of float32 and scaled before the blend, so values agree
 * with the block path to float32 rounding (test/quad-extremes.test.ts compares them).
 */
import type { Block } from './block.js';
import { dayOfYearTable, daysFromCivil, dayOfYearOf, yearOfDay } from './calendar.js';
import { anomalyScale, LAPSE_RATE_K_PER_M, seaLevelMeanTemperature, seasonalAmplitude, TEMPERATURE_ANOMALY } from './climate.js';
import { DAILY_CLOUD_NOISE, cloudBias, DRYNESS_NOISE, dawnDewpointDepression } from './clouds.js';
import { dayLength, dayLengthRow, minimumHour } from './daylight.js';
import type { NoiseOctave } from './noise.js';
import { octaveCycle, quadOctave, quadScaledNodes } from './quad-noise.js';
import { seasonColumn, seasonTable } from './season.js';
import { midnightValue, type TemperatureAnchors } from './temperature.js';

/** Bilinear weights of the four cells (w00, w01, w10, w11). */
export type QuadMix = readonly [number, number, number, number];

/**
 * Scratch reused between calls (everything here is synchronous; read before return, never
 * returned): row-scaled node values and their differences to the next node, per octave.
 */
const scaled = [0, 1, 2].map(() => ({ v: new Float64Array(0), d: new Float64Array(0) }));
/** Diurnal-range factor g (climate.ts `diurnalRange`) by day of year, per row. */
const rangeRows = [new Float64Array(367), new Float64Array(367)] as const;

/**
 * Row-scaled node values and differences of an octave covering [tFirst, tLast] into scratch slot
 * `slot` (quad-noise.ts `quadScaledNodes`), with the first node index.
 */
function scaledOctave(octave: NoiseOctave, block: Block, tFirst: number, tLast: number, s0: number, s1: number, slot: number): { v: Float64Array; d: Float64Array; kMin: number } {
  const p = octave.periodHours;
  const kMin = Math.floor(tFirst / p);
  const nK = Math.floor(tLast / p) + 2 - kMin;
  const sc = scaled[slot]!;
  if (sc.v.length < 4 * nK) {
    sc.v = new Float64Array(4 * nK);
    sc.d = new Float64Array(4 * nK);
  }
  quadScaledNodes(octave, block, kMin, nK, s0, s1, sc.v, sc.d);
  return { v: sc.v, d: sc.d, kMin };
}

/** g = 0.35 + 0.65 min(1, N / 12) (climate.ts `diurnalRange`) by day of year J = 1..366 into g. */
function fillRangeRow(row: Float64Array, lat: number, g: Float64Array): void {
  for (let j = 1; j <= 366; j++) {
    const n = dayLength(row, lat, j);
    g[j] = 0.35 + 0.65 * (n < 12 ? n / 12 : 1);
  }
}

function checkLayout(block: Block): void {
  if (block.nRows !== 2 || block.nCols !== 2) throw new Error('quad temperature anchors need a 2 x 2 block');
  if (TEMPERATURE_ANOMALY.octaves.length !== 2 || DAILY_CLOUD_NOISE.octaves.length !== 1 || DRYNESS_NOISE.octaves.length !== 1) throw new Error('noise layout changed: update quad-extremes.ts');
}

/**
 * Final daily Tmax and Tmin (temperature.ts: the raw pair widened by the neighbouring days' raw
 * extremes) of the four cells of a 2 x 2 block for days f0 .. f0+nF-1 into hi / lo ([f][cell],
 * float32 as the block path stores them). Raw days f0-1 .. f0+nF are computed; `cloudOut`, if
 * given, receives the daily cloud fraction of days f0 .. f0+nF-1 ([f][cell]). With `mix`
 * (bilinear weights w00, w01, w10, w11), hi / lo receive the point's mixed values instead ([f]).
 */
function quadFinalAnchors(block: Block, f0: number, nF: number, hi: Float32Array, lo: Float32Array, cloudOut: Float64Array | null, mix: QuadMix | null = null): void {
  const { lats, lons, altitude, offsetHours } = block;
  const [w00, w01, w10, w11] = mix ?? [0, 0, 0, 0];
  const e0 = f0 - 1, nExt = nF + 2;
  const lat0 = lats[0]!, lat1 = lats[1]!;
  const off0 = offsetHours[0]!, off1 = offsetHours[1]!;
  const amp0 = seasonalAmplitude(lat0), amp1 = seasonalAmplitude(lat1);
  const sl0 = seaLevelMeanTemperature(lat0), sl1 = seaLevelMeanTemperature(lat1);
  const base00 = sl0 - LAPSE_RATE_K_PER_M * altitude[0]!;
  const base01 = sl0 - LAPSE_RATE_K_PER_M * altitude[1]!;
  const base10 = sl1 - LAPSE_RATE_K_PER_M * altitude[2]!;
  const base11 = sl1 - LAPSE_RATE_K_PER_M * altitude[3]!;
  const col0 = seasonColumn(lons[0]!), col1 = seasonColumn(lons[1]!);
  const cc0 = col0.cos, cs0 = col0.sin, cc1 = col1.cos, cs1 = col1.sin;
  const row0 = dayLengthRow(lat0), row1 = dayLengthRow(lat1);

  // Noise: anchors sit at local noon, t = 24 day + 12 - lon/15 h, 24 h apart per column.
  const [oa, ob] = TEMPERATURE_ANOMALY.octaves as [NoiseOctave, NoiseOctave];
  const oc = DAILY_CLOUD_NOISE.octaves[0]!;
  const tA = 24 * e0 + 12;
  const t0 = tA - off0, t1 = tA - off1;
  const tFirst = Math.min(t0, t1), tLast = Math.max(t0, t1) + 24 * (nExt - 1);
  // Per row: anomaly scale times octave amplitude; cloud x = ampC noise + bias.
  const sa0 = anomalyScale(lat0) * oa.amplitude, sa1 = anomalyScale(lat1) * oa.amplitude;
  const sb0 = anomalyScale(lat0) * ob.amplitude, sb1 = anomalyScale(lat1) * ob.amplitude;
  const cB0 = cloudBias(lat0), cB1 = cloudBias(lat1);
  const A1 = scaledOctave(oa, block, tFirst, tLast, sa0, sa1, 0), A2 = scaledOctave(ob, block, tFirst, tLast, sb0, sb1, 1);
  const C = scaledOctave(oc, block, tFirst, tLast, oc.amplitude, oc.amplitude, 2);
  const vA = A1.v, dA = A1.d, vB = A2.v, dB = A2.d, vC = C.v, dC = C.d;
  // g = 0.35 + 0.65 min(1, N / 12) by day of year, per row (from the per-process day lengths).
  const g0 = rangeRows[0], g1 = rangeRows[1];
  fillRangeRow(row0, lat0, g0);
  fillRangeRow(row1, lat1, g1);
  // Time-weight cycles per octave and column (the two columns share m and the stride).
  const yA0 = octaveCycle(oa.periodHours, t0, 24, A1.kMin), yA1 = octaveCycle(oa.periodHours, t1, 24, A1.kMin);
  const yB0 = octaveCycle(ob.periodHours, t0, 24, A2.kMin), yB1 = octaveCycle(ob.periodHours, t1, 24, A2.kMin);
  const yC0 = octaveCycle(oc.periodHours, t0, 24, C.kMin), yC1 = octaveCycle(oc.periodHours, t1, 24, C.kMin);
  const mA = yA0.m, sA = yA0.stride, kA0 = yA0.k0, kA1 = yA1.k0, wA0 = yA0.w, wA1 = yA1.w;
  const mB = yB0.m, sB = yB0.stride, kB0 = yB0.k0, kB1 = yB1.k0, wB0 = yB0.w, wB1 = yB1.w;
  const mC = yC0.m, sC = yC0.stride, kC0 = yC0.k0, kC1 = yC1.k0, wC0 = yC0.w, wC1 = yC1.w;

  const season = seasonTable(e0, nExt);
  const sCos = season.cos, sSin = season.sin, sOff = season.offset;
  const doy = dayOfYearTable(e0, nExt);
  const jT = doy.table, jOff = doy.offset;
  dayLoop(nExt, nF, hi, lo, cloudOut ?? NO_CLOUD, cloudOut !== null, mix !== null, w00, w01, w10, w11,
    vA, dA, kA0, kA1, wA0, wA1, mA, sA, vB, dB, kB0, kB1, wB0, wB1, mB, sB, vC, dC, kC0, kC1, wC0, wC1, mC, sC,
    base00, base01, base10, base11, amp0, amp1, cc0, cs0, cc1, cs1, cB0, cB1, sCos, sSin, sOff, jT, jOff, g0, g1);
}

const NO_CLOUD = new Float64Array(0);

/**
 * The day loop of quadFinalAnchors, on typed arrays and numbers only: the set-up's property
 * reads run once per call before V8 has feedback for them (the first call is long enough to be
 * compiled while it runs), and an optimized loop that held them was thrown away at the next call
 * ("insufficient type feedback") and ran on-stack-replaced for tens of calls, ~1.5x slower.
 */
function dayLoop(nExt: number, nF: number, hi: Float32Array, lo: Float32Array, cloudOut: Float64Array, withCloud: boolean, mix: boolean, w00: number, w01: number, w10: number, w11: number,
  vA: Float64Array, dA: Float64Array, kA0: Int32Array, kA1: Int32Array, wA0: Float64Array, wA1: Float64Array, mA: number, sA: number,
  vB: Float64Array, dB: Float64Array, kB0: Int32Array, kB1: Int32Array, wB0: Float64Array, wB1: Float64Array, mB: number, sB: number,
  vC: Float64Array, dC: Float64Array, kC0: Int32Array, kC1: Int32Array, wC0: Float64Array, wC1: Float64Array, mC: number, sC: number,
  base00: number, base01: number, base10: number, base11: number, amp0: number, amp1: number, cc0: number, cs0: number, cc1: number, cs1: number,
  cB0: number, cB1: number, sCos: Float64Array, sSin: Float64Array, sOff: number, jT: Uint16Array, jOff: number, g0: Float64Array, g1: Float64Array): void {
  let rA = 0, qA = 0, rB = 0, qB = 0, rC = 0, qC = 0;
  // Raw extremes of the previous two days (p: e - 1, pp: e - 2), per cell.
  let px0 = 0, px1 = 0, px2 = 0, px3 = 0, pn0 = 0, pn1 = 0, pn2 = 0, pn3 = 0;
  let ppx0 = 0, ppx1 = 0, ppx2 = 0, ppx3 = 0, ppn0 = 0, ppn1 = 0, ppn2 = 0, ppn3 = 0;
  // The hot loop is written out (no helper calls): V8 stops inlining in a function this long.
  for (let e = 0; e < nExt; e++) {
    // Anomaly, two octaves: per column the node offset and weight; cells 0, 2 in column 0, 1, 3 in column 1.
    let i0 = qA + kA0[rA]!, i1 = qA + kA1[rA]! + 1, w0 = wA0[rA]!, w1 = wA1[rA]!;
    let a0 = vA[i0]! + dA[i0]! * w0, a2 = vA[i0 + 2]! + dA[i0 + 2]! * w0;
    let a1 = vA[i1]! + dA[i1]! * w1, a3 = vA[i1 + 2]! + dA[i1 + 2]! * w1;
    if (++rA === mA) {
      rA = 0;
      qA += sA;
    }
    i0 = qB + kB0[rB]!;
    i1 = qB + kB1[rB]! + 1;
    w0 = wB0[rB]!;
    w1 = wB1[rB]!;
    a0 += vB[i0]! + dB[i0]! * w0;
    a2 += vB[i0 + 2]! + dB[i0 + 2]! * w0;
    a1 += vB[i1]! + dB[i1]! * w1;
    a3 += vB[i1 + 2]! + dB[i1 + 2]! * w1;
    if (++rB === mB) {
      rB = 0;
      qB += sB;
    }
    // Cloud, one octave: q = x (1.5 - 0.5 x^2) clamped to [-1, 1], the cloud fraction being 0.5 + 0.5 q (clouds.ts).
    i0 = qC + kC0[rC]!;
    i1 = qC + kC1[rC]! + 1;
    w0 = wC0[rC]!;
    w1 = wC1[rC]!;
    let x = vC[i0]! + dC[i0]! * w0 + cB0;
    const q0 = x <= -1 ? -1 : x >= 1 ? 1 : x * (1.5 - 0.5 * x * x);
    x = vC[i0 + 2]! + dC[i0 + 2]! * w0 + cB1;
    const q2 = x <= -1 ? -1 : x >= 1 ? 1 : x * (1.5 - 0.5 * x * x);
    x = vC[i1]! + dC[i1]! * w1 + cB0;
    const q1 = x <= -1 ? -1 : x >= 1 ? 1 : x * (1.5 - 0.5 * x * x);
    x = vC[i1 + 2]! + dC[i1 + 2]! * w1 + cB1;
    const q3 = x <= -1 ? -1 : x >= 1 ? 1 : x * (1.5 - 0.5 * x * x);
    if (++rC === mC) {
      rC = 0;
      qC += sC;
    }
    // Mean: sea-level climatology - lapse x altitude + seasonal cycle + anomaly.
    const sc = sCos[e + sOff]!, ss = sSin[e + sOff]!;
    const s0 = sc * cc0 + ss * cs0, s1 = sc * cc1 + ss * cs1;
    const m0 = base00 + amp0 * s0 + a0, m1 = base01 + amp0 * s1 + a1;
    const m2 = base10 + amp1 * s0 + a2, m3 = base11 + amp1 * s1 + a3;
    // Half the diurnal range: diurnalRange (climate.ts) is (3 + 11 (1 - cloud)) g / 2 with
    // g = 0.35 + 0.65 min(1, N / 12); with cloud = 0.5 + 0.5 q (clouds.ts) that is g (4.25 - 2.75 q).
    const j = jT[e + jOff]!;
    const gr0 = g0[j]!, gr1 = g1[j]!;
    const h0 = gr0 * (4.25 - 2.75 * q0), h1 = gr0 * (4.25 - 2.75 * q1);
    const h2 = gr1 * (4.25 - 2.75 * q2), h3 = gr1 * (4.25 - 2.75 * q3);
    const cx0 = m0 + h0, cn0 = m0 - h0, cx1 = m1 + h1, cn1 = m1 - h1;
    const cx2 = m2 + h2, cn2 = m2 - h2, cx3 = m3 + h3, cn3 = m3 - h3;
    if (withCloud && e >= 1 && e <= nF) {
      const o = 4 * (e - 1);
      cloudOut[o] = 0.5 + 0.5 * q0;
      cloudOut[o + 1] = 0.5 + 0.5 * q1;
      cloudOut[o + 2] = 0.5 + 0.5 * q2;
      cloudOut[o + 3] = 0.5 + 0.5 * q3;
    }
    if (e >= 2) {
      // Final day e - 2 (raw e - 1, with neighbours e - 2 and e): finishAnchors in temperature.ts.
      let x0 = px0, y0 = pn0, x1 = px1, y1 = pn1, x2 = px2, y2 = pn2, x3 = px3, y3 = pn3;
      if (ppn0 > x0) x0 = ppn0;
      if (cn0 > x0) x0 = cn0;
      if (ppx0 < y0) y0 = ppx0;
      if (cx0 < y0) y0 = cx0;
      if (ppn1 > x1) x1 = ppn1;
      if (cn1 > x1) x1 = cn1;
      if (ppx1 < y1) y1 = ppx1;
      if (cx1 < y1) y1 = cx1;
      if (ppn2 > x2) x2 = ppn2;
      if (cn2 > x2) x2 = cn2;
      if (ppx2 < y2) y2 = ppx2;
      if (cx2 < y2) y2 = cx2;
      if (ppn3 > x3) x3 = ppn3;
      if (cn3 > x3) x3 = cn3;
      if (ppx3 < y3) y3 = ppx3;
      if (cx3 < y3) y3 = cx3;
      if (mix) {
        // The point's values: the bilinear mix of the anchors as stored (float32).
        hi[e - 2] = w00 * Math.fround(x0) + w01 * Math.fround(x1) + w10 * Math.fround(x2) + w11 * Math.fround(x3);
        lo[e - 2] = w00 * Math.fround(y0) + w01 * Math.fround(y1) + w10 * Math.fround(y2) + w11 * Math.fround(y3);
      } else {
        const o = 4 * (e - 2);
        hi[o] = x0;
        lo[o] = y0;
        hi[o + 1] = x1;
        lo[o + 1] = y1;
        hi[o + 2] = x2;
        lo[o + 2] = y2;
        hi[o + 3] = x3;
        lo[o + 3] = y3;
      }
    }
    ppx0 = px0; ppx1 = px1; ppx2 = px2; ppx3 = px3;
    ppn0 = pn0; ppn1 = pn1; ppn2 = pn2; ppn3 = pn3;
    px0 = cx0; px1 = cx1; px2 = cx2; px3 = cx3;
    pn0 = cn0; pn1 = cn1; pn2 = cn2; pn3 = cn3;
  }
}

/**
 * temperatureAnchors(block, d0, nDays, withDew, withHourly) for a 2 x 2 block (rows = 2
 * latitudes, columns = 2 longitudes, cells row-major), from the fused day loop. Same formulas
 * and the same final step; the noise is accumulated in double rather than float32, so values
 * can differ from the block path's in the last float32 bit.
 */
export function quadTemperatureAnchors(block: Block, d0: number, nDays: number, withDew = false, withHourly = false): TemperatureAnchors {
  checkLayout(block);
  const extra = withDew || withHourly;
  // Midnight values and dew anchors need the final extremes of one day more on each side.
  const f0 = extra ? d0 - 1 : d0, nF = extra ? nDays + 2 : nDays;
  const hi = new Float32Array(4 * nF), lo = new Float32Array(4 * nF);
  const cloud = withDew ? new Float64Array(4 * nF) : null;
  quadFinalAnchors(block, f0, nF, hi, lo, cloud);
  const tmax = extra ? hi.subarray(4, 4 * (nDays + 1)) : hi;
  const tmin = extra ? lo.subarray(4, 4 * (nDays + 1)) : lo;
  const mid = new Float32Array(withHourly ? 4 * (nDays + 1) : 0);
  if (withHourly) {
    // M(D) for D = d0 .. d0+nDays: between day D-1 (f = i) and day D (f = i + 1).
    for (let i = 0; i <= 4 * nDays + 3; i++) mid[i] = midnightValue(hi[i]!, lo[i]!, hi[i + 4]!, lo[i + 4]!);
  }
  const sunrise = new Float64Array(withHourly ? 2 * nDays : 0);
  if (withHourly) {
    const lat0 = block.lats[0]!, lat1 = block.lats[1]!;
    const row0 = dayLengthRow(lat0), row1 = dayLengthRow(lat1);
    let j = dayOfYearOf(d0);
    let yearDays = daysFromCivil(yearOfDay(d0) + 1, 1, 1) - daysFromCivil(yearOfDay(d0), 1, 1);
    for (let i = 0; i < nDays; i++) {
      sunrise[2 * i] = minimumHour(dayLength(row0, lat0, j));
      sunrise[2 * i + 1] = minimumHour(dayLength(row1, lat1, j));
      if (++j > yearDays) {
        j = 1;
        yearDays = daysFromCivil(yearOfDay(d0 + i + 1) + 1, 1, 1) - (d0 + i + 1);
      }
    }
  }
  const tdew = new Float32Array(withDew ? 4 * (nDays + 1) : 0);
  if (withDew && cloud) {
    // Dew anchors at the midnight starting days d0 .. d0+nDays, from that day's minimum, the
    // dryness noise at its anchor time and its cloud (temperatureAnchors in temperature.ts).
    const lat0 = block.lats[0]!, lat1 = block.lats[1]!;
    const off0 = block.offsetHours[0]!, off1 = block.offsetHours[1]!;
    const dry = DRYNESS_NOISE.octaves[0]!;
    const p = dry.periodHours;
    const tA = 24 * d0 + 12;
    const Y = quadOctave(dry, block, Math.min(tA - off0, tA - off1), Math.max(tA - off0, tA - off1) + 24 * nDays);
    const nY = Y.nodes;
    for (let i = 0; i <= nDays; i++) {
      const day = d0 + i;
      const ta = 24 * day + 12 - off0, tb = 24 * day + 12 - off1;
      let k = Math.floor(ta / p), s = (ta - k * p) / p, w = s * s * (3 - 2 * s), q = (k - Y.kMin) * 4;
      const y0 = dry.amplitude * (nY[q]! + (nY[q + 4]! - nY[q]!) * w), y2 = dry.amplitude * (nY[q + 2]! + (nY[q + 6]! - nY[q + 2]!) * w);
      k = Math.floor(tb / p);
      s = (tb - k * p) / p;
      w = s * s * (3 - 2 * s);
      q = (k - Y.kMin) * 4;
      const y1 = dry.amplitude * (nY[q + 1]! + (nY[q + 5]! - nY[q + 1]!) * w), y3 = dry.amplitude * (nY[q + 3]! + (nY[q + 7]! - nY[q + 3]!) * w);
      const o = 4 * i, f = o + 4;
      tdew[o] = lo[f]! - dawnDewpointDepression(y0, lat0, cloud[f]!);
      tdew[o + 1] = lo[f + 1]! - dawnDewpointDepression(y1, lat0, cloud[f + 1]!);
      tdew[o + 2] = lo[f + 2]! - dawnDewpointDepression(y2, lat1, cloud[f + 2]!);
      tdew[o + 3] = lo[f + 3]! - dawnDewpointDepression(y3, lat1, cloud[f + 3]!);
    }
  }
  return { d0, nDays, nRows: 2, nCells: 4, tmax, tmin, mid, tdew, sunrise };
}

/**
 * Daily max and min over local solar days d0 .. d0+n-1 at a point, the four surrounding grid
 * points' anchors (which are the extremes of the hourly curve, temperature.ts) mixed with the
 * bilinear weights (w00, w01, w10, w11).
 */
export function quadDailyExtremes(block: Block, d0: number, n: number, w: QuadMix, maxOut: Float32Array, minOut: Float32Array): void {
  checkLayout(block);
  quadFinalAnchors(block, d0, n, maxOut, minOut, null, w);
}
