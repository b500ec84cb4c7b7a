/**
 * Temperature anchors at a point: the four grid points around it (a 2 x 2 block) for many days,
 * computed in one fused pass; daily Tmax and Tmin of the point are their bilinear mix. The
 * general block code (temperature.ts) vectorises over cells through [day][cell] scratch arrays
 * and several noise objects; for four cells over years of days its fixed and per-day overheads
 * dominated (bench/README.md "Synthetic weather"). Here:
 *
 * - the lattice corners of each noise octave are hashed once per time node for all four cells
 *   (quad-noise.ts `sharedCorners`), straight into row-scaled double node values and their
 *   differences to the next node (`scaledNodesInto`, model v4), so a cell's blend is one
 *   multiply-add;
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
 * - the node hashing and the day loop are WebAssembly SIMD kernels (kernels/daily-anchors.wat),
 *   the four cells two f64x2 vectors (one per column): the JavaScript loop ran four scalar copies
 *   of every step and had reached its limit (bench/README.md "Zarr reads"). They repeat the
 *   JavaScript operations in order, so the anchors kept their bits.
 *
 * Formulas are the block path's (diurnalRange and cloudFraction written out and regrouped); the
 * noise is accumulated in double instead of float32 and scaled before the blend, so values agree
 * with the block path to float32 rounding (test/quad-extremes.test.ts compares them).
 */
import type { Block } from './block.js';
import { dayOfYearTable, daysFromCivil, dayOfYearOf, yearOfDay } from './calendar.js';
import { anomalyScale, LAPSE_RATE_K_PER_M, seaLevelMeanTemperature, seasonalAmplitude, TEMPERATURE_ANOMALY } from './climate.js';
import { DAILY_CLOUD_NOISE, cloudBias, DRYNESS_NOISE, aridDepression, dawnDewpointDepression } from './clouds.js';
import { dayLength, dayLengthRow, minimumHour } from './daylight.js';
import type { NoiseOctave } from './noise.js';
import { dailyAnchorsMemory, dayLoop, scaledNodes } from './kernels/daily-anchors.js';
import { octaveCycle, quadNodes, quadOctave, sharedCorners } from './quad-noise.js';
import { seasonColumn, seasonTable } from './season.js';
import { midnightValue, type TemperatureAnchors } from './temperature.js';

/** Bilinear weights of the four cells (w00, w01, w10, w11). */
export type QuadMix = readonly [number, number, number, number];

/**
 * g = 0.35 + 0.65 min(1, N / 12) (climate.ts `diurnalRange`) by day of year J = 1..366 for the
 * two rows, into g[2 J + row].
 */
function fillRangeRows(lat0: number, lat1: number, g: Float64Array): void {
  const row0 = dayLengthRow(lat0), row1 = dayLengthRow(lat1);
  for (let j = 1; j <= 366; j++) {
    const n0 = dayLength(row0, lat0, j), n1 = dayLength(row1, lat1, j);
    g[2 * j] = 0.35 + 0.65 * (n0 < 12 ? n0 / 12 : 1);
    g[2 * j + 1] = 0.35 + 0.65 * (n1 < 12 ? n1 / 12 : 1);
  }
}

function checkLayout(block: Block): void {
  if (block.nRows !== 2 || block.nCols !== 2) throw new Error('quad temperature anchors need a 2 x 2 block');
  if (TEMPERATURE_ANOMALY.octaves.length !== 2 || DAILY_CLOUD_NOISE.octaves.length !== 1 || DRYNESS_NOISE.octaves.length !== 1) throw new Error('noise layout changed: update quad-extremes.ts');
}

/**
 * An octave covering [tFirst, tLast] hours in kernel memory for the day loop: its node records
 * (`scaledNodesInto`) and the records of its time cycle at the anchor times t0 + 24 e (column 0)
 * and t1 + 24 e (column 1), laid out as kernels/daily-anchors.wat `dayLoop` reads them.
 */
function octaveArgs(octave: NoiseOctave, block: Block, tFirst: number, tLast: number, t0: number, t1: number, s0: number, s1: number): { nodes: number; cycle: number; m: number; step: number } {
  const mem = dailyAnchorsMemory;
  const p = octave.periodHours;
  const kMin = Math.floor(tFirst / p);
  const nK = Math.floor(tLast / p) + 2 - kMin;
  // octaveCycle's node offsets count 4 values per node; a node record is 64 bytes.
  const y0 = octaveCycle(p, t0, 24, kMin), y1 = octaveCycle(p, t1, 24, kMin);
  const m = y0.m;
  const nodes = mem.scratch(64 * nK), cycle = mem.scratch(32 * m);
  scaledNodesInto(octave, block, kMin, nK, s0, s1, nodes);
  const offsets = mem.i32(cycle, 8 * m), weights = mem.f64(cycle, 4 * m);
  for (let r = 0; r < m; r++) {
    offsets[8 * r] = 16 * y0.k0[r]!;
    offsets[8 * r + 1] = 16 * y1.k0[r]!;
    weights[4 * r + 1] = y0.w[r]!;
    weights[4 * r + 2] = y1.w[r]!;
  }
  return { nodes, cycle, m, step: 16 * y0.stride };
}

