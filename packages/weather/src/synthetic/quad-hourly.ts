/**
 * Hourly point series of the ET inputs (air temperature, dewpoint, shortwave, wind speed, surface
 * pressure) at a point: the four grid points around it (a 2 x 2 block) computed in one pass per
 * variable and mixed bilinearly as they go, with no [t][cell] field in between. The general block
 * code (fields.ts) computes a field of every cell for every hour through BlockNoise, whose
 * per-hour cache look-ups, floors and cubics, and per-call set-up cost more than the arithmetic
 * for four cells (bench/README.md "Zarr reads"). Here:
 *
 * - noise nodes are hashed once per time node for the four cells (the `cornerNodes` kernel, or
 *   quad-noise.ts `quadNodes` when the cells straddle a lattice line); the kernels run segment by
 *   segment between nodes, the time weights from the octave's table by hour of the node
 *   interval (`octaveWeights`);
 * - the hour loops are WebAssembly kernels (kernels/hourly-series.wat), two cells (for wind and
 *   pressure, two hours) to a vector, doing the block path's own arithmetic (`curve`,
 *   `shortwaveOf` and `periodRa`, `windOf`) in the same order, with the noise accumulated in
 *   float32 as BlockNoise does, so each cell's value is the general path's bit for bit and so
 *   is the bilinear mix (test/synthetic-quad-hourly.test.ts checks equality with computeField);
 * - this module prepares their inputs (nodes, weight tables, per-day terms) in the kernels'
 *   memory and copies the float32 result out;
 * - air temperature and dewpoint come from one pass on the fused 2 x 2 anchors (quad-extremes.ts).
 */
import type { VariableId } from '../grid-source.js';
import type { Block } from './block.js';
import { CLOUD_NOISE, cloudBias } from './clouds.js';
import { pressureAtElevation, PRESSURE_NOISE } from './pressure.js';
import { quadHourlyAnchors } from './quad-extremes.js';
import { octaveWeights, quadNodes, sharedCorners } from './quad-noise.js';
import { clearSkyFactors } from './radiation.js';
import { dayOfYearTable } from './calendar.js';
import { COS_HALF_HOUR, HALF_HOUR, HOUR_TERMS, longitudeRotation, SC_COS, SC_SIN, SIN_HALF_HOUR, SOLAR_DAY, sunsetDays, sunsetRow } from './solar.js';
import { TMAX_LOCAL_HOUR } from './climate.js';
import { anchorDaysForHours, PLATEAU_HALF_HOURS } from './temperature.js';
import { diurnalWindFactors, windBase, WIND_NOISE, WIND_NOISE_GAIN } from './wind.js';
import type { NoiseField, NoiseOctave } from './noise.js';
import { cornerNodes, mixColumns, mixNodes, pressureSegments, shortwaveClouds, shortwaveDays, shortwaveRso, temperatureColumn, windSegments } from './kernels/hourly-series.js';
import { kernelMemory, type KernelMemory } from './kernels/kernel-memory.js';

export type QuadHourlyVariable = 'air_temperature' | 'dew_point_temperature' | 'surface_downwelling_shortwave_flux_in_air' | 'wind_speed' | 'surface_air_pressure';

export function isQuadHourly(variable: VariableId): variable is QuadHourlyVariable {
  return variable === 'air_temperature' || variable === 'dew_point_temperature' || variable === 'surface_downwelling_shortwave_flux_in_air' || variable === 'wind_speed' || variable === 'surface_air_pressure';
}

/** Bilinear weights of the four cells (row-major: w00, w01, w10, w11). */
export type QuadWeights = readonly [number, number, number, number];

function checkQuad(block: Block): void {
  if (block.nRows !== 2 || block.nCols !== 2) throw new Error('the fused hourly series need a 2 x 2 block');
}

/**
 * The value at the point for hours h0 .. h0+nt-1 of `variable`, the bilinear mix (weights w)
 * of the four cells of the 2 x 2 block: what computeField over the block followed by the mix
 * gives. Air temperature and dewpoint come from one pass (`quadTemperaturePair`).
 */
export function quadHourlySeries(variable: QuadHourlyVariable, block: Block, h0: number, nt: number, w: QuadWeights): Float32Array {
  if (variable === 'air_temperature' || variable === 'dew_point_temperature') {
    const pair = quadTemperaturePair(block, h0, nt, w);
    return variable === 'air_temperature' ? pair.air : pair.dew;
  }
  checkQuad(block);
  if (nt === 0) return new Float32Array(0);
  // Each kernel writes its float32 series into its memory; the result is a copy of it.
  const mem = kernelMemory;
  mem.reset();
  switch (variable) {
    case 'surface_downwelling_shortwave_flux_in_air':
      return mem.f32(quadShortwave(block, h0, nt, w), nt).slice();
    case 'wind_speed':
      return mem.f32(quadWind(block, h0, nt, w), nt).slice();
    case 'surface_air_pressure':
      return mem.f32(quadPressure(block, h0, nt, w), nt).slice();
  }
}

