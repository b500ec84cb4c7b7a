/**
 * Hourly point series of the ET inputs (air temperature, dewpoint, shortwave, wind speed, surface
 * pressure) at a point: the four grid points around it (a 2 x 2 block) computed in one pass per
 * variable and mixed bilinearly as they go, with no [t][cell] field in between. The general block
 * code (fields.ts) computes a field of every cell for every hour through BlockNoise, whose
 * per-hour cache look-ups, floors and cubics, and per-call set-up cost more than the arithmetic
 * for four cells (bench/README.md "Zarr reads"). Here:
 *
 * - noise nodes are hashed once per time node for the four cells (quad-noise.ts `quadNodes`) and
 *   the time weights come from the octave's cycle table (`octaveCycle`): hourly samples repeat
 *   their position between nodes with the octave's period;
 * - the per-cell step of every variable is the block path's own arithmetic (`curve`,
 *   `shortwaveOf` and `periodRa` written out operation for operation, `windOf`), with the noise
 *   accumulated in float32 as BlockNoise does, so each cell's value is the general path's bit
 *   for bit and so is the bilinear mix (test/synthetic-quad-hourly.test.ts checks equality with
 *   computeField);
 * - shortwave runs hour by hour over the four cells (model v4): they share the hour's place in
 *   the noise cycles, the period-end sines are computed for lit hours only, and the cloud curve
 *   has no sqrt or division (clouds.ts);
 * - scratch arrays are reused between calls (never returned), so a call allocates little besides
 *   its result;
 * - air temperature and dewpoint read the fused 2 x 2 anchors (quad-extremes.ts), as the point
 *   series did before.
 */
import type { VariableId } from '../grid-source.js';
import type { Block } from './block.js';
import { CLOUD_NOISE, cloudBias } from './clouds.js';
import { pressureAtElevation, PRESSURE_NOISE } from './pressure.js';
import { quadTemperatureAnchors } from './quad-extremes.js';
import { octaveCycle, quadOctave, type OctaveCycle, type QuadNodes } from './quad-noise.js';
import { clearSkyFactors } from './radiation.js';
import { dayOfYearTable } from './calendar.js';
import { hourAnglesOfDay, litHourSinesOfDay, longitudeRotation, periodRa, SOLAR_DAY, sunsetAt, sunsetRow } from './solar.js';
import { TMAX_LOCAL_HOUR } from './climate.js';
import { anchorDaysForHours, PLATEAU_HALF_HOURS } from './temperature.js';
import { diurnalWindFactors, windBase, WIND_NOISE, WIND_NOISE_GAIN } from './wind.js';
import type { NoiseField } from './noise.js';
import { hourlySeriesMemory, mixColumns, pressureLoop, temperatureColumn, windLoop } from './kernels/hourly-series.js';
import type { KernelMemory } from './kernels/kernel-memory.js';

export type QuadHourlyVariable = 'air_temperature' | 'dew_point_temperature' | 'surface_downwelling_shortwave_flux_in_air' | 'wind_speed' | 'surface_air_pressure';

export function isQuadHourly(variable: VariableId): variable is QuadHourlyVariable {
  return variable === 'air_temperature' || variable === 'dew_point_temperature' || variable === 'surface_downwelling_shortwave_flux_in_air' || variable === 'wind_speed' || variable === 'surface_air_pressure';
}

/** Bilinear weights of the four cells (row-major: w00, w01, w10, w11). */
export type QuadWeights = readonly [number, number, number, number];

/**
 * The value at the point for hours h0 .. h0+nt-1 of `variable`, the bilinear mix (weights w)
 * of the four cells of the 2 x 2 block: what computeField over the block followed by the mix gives.
 */