/**
 * Row-scaled node values of an octave at a 2 x 2 block in double, and their differences to the
 * next node, as node records at offset `at` of the kernel memory (64 nK bytes; model v4; layout
 * in kernels/daily-anchors.wat): v = s(row) x node value (s0 for row 0, s1 for row 1) and
 * d[k] = v[k + 1] - v[k], so a blend between nodes is v + d w. The node values are quad-noise.ts
 * `quadNodes`' before its float32 rounding (the daily anchors accumulate noise in double;
 * test/quad-extremes.test.ts bounds the difference to the block path). When the four cells share
 * their lattice corners (nearly always) the `scaledNodes` kernel computes them; otherwise
 * quadNodes' general form, scaled.
 */
export function scaledNodesInto(octave: NoiseOctave, block: Block, kMin: number, nK: number, s0: number, s1: number, at: number): void {
  const shared = sharedCorners(octave.seed, octave.spacingDeg, block);
  if (shared) {
    const { p0, p1, p2, p3, wx0, wx1, wy0, wy1 } = shared;
    scaledNodes(p0, p1, p2, p3, kMin, nK, s0, s1, wx0, wx1, wy0, wy1, at);
    return;
  }
  const n = quadNodes(octave, block, kMin, nK);
  const rec = dailyAnchorsMemory.f64(at, 8 * nK);
  for (let k = 0; k < nK; k++) {
    // [value, difference][column][row]; quadNodes is [cell] with cells row-major.
    const o = 8 * k, c = 4 * k;
    rec[o] = s0 * n[c]!;
    rec[o + 1] = s1 * n[c + 2]!;
    rec[o + 2] = s0 * n[c + 1]!;
    rec[o + 3] = s1 * n[c + 3]!;
    if (k > 0) for (let i = 0; i < 4; i++) rec[o - 4 + i] = rec[o + i]! - rec[o - 8 + i]!;
  }
}

/**
 * Final daily Tmax and Tmin (temperature.ts: the raw pair widened by the neighbouring days' raw
 * extremes) of the four cells of a 2 x 2 block for days f0 .. f0+nF-1 into hi / lo ([f][cell],
 * float32 as the block path stores them). Raw days f0-1 .. f0+nF are computed; `cloudOut`, if
 * given, receives the daily cloud fraction of days f0 .. f0+nF-1 ([f][cell]). With `mix`
 * (bilinear weights w00, w01, w10, w11), hi / lo receive the point's mixed values instead ([f]).
 * The set-up is here; the day loop is the WebAssembly kernel kernels/daily-anchors.wat.
 */
