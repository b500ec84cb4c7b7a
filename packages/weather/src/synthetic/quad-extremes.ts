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
 *   JavaScript operations in order, so the anchors kept their bits;
 * - the hourly curve's other anchors (midnights, dew anchors, sunrise) come from the
 *   `hourlyAnchors` kernel and stay in the kernels' memory, which the hourly kernels share, so
 *   the hourly temperature pass reads them where they are (`quadHourlyAnchors`).
 *
 * Formulas are the block path's (diurnalRange and cloudFraction written out and regrouped); the
 * noise is accumulated in double instead of float32 and scaled before the blend, so values agree
 * with the block path to float32 rounding (test/quad-extremes.test.ts compares them).
 */
import type { Block } from './block.js';
import { dayOfYearTable } from './calendar.js';
import { anomalyScale, LAPSE_RATE_K_PER_M, seaLevelMeanTemperature, seasonalAmplitude, TEMPERATURE_ANOMALY } from './climate.js';
import { DAILY_CLOUD_NOISE, cloudBias, DRYNESS_NOISE, aridDepression } from './clouds.js';
import { dayLength, dayLengthRow, minimumHour } from './daylight.js';
import type { NoiseOctave } from './noise.js';
import { dayLoop, hourlyAnchors, scaledNodes } from './kernels/daily-anchors.js';
import { kernelMemory } from './kernels/kernel-memory.js';
import { octaveCycle, quadNodes, quadOctave, sharedCorners } from './quad-noise.js';
import { seasonColumn, seasonTable } from './season.js';
import type { TemperatureAnchors } from './temperature.js';

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
  const mem = kernelMemory;
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
  const rec = kernelMemory.f64(at, 8 * nK);
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
 * extremes) of the four cells of a 2 x 2 block for days f0 .. f0+nF-1, left in kernel memory
 * ([f][cell] float32 at `hi` and `lo`, as the block path stores them). Raw days f0-1 .. f0+nF are
 * computed; with `withCloud` the daily cloud fraction of days f0 .. f0+nF-1 too ([f][cell]
 * double at `cloud`). With `mix` (bilinear weights w00, w01, w10, w11), hi and lo hold the
 * point's mixed values instead ([f]). `doy` is the offset of day f0's day of year (u16). The
 * set-up is here; the day loop is the WebAssembly kernel kernels/daily-anchors.wat.
 */
function quadFinalAnchors(block: Block, f0: number, nF: number, withCloud: boolean, mix: QuadMix | null = null): { hi: number; lo: number; cloud: number; doy: number } {
  const mem = kernelMemory;
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
  const nOut = mix ? nF : 4 * nF;
  const hiAt = mem.scratch(4 * nOut), loAt = mem.scratch(4 * nOut);
  const cloudAt = withCloud ? mem.scratch(32 * nF) : 0;
  fillRangeRows(lat0, lat1, mem.f64(g, 2 * 367));
  dayLoop(nExt, nF, hiAt, loAt, cloudAt, withCloud ? 1 : 0, mix ? 1 : 0, w00, w01, w10, w11,
    A.nodes, A.cycle, A.m, A.step, B.nodes, B.cycle, B.m, B.step, C.nodes, C.cycle, C.m, C.step,
    seaLevelMeanTemperature(lat0) - LAPSE_RATE_K_PER_M * altitude[0]!, seaLevelMeanTemperature(lat0) - LAPSE_RATE_K_PER_M * altitude[1]!,
    seaLevelMeanTemperature(lat1) - LAPSE_RATE_K_PER_M * altitude[2]!, seaLevelMeanTemperature(lat1) - LAPSE_RATE_K_PER_M * altitude[3]!,
    seasonalAmplitude(lat0), seasonalAmplitude(lat1), col0.cos, col0.sin, col1.cos, col1.sin, cloudBias(lat0), cloudBias(lat1),
    // The kernel reads the tables from raw day 0 on.
    sCos + 8 * season.offset, sSin + 8 * season.offset, jT + 2 * doy.offset, g);
  // Raw day e0 is the table's first; final day f0 its second.
  return { hi: hiAt, lo: loAt, cloud: cloudAt, doy: jT + 2 * doy.offset + 2 };
}

/**
 * The anchors of the hourly curve of a 2 x 2 block for days d0 .. d0+nDays-1, left in kernel
 * memory as byte offsets, laid out as temperature.ts `TemperatureAnchors` lays out its arrays
 * (tmax, tmin, mid, tdew [day][cell] float32, sunrise [day][row] double), for the hourly kernels
 * to read where they are (quad-hourly.ts). The final anchors come from the day loop
 * (`quadFinalAnchors`, one day more on each side for the midnights and dew anchors), the rest
 * from the `hourlyAnchors` kernel; tdew is 0 (none) without dew.
 */