export function quadHourlySeries(variable: QuadHourlyVariable, block: Block, h0: number, nt: number, w: QuadWeights): Float32Array {
  if (block.nRows !== 2 || block.nCols !== 2) throw new Error('quadHourlySeries needs a 2 x 2 block');
  const out = new Float32Array(nt);
  if (nt === 0) return out;
  switch (variable) {
    case 'air_temperature':
    case 'dew_point_temperature':
      quadTemperature(block, h0, nt, w, variable === 'dew_point_temperature', out);
      break;
    case 'surface_downwelling_shortwave_flux_in_air':
      quadShortwave(block, h0, nt, w, out);
      break;
    case 'wind_speed':
      quadWind(block, h0, nt, w, out);
      break;
    case 'surface_air_pressure':
      quadPressure(block, h0, nt, w, out);
      break;
  }
  return out;
}

/**
 * Two-octave hourly noise over the block: nodes and cycles of each octave, and the running
 * position. `step()` advances one hour; values are read by the callers' written-out blends.
 */
interface TwoOctaves {
  a: QuadNodes;
  b: QuadNodes;
  ya: OctaveCycle;
  yb: OctaveCycle;
  ampA: number;
  ampB: number;
}

function twoOctaves(field: NoiseField, block: Block, h0: number, nt: number): TwoOctaves {
  if (field.octaves.length !== 2) throw new Error('noise layout changed: update quad-hourly.ts');
  const [oa, ob] = field.octaves as [(typeof field.octaves)[0], (typeof field.octaves)[0]];
  const a = quadOctave(oa, block, h0, h0 + nt - 1), b = quadOctave(ob, block, h0, h0 + nt - 1);
  return { a, b, ya: octaveCycle(oa.periodHours, h0, 1, a.kMin), yb: octaveCycle(ob.periodHours, h0, 1, b.kMin), ampA: oa.amplitude, ampB: ob.amplitude };
}

/**
 * First hour index t (0 .. nt) of each local day of a column, by the block path's own test
 * floor((h0 + t + off) / 24) (fillHourlyTemperature), so a day's hours are exactly the general
 * path's. Returns [D of the first hour, start of day 1, start of day 2, ..., nt].
 */
function localDayStarts(h0: number, nt: number, off: number): { dFirst: number; starts: Int32Array } {
  const dayOf = (t: number): number => Math.floor((h0 + t + off) / 24);
  const dFirst = dayOf(0), dLast = dayOf(nt - 1);
  const starts = new Int32Array(dLast - dFirst + 2);
  for (let D = dFirst + 1; D <= dLast; D++) {
    let t = Math.ceil(24 * D - off - h0);
    while (t > 0 && dayOf(t - 1) >= D) t--;
    while (t < nt && dayOf(t) < D) t++;
    starts[D - dFirst] = t;
  }
  starts[dLast - dFirst + 1] = nt;
  return { dFirst, starts };
}

/**
 * Hourly air temperature or dewpoint: for each column, each local day, each segment of the day's
 * curve (temperature.ts `curve`: midnight -> minimum plateau -> maximum plateau -> midnight) a
 * loop over its hours, `blend`'s arithmetic operation for operation: the `temperatureColumn`
 * kernel (kernels/hourly-series.wat), the column's two cells as one vector. `mixColumns` then
 * sums the cells in the order of the general mix (w00 v00 + w01 v01 + w10 v10 + w11 v11), so
 * the result has its bits.
 */
function quadTemperature(block: Block, h0: number, nt: number, wt: QuadWeights, dew: boolean, out: Float32Array): void {
  const span = anchorDaysForHours(h0, nt);
  const A = quadTemperatureAnchors(block, span.d0, span.nDays, dew, true);
  const mem = hourlySeriesMemory;
  mem.reset();
  const tmax = mem.copy(A.tmax), tmin = mem.copy(A.tmin), mid = mem.copy(A.mid), sunrise = mem.copy(A.sunrise);
  const tdew = dew ? mem.copy(A.tdew) : 0;
  const prod = [mem.scratch(16 * nt), mem.scratch(16 * nt)] as const;
  const at = mem.scratch(4 * nt);
  for (const col of [0, 1] as const) {
    const off = block.offsetHours[col]!;
    const { dFirst, starts } = localDayStarts(h0, nt, off);
    const st = mem.copy(starts);
    temperatureColumn(st, starts.length - 1, dFirst, dFirst - A.d0, col, tmax, tmin, mid, tdew, sunrise, dew ? 1 : 0, h0, off, wt[col], wt[col + 2]!, PLATEAU_HALF_HOURS, TMAX_LOCAL_HOUR - PLATEAU_HALF_HOURS, TMAX_LOCAL_HOUR + PLATEAU_HALF_HOURS, prod[col]);
  }
  mixColumns(prod[0], prod[1], nt, at);
  out.set(mem.f32(at, nt));
}