/** Node values of one octave in kernel memory: doubles [k - kMin][cell] (32 bytes a node) at `at`. */
interface KernelNodes {
  at: number;
  kMin: number;
  nK: number;
}

/**
 * The nodes of an octave covering hours tFirst .. tLast (quad-noise.ts `quadOctave`'s span) at
 * the block's four cells: the `cornerNodes` kernel when the cells share their lattice corners,
 * else quadNodes' general form; quadNodes' float32 values either way.
 */
function kernelNodes(mem: KernelMemory, octave: NoiseOctave, block: Block, tFirst: number, tLast: number): KernelNodes {
  const p = octave.periodHours;
  const kMin = Math.floor(tFirst / p), nK = Math.floor(tLast / p) + 2 - kMin;
  const at = mem.scratch(32 * nK);
  const c = sharedCorners(octave.seed, octave.spacingDeg, block);
  if (c) cornerNodes(c.p0, c.p1, c.p2, c.p3, kMin, nK, c.wx0, c.wx1, c.wy0, c.wy1, at);
  else mem.f64(at, 4 * nK).set(quadNodes(octave, block, kMin, nK));
  return { at, kMin, nK };
}

/**
 * First hour index t (0 .. nt) of each local day of a column, by the block path's own test
 * floor((h0 + t + off) / 24) (fillHourlyTemperature), so a day's hours are exactly the general
 * path's. Returns [D of the first hour, start of day 1, start of day 2, ..., nt].
 */
function localDayStarts(h0: number, nt: number, off: number): { dFirst: number; starts: Int32Array } {
  // dayOf(t) = Math.floor((h0 + t + off) / 24), written out: V8 left the closure uninlined.
  const dFirst = Math.floor((h0 + 0 + off) / 24), dLast = Math.floor((h0 + (nt - 1) + off) / 24);
  const starts = new Int32Array(dLast - dFirst + 2);
  for (let D = dFirst + 1; D <= dLast; D++) {
    let t = Math.ceil(24 * D - off - h0);
    while (t > 0 && Math.floor((h0 + (t - 1) + off) / 24) >= D) t--;
    while (t < nt && Math.floor((h0 + t + off) / 24) < D) t++;
    starts[D - dFirst] = t;
  }
  starts[dLast - dFirst + 1] = nt;
  return { dFirst, starts };
}

/**
 * Hourly air temperature and dewpoint together (they share every anchor and the curve; the
 * dewpoint is the curve capped by the dew line): for each column, each local day, each segment of
 * the day's curve (temperature.ts `curve`: midnight -> minimum plateau -> maximum plateau ->
 * midnight) a loop over its hours, `blend`'s arithmetic operation for operation: the
 * `temperatureColumn` kernel (kernels/hourly-series.wat), the column's two cells as one vector.
 * `mixColumns` then sums the cells in the order of the general mix (w00 v00 + w01 v01 + w10 v10 +
 * w11 v11), so each result has its bits.
 */
export function quadTemperaturePair(block: Block, h0: number, nt: number, wt: QuadWeights): { air: Float32Array; dew: Float32Array } {
  checkQuad(block);
  if (nt === 0) return { air: new Float32Array(0), dew: new Float32Array(0) };
  const span = anchorDaysForHours(h0, nt);
  // The anchors stay in kernel memory, where the column kernels read them.
  const A = quadHourlyAnchors(block, span.d0, span.nDays, true);
  const mem = kernelMemory;
  const air = [mem.scratch(16 * nt), mem.scratch(16 * nt)] as const, dew = [mem.scratch(16 * nt), mem.scratch(16 * nt)] as const;
  const airAt = mem.scratch(4 * nt), dewAt = mem.scratch(4 * nt);
  for (const col of [0, 1] as const) {
    const off = block.offsetHours[col]!;
    const { dFirst, starts } = localDayStarts(h0, nt, off);
    const st = mem.copy(starts);
    temperatureColumn(st, starts.length - 1, dFirst, dFirst - A.d0, col, A.tmax, A.tmin, A.mid, A.tdew, A.sunrise, h0, off, wt[col], wt[col + 2]!, PLATEAU_HALF_HOURS, TMAX_LOCAL_HOUR - PLATEAU_HALF_HOURS, TMAX_LOCAL_HOUR + PLATEAU_HALF_HOURS, air[col], dew[col]);
  }
  mixColumns(air[0], air[1], nt, airAt);
  mixColumns(dew[0], dew[1], nt, dewAt);
  return { air: mem.f32(airAt, nt).slice(), dew: mem.f32(dewAt, nt).slice() };
}