function quadFinalAnchors(block: Block, f0: number, nF: number, hi: Float32Array, lo: Float32Array, cloudOut: Float64Array | null, mix: QuadMix | null = null): void {
  const mem = dailyAnchorsMemory;
  const { lats, lons, altitude, offsetHours } = block;
  const [w00, w01, w10, w11] = mix ?? [0, 0, 0, 0];
  const e0 = f0 - 1, nExt = nF + 2;
  const lat0 = lats[0]!, lat1 = lats[1]!;
  const off0 = offsetHours[0]!, off1 = offsetHours[1]!;
  const col0 = seasonColumn(lons[0]!), col1 = seasonColumn(lons[1]!);
  const [oa, ob] = TEMPERATURE_ANOMALY.octaves as [NoiseOctave, NoiseOctave];
  const oc = DAILY_CLOUD_NOISE.octaves[0]!;
  // Anchors sit at local noon, t = 24 day + 12 - lon/15 h, 24 h apart per column.
  const tA = 24 * e0 + 12;
  const t0 = tA - off0, t1 = tA - off1;
  const tFirst = Math.min(t0, t1), tLast = Math.max(t0, t1) + 24 * (nExt - 1);
  const season = seasonTable(e0, nExt);
  const doy = dayOfYearTable(e0, nExt);

  // Kernel memory (kernel-memory.ts): the process tables are kept there, others copied per call.
  mem.reset();
  const sCos = season.shared ? mem.table(season.cos) : mem.copy(season.cos);
  const sSin = season.shared ? mem.table(season.sin) : mem.copy(season.sin);
  const jT = doy.shared ? mem.table(doy.table) : mem.copy(doy.table);
  // Per row: anomaly scale times octave amplitude; the cloud octave at its amplitude.
  const A = octaveArgs(oa, block, tFirst, tLast, t0, t1, anomalyScale(lat0) * oa.amplitude, anomalyScale(lat1) * oa.amplitude);
  const B = octaveArgs(ob, block, tFirst, tLast, t0, t1, anomalyScale(lat0) * ob.amplitude, anomalyScale(lat1) * ob.amplitude);
  const C = octaveArgs(oc, block, tFirst, tLast, t0, t1, oc.amplitude, oc.amplitude);
  const g = mem.scratch(16 * 367);
  const hiAt = mem.scratch(4 * hi.length), loAt = mem.scratch(4 * lo.length);
  const cloudAt = cloudOut ? mem.scratch(8 * cloudOut.length) : 0;
  fillRangeRows(lat0, lat1, mem.f64(g, 2 * 367));
  dayLoop(nExt, nF, hiAt, loAt, cloudAt, cloudOut ? 1 : 0, mix ? 1 : 0, w00, w01, w10, w11,
    A.nodes, A.cycle, A.m, A.step, B.nodes, B.cycle, B.m, B.step, C.nodes, C.cycle, C.m, C.step,
    seaLevelMeanTemperature(lat0) - LAPSE_RATE_K_PER_M * altitude[0]!, seaLevelMeanTemperature(lat0) - LAPSE_RATE_K_PER_M * altitude[1]!,
    seaLevelMeanTemperature(lat1) - LAPSE_RATE_K_PER_M * altitude[2]!, seaLevelMeanTemperature(lat1) - LAPSE_RATE_K_PER_M * altitude[3]!,
    seasonalAmplitude(lat0), seasonalAmplitude(lat1), col0.cos, col0.sin, col1.cos, col1.sin, cloudBias(lat0), cloudBias(lat1),
    // The kernel reads the tables from raw day 0 on.
    sCos + 8 * season.offset, sSin + 8 * season.offset, jT + 2 * doy.offset, g);
  hi.set(mem.f32(hiAt, hi.length));
  lo.set(mem.f32(loAt, lo.length));
  if (cloudOut) cloudOut.set(mem.f64(cloudAt, cloudOut.length));
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
  const sunrise = new Float64Array(withHourly ? 2 * nDays : 0);
  if (withHourly) {
    midnightValues(hi, lo, nDays, mid);
    sunriseHours(block.lats[0]!, block.lats[1]!, d0, nDays, sunrise);
  }
  const tdew = new Float32Array(withDew ? 4 * (nDays + 1) : 0);
  if (withDew && cloud) dewAnchors(block, d0, nDays, lo, cloud, tdew);
  return { d0, nDays, nRows: 2, nCells: 4, tmax, tmin, mid, tdew, sunrise };
}

/**
 * M(D) for D = d0 .. d0+nDays of the four cells, between day D-1 (final day f = i) and day D
 * (f = i + 1): temperature.ts `midnightValue` of final anchors starting a day before d0.
 */
function midnightValues(hi: Float32Array, lo: Float32Array, nDays: number, mid: Float32Array): void {
  for (let i = 0; i <= 4 * nDays + 3; i++) mid[i] = midnightValue(hi[i]!, lo[i]!, hi[i + 4]!, lo[i + 4]!);
}

/** Local hour of the minimum (daylight.ts `minimumHour`) of both rows for days d0 .. d0+nDays-1, [day][row]. */
function sunriseHours(lat0: number, lat1: number, d0: number, nDays: number, sunrise: Float64Array): void {
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

/**
 * Dew anchors at the midnights starting days d0 .. d0+nDays ([day][cell]), from that day's
 * final minimum (lo, [f][cell] from day d0 - 1), the dryness noise at its anchor time and its
 * cloud (cloud, laid out as lo): temperatureAnchors in temperature.ts.
 */
function dewAnchors(block: Block, d0: number, nDays: number, lo: Float32Array, cloud: Float64Array, tdew: Float32Array): void {
  const off0 = block.offsetHours[0]!, off1 = block.offsetHours[1]!;
  const arid0 = aridDepression(block.lats[0]!), arid1 = aridDepression(block.lats[1]!);
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
    tdew[o] = lo[f]! - dawnDewpointDepression(y0, arid0, cloud[f]!);
    tdew[o + 1] = lo[f + 1]! - dawnDewpointDepression(y1, arid0, cloud[f + 1]!);
    tdew[o + 2] = lo[f + 2]! - dawnDewpointDepression(y2, arid1, cloud[f + 2]!);
    tdew[o + 3] = lo[f + 3]! - dawnDewpointDepression(y3, arid1, cloud[f + 3]!);
  }
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