/** Node values widened to double, per scratch slot (reused between calls; never returned). */
const wideScratch: Float64Array[] = [new Float64Array(0), new Float64Array(0)];

function widen(nodes: Float32Array, n: number, slot: number): Float64Array {
  let w = wideScratch[slot]!;
  if (w.length < n) wideScratch[slot] = w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = nodes[i]!;
  return w;
}

/** Per-column tables of the current day (quadShortwave): period-end hour angles and their sines by UTC hour. */
const PI = Math.PI, TWO_THIRDS = 2 / 3;
const SW_LO0 = new Float64Array(24), SW_HI0 = new Float64Array(24), SW_S10 = new Float64Array(24), SW_S20 = new Float64Array(24);
const SW_LO1 = new Float64Array(24), SW_HI1 = new Float64Array(24), SW_S11 = new Float64Array(24), SW_S21 = new Float64Array(24);
const SW_LIT0 = new Uint8Array(24), SW_LIT1 = new Uint8Array(24);

/**
 * Shortwave: day by day the block path's per-day terms (fillShortwave, radiation.ts), then hour
 * by hour the four cells with `periodRa` and `shortwaveOf`, the cloud noise accumulated in
 * float32 as BlockNoise.at does, mixed in the general mix's order. Hour outside, cells inside:
 * the four cells share the hour's place in each octave's cycle (hourly samples are the same UTC
 * hour in both columns), so it is found once per hour; period-end sines are computed for lit
 * hours only (`litHourSinesOfDay`). A cell whose own hour is dark is 0, as in the block path.
 */