/** Bytes of a day's record for `shortwaveRso` (hourly-series.wat lists its 24 doubles). */
const SW_DAY_BYTES = 192;

/**
 * Shortwave in three kernels (kernels/hourly-series.wat), the two columns of a row as one vector.
 * `shortwaveDays` writes the block path's per-day terms (fillShortwave, radiation.ts) into a
 * record per day, from the process tables, with the day's spans of hours that may be lit.
 * `shortwaveRso` goes hour by hour through those spans: the period-end hour angles and sines
 * (solar.ts `hourAnglesOfDay`, `hourSinesOfDay`) and Rso from `periodRa` with its limits taken as
 * selects, kept with the runs of hours it computed. `shortwaveClouds` goes over those runs
 * segment by segment between the cloud octaves' nodes (as wind and pressure): Rs with the cell's
 * cloud noise accumulated in float32 as BlockNoise.at does, mixed in the general mix's order. The
 * same operations in the same order, so the same bits; an hour dark in all four cells is 0, as
 * in the block path. Split in two, each hour loop holds few enough values and instructions for
 * the CPU to overlap several hours (bench/README.md). Returns the offset of the float32 series in
 * the kernels' memory.
 */
function quadShortwave(block: Block, h0: number, nt: number, wt: QuadWeights): number {
  const { lats, lons, altitude } = block;
  const DEG = Math.PI / 180;
  const lat0 = lats[0]!, lat1 = lats[1]!, lon0 = lons[0]!, lon1 = lons[1]!;
  const sinLat0 = Math.sin(lat0 * DEG), sinLat1 = Math.sin(lat1 * DEG), cosLat0 = Math.cos(lat0 * DEG), cosLat1 = Math.cos(lat1 * DEG);
  const factor = clearSkyFactors(altitude);
  const rot0 = longitudeRotation(lon0), rot1 = longitudeRotation(lon1);
  const dFirst = Math.floor(h0 / 24), nDays = Math.floor((h0 + nt - 1) / 24) - dFirst + 1;
  const row0 = sunsetRow(lat0), row1 = sunsetRow(lat1);
  const doy = dayOfYearTable(dFirst, nDays);
  const mem = kernelMemory;
  const hourTab = mem.table(HOUR_TERMS);
  const N = segmentOctaves(mem, CLOUD_NOISE, block, h0, nt);
  // Runs of lit hours: at most two pieces of each UTC day's daylight.
  const days = mem.scratch(SW_DAY_BYTES * nDays), spans = mem.scratch(16 * nDays), rso = mem.scratch(32 * nt), runs = mem.scratch(8 * (2 * nDays + 1)), at = mem.scratch(4 * nt);
  sunsetDays(row0, lat0, doy.table, doy.offset, nDays);
  sunsetDays(row1, lat1, doy.table, doy.offset, nDays);
  shortwaveDays(doy.shared ? mem.table(doy.table) + 2 * doy.offset : mem.copy(doy.table), nDays,
    mem.table(SOLAR_DAY.sinDecl), mem.table(SOLAR_DAY.cosDecl), mem.table(SOLAR_DAY.k), mem.table(SOLAR_DAY.sc), mem.table(SC_COS), mem.table(SC_SIN), mem.copy(row0), mem.copy(row1),
    sinLat0, cosLat0, sinLat1, cosLat1, lon0 / 15, lon1 / 15, rot0.cos, rot0.sin, rot1.cos, rot1.sin, days, spans);
  const nRuns = shortwaveRso(days, nDays, 24 * dFirst - h0, nt, hourTab, factor[0]!, factor[1]!, factor[2]!, factor[3]!, Math.PI / 12, HALF_HOUR, COS_HALF_HOUR, SIN_HALF_HOUR, spans, rso, runs);
  shortwaveClouds(runs, nRuns, N.a.at, N.b.at, N.tA, N.tB, N.pA, N.pB, N.uA, N.uB, N.ampA, N.ampB, cloudBias(lat0), cloudBias(lat1), ...wt, TWO_THIRDS, rso, nt, at);
  return at;
}

const TWO_THIRDS = 2 / 3;

/**
 * A two-octave field's nodes at the block for hours h0 .. h0+nt-1, as the segment kernels
 * (windSegments, pressureSegments) read them: per octave the nodes (in kernel memory, the node of
 * hour h0 first), the weight table (quad-noise.ts `octaveWeights`), the period and the place of
 * hour h0 in its node interval.
 */