export interface KernelAnchors {
  d0: number;
  nDays: number;
  tmax: number;
  tmin: number;
  mid: number;
  tdew: number;
  sunrise: number;
}

export function quadHourlyAnchors(block: Block, d0: number, nDays: number, withDew: boolean): KernelAnchors {
  checkLayout(block);
  const F = quadFinalAnchors(block, d0 - 1, nDays + 2, withDew);
  const mem = kernelMemory;
  const lat0 = block.lats[0]!, lat1 = block.lats[1]!;
  const off0 = block.offsetHours[0]!, off1 = block.offsetHours[1]!;
  const dry = DRYNESS_NOISE.octaves[0]!;
  // The dryness octave over both columns' anchor times at days d0 .. d0+nDays.
  const tA = 24 * d0 + 12;
  const Y = withDew ? quadOctave(dry, block, Math.min(tA - off0, tA - off1), Math.max(tA - off0, tA - off1) + 24 * nDays) : null;
  const dryAt = Y ? mem.copy(Y.nodes) : 0;
  // sunrise and sun follow mid and tdew: temperatureColumn reads 16 bytes from a day's first cell.
  const mid = mem.scratch(16 * (nDays + 1)), tdew = withDew ? mem.scratch(16 * (nDays + 1)) : 0, sunrise = mem.scratch(16 * nDays), sun = mem.scratch(16 * 367);
  fillSunriseRows(lat0, lat1, mem.f64(sun, 2 * 367));
  hourlyAnchors(nDays, F.hi, F.lo, F.cloud, withDew ? 1 : 0, dryAt, Y ? Y.kMin : 0, dry.periodHours, dry.amplitude, d0, off0, off1,
    aridDepression(lat0), aridDepression(lat1), F.doy + 2, sun, mid, tdew, sunrise);
  // Final day f0 = d0 - 1 is the first: day d0's anchors are 16 bytes on.
  return { d0, nDays, tmax: F.hi + 16, tmin: F.lo + 16, mid, tdew, sunrise };
}

/**
 * temperatureAnchors(block, d0, nDays, withDew, true) for a 2 x 2 block (rows = 2 latitudes,
 * columns = 2 longitudes, cells row-major) as arrays: a copy of quadHourlyAnchors' kernel memory,
 * which tests compare with the block path (same formulas and final step; the noise accumulated in
 * double rather than float32, so values can differ from the block path's in the last float32
 * bit) and with the hourly curve.
 */
export function quadTemperatureAnchors(block: Block, d0: number, nDays: number, withDew: boolean): TemperatureAnchors {
  const A = quadHourlyAnchors(block, d0, nDays, withDew);
  const mem = kernelMemory;
  return {
    d0, nDays, nRows: 2, nCells: 4,
    tmax: mem.f32(A.tmax, 4 * nDays).slice(),
    tmin: mem.f32(A.tmin, 4 * nDays).slice(),
    mid: mem.f32(A.mid, 4 * (nDays + 1)).slice(),
    tdew: withDew ? mem.f32(A.tdew, 4 * (nDays + 1)).slice() : new Float32Array(0),
    sunrise: new Float64Array(mem.f64(A.sunrise, 2 * nDays)),
  };
}

/** Local hour of the minimum (daylight.ts `minimumHour`) of both rows by day of year J = 1..366, [J][row]. */
function fillSunriseRows(lat0: number, lat1: number, sun: Float64Array): void {
  const row0 = dayLengthRow(lat0), row1 = dayLengthRow(lat1);
  for (let j = 1; j <= 366; j++) {
    sun[2 * j] = minimumHour(dayLength(row0, lat0, j));
    sun[2 * j + 1] = minimumHour(dayLength(row1, lat1, j));
  }
}

/**
 * Daily max and min over local solar days d0 .. d0+n-1 at a point, the four surrounding grid
 * points' anchors (which are the extremes of the hourly curve, temperature.ts) mixed with the
 * bilinear weights (w00, w01, w10, w11).
 */
export function quadDailyExtremes(block: Block, d0: number, n: number, w: QuadMix, maxOut: Float32Array, minOut: Float32Array): void {
  checkLayout(block);
  const F = quadFinalAnchors(block, d0, n, false, w);
  maxOut.set(kernelMemory.f32(F.hi, n));
  minOut.set(kernelMemory.f32(F.lo, n));
}