function quadShortwave(block: Block, h0: number, nt: number, wt: QuadWeights, out: Float32Array): void {
  const { lats, lons, altitude } = block;
  const DEG = Math.PI / 180;
  const lat0 = lats[0]!, lat1 = lats[1]!, lon0 = lons[0]!, lon1 = lons[1]!;
  const sinLat0 = Math.sin(lat0 * DEG), sinLat1 = Math.sin(lat1 * DEG), cosLat0 = Math.cos(lat0 * DEG), cosLat1 = Math.cos(lat1 * DEG);
  const factor = clearSkyFactors(altitude);
  const f0 = factor[0]!, f1 = factor[1]!, f2 = factor[2]!, f3 = factor[3]!;
  const bz0 = cloudBias(lat0), bz1 = cloudBias(lat1);
  const w00 = wt[0], w01 = wt[1], w10 = wt[2], w11 = wt[3];
  const rot0 = longitudeRotation(lon0), rot1 = longitudeRotation(lon1);
  const lo0 = SW_LO0, hi0 = SW_HI0, s10 = SW_S10, s20 = SW_S20, lo1 = SW_LO1, hi1 = SW_HI1, s11 = SW_S11, s21 = SW_S21;
  const lit0 = SW_LIT0, lit1 = SW_LIT1;
  const N = twoOctaves(CLOUD_NOISE, block, h0, nt);
  // Node values as doubles (the same values: float32 widens exactly), read several times each.
  const nA = widen(N.a.nodes, 4 * N.a.nK, 0), nB = widen(N.b.nodes, 4 * N.b.nK, 1), ampA = N.ampA, ampB = N.ampB;
  // Each octave's cycle position at the current hour (quad-noise.ts).
  const mA = N.ya.m, sA = N.ya.stride, kA = N.ya.k0, xA = N.ya.w;
  const mB = N.yb.m, sB = N.yb.stride, kB = N.yb.k0, xB = N.yb.w;
  let rA = 0, qA = 0, rB = 0, qB = 0;
  const dFirst = Math.floor(h0 / 24), dLast = Math.floor((h0 + nt - 1) / 24);
  const row0 = sunsetRow(lat0), row1 = sunsetRow(lat1);
  const doy = dayOfYearTable(dFirst, dLast - dFirst + 1);
  const jT = doy.table, jOff = doy.offset - dFirst;
  for (let d = dFirst; d <= dLast; d++) {
    const j = jT[d + jOff]!;
    const sinD = SOLAR_DAY.sinDecl[j]!, cosD = SOLAR_DAY.cosDecl[j]!, sc = SOLAR_DAY.sc[j]!, k = SOLAR_DAY.k[j]!;
    sunsetAt(row0, lat0, j);
    sunsetAt(row1, lat1, j);
    const ws0 = row0[2 * j]!, sw0 = row0[2 * j + 1]!, ws1 = row1[2 * j]!, sw1 = row1[2 * j + 1]!;
    const a0 = sinLat0 * sinD, b0 = cosLat0 * cosD, a1 = sinLat1 * sinD, b1 = cosLat1 * cosD;
    const wsMax = ws0 > ws1 ? ws0 : ws1;
    hourAnglesOfDay(lon0, sc, lo0, hi0);
    hourAnglesOfDay(lon1, sc, lo1, hi1);
    litHourSinesOfDay(rot0, j, lo0, hi0, wsMax, s10, s20, lit0);
    litHourSinesOfDay(rot1, j, lo1, hi1, wsMax, s11, s21, lit1);
    const tFrom = Math.max(0, 24 * d - h0), tTo = Math.min(nt, 24 * d + 24 - h0);
    for (let t = tFrom, hour = h0 + tFrom - 24 * d; t < tTo; t++, hour++) {
      const iA = qA + kA[rA]!, wa = xA[rA]!, iB = qB + kB[rB]!, wb = xB[rB]!;
      if (++rA === mA) {
        rA = 0;
        qA += sA;
      }
      if (++rB === mB) {
        rB = 0;
        qB += sB;
      }
      if (lit0[hour] === 0 && lit1[hour] === 0) continue;
      const l0 = lo0[hour]!, u0 = hi0[hour]!, l1 = lo1[hour]!, u1 = hi1[hour]!;
      // Cells 0, 1 (row 0; columns 0, 1), then 2, 3 (row 1): Rso from periodRa (its whole-hour
      // form written out, the clipped sunrise/sunset hours through the function), then Rs with
      // the cell's noise as shortwaveOf computes it (cloudFraction, cloudTransmission), the same
      // operations in the same order, so the same bits; written out because V8 stops inlining
      // helpers in a function this long.
      let v0 = 0, v1 = 0, v2 = 0, v3 = 0;
      let rso = 0;
      if (ws0 >= PI || (l0 >= -ws0 && u0 <= ws0)) {
        const ra = k * ((u0 - l0) * a0 + b0 * (s20[hour]! - s10[hour]!));
        rso = ra > 0 ? f0 * ra : 0;
      } else rso = f0 * periodRa(l0, u0, s10[hour]!, s20[hour]!, k, a0, b0, ws0, sw0);
      if (rso !== 0) {
        const va = nA[iA + 0]!, vb = nB[iB + 0]!;
        const x = Math.fround(Math.fround(ampA * (va + (nA[iA + 4]! - va) * wa)) + ampB * (vb + (nB[iB + 4]! - vb) * wb)) + bz0;
        v0 = rso * (1 - TWO_THIRDS * (x <= -1 ? 0 : x >= 1 ? 1 : 0.5 + x * (0.75 - 0.25 * x * x)));
      }
      if (ws0 >= PI || (l1 >= -ws0 && u1 <= ws0)) {
        const ra = k * ((u1 - l1) * a0 + b0 * (s21[hour]! - s11[hour]!));
        rso = ra > 0 ? f1 * ra : 0;
      } else rso = f1 * periodRa(l1, u1, s11[hour]!, s21[hour]!, k, a0, b0, ws0, sw0);
      if (rso !== 0) {
        const va = nA[iA + 1]!, vb = nB[iB + 1]!;
        const x = Math.fround(Math.fround(ampA * (va + (nA[iA + 5]! - va) * wa)) + ampB * (vb + (nB[iB + 5]! - vb) * wb)) + bz0;
        v1 = rso * (1 - TWO_THIRDS * (x <= -1 ? 0 : x >= 1 ? 1 : 0.5 + x * (0.75 - 0.25 * x * x)));
      }
      if (ws1 >= PI || (l0 >= -ws1 && u0 <= ws1)) {
        const ra = k * ((u0 - l0) * a1 + b1 * (s20[hour]! - s10[hour]!));
        rso = ra > 0 ? f2 * ra : 0;
      } else rso = f2 * periodRa(l0, u0, s10[hour]!, s20[hour]!, k, a1, b1, ws1, sw1);
      if (rso !== 0) {
        const va = nA[iA + 2]!, vb = nB[iB + 2]!;
        const x = Math.fround(Math.fround(ampA * (va + (nA[iA + 6]! - va) * wa)) + ampB * (vb + (nB[iB + 6]! - vb) * wb)) + bz1;
        v2 = rso * (1 - TWO_THIRDS * (x <= -1 ? 0 : x >= 1 ? 1 : 0.5 + x * (0.75 - 0.25 * x * x)));
      }
      if (ws1 >= PI || (l1 >= -ws1 && u1 <= ws1)) {
        const ra = k * ((u1 - l1) * a1 + b1 * (s21[hour]! - s11[hour]!));
        rso = ra > 0 ? f3 * ra : 0;
      } else rso = f3 * periodRa(l1, u1, s11[hour]!, s21[hour]!, k, a1, b1, ws1, sw1);
      if (rso !== 0) {
        const va = nA[iA + 3]!, vb = nB[iB + 3]!;
        const x = Math.fround(Math.fround(ampA * (va + (nA[iA + 7]! - va) * wa)) + ampB * (vb + (nB[iB + 7]! - vb) * wb)) + bz1;
        v3 = rso * (1 - TWO_THIRDS * (x <= -1 ? 0 : x >= 1 ? 1 : 0.5 + x * (0.75 - 0.25 * x * x)));
      }
      out[t] = w00 * Math.fround(v0) + w01 * Math.fround(v1) + w10 * Math.fround(v2) + w11 * Math.fround(v3);
    }
  }
}