interface SegmentOctaves {
  a: KernelNodes;
  b: KernelNodes;
  tA: number;
  tB: number;
  pA: number;
  pB: number;
  uA: number;
  uB: number;
  ampA: number;
  ampB: number;
}

function segmentOctaves(mem: KernelMemory, field: NoiseField, block: Block, h0: number, nt: number): SegmentOctaves {
  if (field.octaves.length !== 2) throw new Error('noise layout changed: update quad-hourly.ts');
  const [oa, ob] = field.octaves as [NoiseOctave, NoiseOctave];
  const pA = oa.periodHours, pB = ob.periodHours;
  const a = kernelNodes(mem, oa, block, h0, h0 + nt - 1), b = kernelNodes(mem, ob, block, h0, h0 + nt - 1);
  return {
    a, b, pA, pB,
    tA: mem.table(octaveWeights(pA)),
    tB: mem.table(octaveWeights(pB)),
    uA: h0 - pA * a.kMin,
    uB: h0 - pB * b.kMin,
    ampA: oa.amplitude,
    ampB: ob.amplitude,
  };
}

/**
 * Wind speed. With model v3 the speed never reaches the 0.5 m s-1 floor (wind.ts
 * `WIND_FLOOR_MARGIN`), so a cell's speed is base x diurnal(column) x (1 + gain x noise), linear
 * in the noise, and so is the bilinear mix: per column, the diurnal factor times (sum of w B +
 * gain x the noise of node values pre-mixed with w B). The hour loop is the `windSegments` kernel
 * (kernels/hourly-series.wat). Equal to the general path's mix of per-cell float32 values to
 * float32 rounding (test/synthetic-quad-hourly.test.ts). Returns the offset of the float32 series
 * in the kernels' memory.
 */
function quadWind(block: Block, h0: number, nt: number, wt: QuadWeights): number {
  const base = windBase(block.lats, 2, block.altitude);
  const wb = [wt[0] * base[0]!, wt[1] * base[1]!, wt[2] * base[2]!, wt[3] * base[3]!];
  const mem = kernelMemory;
  const N = segmentOctaves(mem, WIND_NOISE, block, h0, nt);
  const a = mem.scratch(16 * N.a.nK), b = mem.scratch(16 * N.b.nK), dc = mem.scratch(8 * 50), at = mem.scratch(4 * nt + 4);
  // Column 0 holds cells 0 and 2, column 1 cells 1 and 3: lanes 0 and 1 of each node pair.
  mixNodes(N.a.at, N.a.nK, 1, ...wb, a);
  mixNodes(N.b.at, N.b.nK, 1, ...wb, b);
  const dcs = mem.f64(dc, 50);
  dcs.set(diurnalWindFactors(block.lons[0]!), 0);
  dcs.set(diurnalWindFactors(block.lons[1]!), 25);
  const hour = h0 - 24 * Math.floor(h0 / 24);
  windSegments(a, b, N.tA, N.tB, N.pA, N.pB, N.uA, N.uB, wb[0]! + wb[2]!, wb[1]! + wb[3]!, N.ampA * WIND_NOISE_GAIN, N.ampB * WIND_NOISE_GAIN, dc, hour, nt, at);
  return at;
}

/**
 * Surface pressure: the standard-atmosphere base plus the noise (fillHourlyPressure), linear in
 * the noise, so the mix is the mixed base plus the noise of pre-mixed node values; the hour loop
 * is the `pressureSegments` kernel. Equal to the general path's mix of per-cell float32 values to
 * float32 rounding. Returns the offset of the float32 series in the kernels' memory.
 */
function quadPressure(block: Block, h0: number, nt: number, wt: QuadWeights): number {
  const alt = block.altitude;
  const P = wt[0] * pressureAtElevation(alt[0]!) + wt[1] * pressureAtElevation(alt[1]!) + wt[2] * pressureAtElevation(alt[2]!) + wt[3] * pressureAtElevation(alt[3]!);
  const mem = kernelMemory;
  const N = segmentOctaves(mem, PRESSURE_NOISE, block, h0, nt);
  const a = mem.scratch(8 * N.a.nK), b = mem.scratch(8 * N.b.nK), at = mem.scratch(4 * nt + 4);
  mixNodes(N.a.at, N.a.nK, 0, ...wt, a);
  mixNodes(N.b.at, N.b.nK, 0, ...wt, b);
  pressureSegments(a, b, N.tA, N.tB, N.pA, N.pB, N.uA, N.uB, P, N.ampA, N.ampB, nt, at);
  return at;
}