/**
 * Unit-amplitude node values of one octave mixed over cells with per-cell factors g (zero for
 * cells left out), into dst[k stride + lane] = sum over cells of g[cell] node[k][cell]. A field
 * that is linear in the noise then needs one blend per octave and hour instead of one per cell.
 */
function mixNodes(q: QuadNodes, g: readonly number[], dst: Float64Array, lane: number, stride: number): void {
  const n = q.nodes, g0 = g[0]!, g1 = g[1]!, g2 = g[2]!, g3 = g[3]!;
  for (let k = 0, o = 0, d = lane; k < q.nK; k++, o += 4, d += stride) dst[d] = g0 * n[o]! + g1 * n[o + 1]! + g2 * n[o + 2]! + g3 * n[o + 3]!;
}

/** Offsets of an octave's cycle (k0, w) in kernel memory, for the hour-loop kernels. */
function cycleArgs(mem: KernelMemory, c: OctaveCycle): [number, number, number, number] {
  return [mem.copy(c.k0), mem.copy(c.w), c.m, c.stride];
}

/**
 * Wind speed. With model v3 the speed never reaches the 0.5 m s-1 floor (wind.ts
 * `WIND_FLOOR_MARGIN`), so a cell's speed is base x diurnal(column) x (1 + gain x noise), linear
 * in the noise, and so is the bilinear mix: per column, the diurnal factor times (sum of w B +
 * gain x the noise of node values pre-mixed with w B). The hour loop is the `windLoop` kernel
 * (kernels/hourly-series.wat), the two columns as one vector. Equal to the general path's mix
 * of per-cell float32 values to float32 rounding (test/synthetic-quad-hourly.test.ts).
 */
function quadWind(block: Block, h0: number, nt: number, wt: QuadWeights, out: Float32Array): void {
  const base = windBase(block.lats, 2, block.altitude);
  const wb = [wt[0] * base[0]!, wt[1] * base[1]!, wt[2] * base[2]!, wt[3] * base[3]!];
  const dc0 = diurnalWindFactors(block.lons[0]!), dc1 = diurnalWindFactors(block.lons[1]!);
  const N = twoOctaves(WIND_NOISE, block, h0, nt);
  const mem = hourlySeriesMemory;
  mem.reset();
  const a = mem.scratch(16 * N.a.nK), b = mem.scratch(16 * N.b.nK), dc = mem.scratch(16 * 24), at = mem.scratch(4 * nt);
  const cA = cycleArgs(mem, N.ya), cB = cycleArgs(mem, N.yb);
  // Column 0 holds cells 0 and 2, column 1 cells 1 and 3: lanes 0 and 1 of each node pair.
  const an = mem.f64(a, 2 * N.a.nK), bn = mem.f64(b, 2 * N.b.nK), dcs = mem.f64(dc, 48);
  mixNodes(N.a, [wb[0]!, 0, wb[2]!, 0], an, 0, 2);
  mixNodes(N.a, [0, wb[1]!, 0, wb[3]!], an, 1, 2);
  mixNodes(N.b, [wb[0]!, 0, wb[2]!, 0], bn, 0, 2);
  mixNodes(N.b, [0, wb[1]!, 0, wb[3]!], bn, 1, 2);
  for (let h = 0; h < 24; h++) {
    dcs[2 * h] = dc0[h]!;
    dcs[2 * h + 1] = dc1[h]!;
  }
  const hour = h0 - 24 * Math.floor(h0 / 24);
  windLoop(a, b, ...cA, ...cB, wb[0]! + wb[2]!, wb[1]! + wb[3]!, N.ampA * WIND_NOISE_GAIN, N.ampB * WIND_NOISE_GAIN, dc, hour, nt, at);
  out.set(mem.f32(at, nt));
}

/**
 * Surface pressure: the standard-atmosphere base plus the noise (fillHourlyPressure), linear in
 * the noise, so the mix is the mixed base plus the noise of pre-mixed node values; the hour loop
 * is the `pressureLoop` kernel. Equal to the general path's mix of per-cell float32 values to
 * float32 rounding.
 */
function quadPressure(block: Block, h0: number, nt: number, wt: QuadWeights, out: Float32Array): void {
  const alt = block.altitude;
  const P = wt[0] * pressureAtElevation(alt[0]!) + wt[1] * pressureAtElevation(alt[1]!) + wt[2] * pressureAtElevation(alt[2]!) + wt[3] * pressureAtElevation(alt[3]!);
  const N = twoOctaves(PRESSURE_NOISE, block, h0, nt);
  const mem = hourlySeriesMemory;
  mem.reset();
  const a = mem.scratch(8 * N.a.nK), b = mem.scratch(8 * N.b.nK), at = mem.scratch(4 * nt);
  const cA = cycleArgs(mem, N.ya), cB = cycleArgs(mem, N.yb);
  mixNodes(N.a, wt, mem.f64(a, N.a.nK), 0, 1);
  mixNodes(N.b, wt, mem.f64(b, N.b.nK), 0, 1);
  pressureLoop(a, b, ...cA, ...cB, P, N.ampA, N.ampB, nt, at);
  out.set(mem.f32(at, nt));
}
