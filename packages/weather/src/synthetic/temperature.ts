/**
 * Air and dewpoint temperature of the synthetic world, hourly and as daily extremes, from one
 * set of per-day anchors so the two always agree.
 *
 * Each local solar day D of a cell has a minimum Tmin(D), held for the hour centred on sunrise,
 * a maximum Tmax(D), held for the hour centred on 15:00 local mean solar time, and a value M(D)
 * at the local midnight that starts it. Between them the curve is a smoothstep blend (the cubic
 * form of the half-cosine diurnal interpolation of Goudriaan and van Laar 1994, "Modelling
 * Potential Crop Growth Processes", sect. 2.3; De Wit et al. 1978):
 *   00:00 M(D) -> sunrise - 0.5 h Tmin(D) | Tmin(D) held to sunrise + 0.5 h -> 14:30 Tmax(D) |
 *   Tmax(D) held to 15:30 -> 24:00 M(D + 1).
 * Every midnight value lies within both adjacent days' [Tmin, Tmax] (below), so every sample of
 * day D lies in [Tmin(D), Tmax(D)]; and the 24 hourly samples of a local day are one hour apart,
 * so one always falls in each closed hour-wide plateau. Hence the maximum and minimum of the
 * day's hourly values are exactly Tmax(D) and Tmin(D): daily extremes need no sampling at all.
 *
 * Anchors: a raw pair mean +- half the diurnal range per day, where mean = the place's sea-level
 * annual mean - lapse rate x altitude + its annual cycle (geoclimate.ts) + anomaly noise. A strong front can carry a day's raw
 * minimum above the neighbouring day's raw maximum; the day then keeps warming (or cooling)
 * through its own extremes: Tmax(D) = max(rawMax(D), rawMin(D-1), rawMin(D+1)) and Tmin(D) =
 * min(rawMin(D), rawMax(D-1), rawMax(D+1)). That makes Tmin(D) <= Tmax(D +- 1), so the interval
 * [max(Tmin(D-1), Tmin(D)), min(Tmax(D-1), Tmax(D))] for M(D) is never empty; M(D) is the natural
 * night value, 30 % of the way from Tmin(D) back to Tmax(D - 1), clamped into it.
 *
 * Local solar day: local mean solar time is UTC + lon/15 h (the equation of time, under 17 min,
 * is ignored for the temperature curve). The daily value stamped 00:00Z of date D is for the
 * local solar day D at the cell's longitude, i.e. the 24 UTC hours t with
 * floor((t + lon/15) / 24) = D. At lon 0 that is the UTC day; at 90E it starts at 18:00Z the day
 * before; at 90W it starts at 06:00Z.
 *
 * Anchors are evaluated at the UTC time of local noon, so a local day at 180E and the same
 * physical day at 180W see the same weather (no seam at the antimeridian).
 */
import type { Block } from './block.js';
import { cellIndexes } from './cells.js';
import { dayOfYearOf } from './calendar.js';
import { cloudBiasOf } from './cloud-climate.js';
import {
  anomalyScale,
  daylightDamping,
  diurnalRange,
  LAPSE_RATE_K_PER_M,
  maritimeDamping,
  TEMPERATURE_ANOMALY,
  TMAX_LOCAL_HOUR,
  yearAngle,
} from './climate.js';
import { DAILY_CLOUD_NOISE, cloudBias, cloudFraction, DRYNESS_NOISE, aridDepression, dawnDewpointDepression } from './clouds.js';
import { BlockNoise, type ColumnSteps } from './noise.js';
import { solarDeclination } from './solar.js';

/** Half-width of the plateaus held at the daily minimum and maximum, hours. */
const PLATEAU_HALF_HOURS = 0.5;
/** Share of the fall from the previous maximum to the next minimum that is left at midnight. */
const MIDNIGHT_SHARE = 0.3;

/**
 * Which local days a set of anchors covers: nDays from each column's first day. A column's local
 * day runs on its own longitude's clock (module comment), so the columns of one block need not
 * share days: an hour is day D at 90W and day D + 1 at 150E, and each column computes only the
 * days its own hours fall in.
 */
export interface AnchorDays {
  /** per column, its first local day (days since 1970-01-01) */
  d0: Int32Array;
  nDays: number;
  /** the hours (since 1970) whose hourly values the anchors are for, when they are (anchorDaysForHours) */
  hours?: { h0: number; nt: number };
}

export interface TemperatureAnchors extends AnchorDays {
  nRows: number;
  nCells: number;
  /** [day][cell] daily maximum, degC, day i of a cell being its column's d0 + i */
  tmax: Float32Array;
  /** [day][cell] daily minimum, degC */
  tmin: Float32Array;
  /** [day][cell] temperature at the local midnight starting the day, days d0 .. d0+nDays (empty without the hourly curve) */
  mid: Float32Array;
  /** [day][cell] dewpoint ceiling at local midnight starting the day, days d0 .. d0+nDays (empty without dew) */
  tdew: Float32Array;
  /** the first local day of `sunrise`: the earliest column's d0 */
  sunriseD0: number;
  /** [day - sunriseD0][row] local mean solar hour of the minimum (`minimumHour`; empty without the hourly curve) */
  sunrise: Float64Array;
}

const DEG = Math.PI / 180;

/** tan of the solar declination (ASCE-EWRI 2005 eq. 24) by day of year J = 1..366. */
const TAN_DECLINATION = Float64Array.from({ length: 367 }, (_, j) => Math.tan(solarDeclination(j)));

/** Daylight hours N = 24 ws / pi (FAO-56 eqs. 25, 34) from tan(latitude) and tan(declination); 24 in polar day, 0 in polar night. */
function daylightHours(tanLat: number, tanDecl: number): number {
  const x = -tanLat * tanDecl;
  return (24 / Math.PI) * Math.acos(x < -1 ? -1 : x > 1 ? 1 : x);
}

/**
 * Raw days computed around the requested ones. Daily extremes need one on each side (Tmax(D)
 * reads the raw minima of D - 1 and D + 1); midnight values and dew anchors two: M(d0) needs
 * Tmax(d0 - 1), which needs day d0 - 2, and M(d0 + nDays) or the dew anchor there needs the final
 * day d0 + nDays, which needs d0 + nDays + 1.
 */
function rawMargin(extra: boolean): number {
  return extra ? 2 : 1;
}

/**
 * Local mean solar hour of the temperature minimum: sunrise, 12 - N/2 for N daylight hours, but
 * not before 01:00 so the hour-wide minimum plateau stays inside the local day (polar day).
 */
function minimumHour(dayLengthHours: number): number {
  const sr = 12 - dayLengthHours / 2;
  return sr > 1 ? sr : 1;
}

/**
 * Typed arrays of the anchors' intermediate terms, kept between calls of one thread: a tile is 16
 * blocks of 16,384 cells, and allocating a few MB of scratch per block left about a third of a
 * cold tile to the garbage collector. Only arrays up to SCRATCH_MAX_BYTES are kept, so a huge
 * window does not pin its scratch; nothing returned to a caller is scratch.
 */
const SCRATCH_MAX_BYTES = 8 << 20;
const scratch64 = new Map<string, Float64Array>();
const scratch32 = new Map<string, Float32Array>();

/** A Float64Array of `length` elements with unspecified contents, reused by the next call with the same name. */
function scratchF64(name: string, length: number): Float64Array {
  if (8 * length > SCRATCH_MAX_BYTES) return new Float64Array(length);
  let a = scratch64.get(name);
  if (!a || a.length < length) scratch64.set(name, (a = new Float64Array(Math.max(length, a ? a.length * 2 : 0))));
  return a.subarray(0, length);
}

/** scratchF64 for float32 values. */
function scratchF32(name: string, length: number): Float32Array {
  if (4 * length > SCRATCH_MAX_BYTES) return new Float32Array(length);
  let a = scratch32.get(name);
  if (!a || a.length < length) scratch32.set(name, (a = new Float32Array(Math.max(length, a ? a.length * 2 : 0))));
  return a.subarray(0, length);
}

/**
 * The final anchors from raw daily pairs: rawMax/rawMin are [e][cell] for the days of each cell
 * from d0 - margin to d0 + nDays + margin - 1 (e = D - d0 + margin). Writes tmax/tmin for d0 ..
 * d0+nDays-1, mid for d0 .. d0+nDays, and fills `lowExt` with Tmin for d0 .. d0+nDays (for
 * dewpoint); mid and lowExt need margin 2.
 */
function finishAnchors(
  rawMax: Float32Array,
  rawMin: Float32Array,
  nCells: number,
  nDays: number,
  margin: number,
  tmax: Float32Array,
  tmin: Float32Array,
  mid: Float32Array | null,
  lowExt: Float32Array | null,
): void {
  // Final Tmax/Tmin, float32 as stored, for days d0-1 .. d0+nDays (f = 0 .. nDays+1) when the
  // midnight values or dew anchors need them, else for d0 .. d0+nDays-1 (f = 0 .. nDays-1).
  const extra = mid !== null || lowExt !== null;
  const nF = extra ? nDays + 2 : nDays;
  const first = extra ? -1 : 0;
  const hi = extra ? scratchF32('hi', nF * nCells) : tmax,
    lo = extra ? scratchF32('lo', nF * nCells) : tmin;
  for (let f = 0; f < nF; f++) {
    const e = f + first + margin;
    for (let k = 0, p = (e - 1) * nCells, o = f * nCells; k < nCells; k++, p++, o++) {
      const q = p + nCells,
        n = q + nCells;
      let x = rawMax[q]!,
        y = rawMin[q]!;
      const pn = rawMin[p]!,
        nn = rawMin[n]!,
        px = rawMax[p]!,
        nx = rawMax[n]!;
      if (pn > x) x = pn;
      if (nn > x) x = nn;
      if (px < y) y = px;
      if (nx < y) y = nx;
      hi[o] = x;
      lo[o] = y;
    }
  }
  if (!extra) return;
  tmax.set(hi.subarray(nCells, (nDays + 1) * nCells));
  tmin.set(lo.subarray(nCells, (nDays + 1) * nCells));
  if (lowExt) lowExt.set(lo.subarray(nCells, (nDays + 2) * nCells));
  if (!mid) return;
  // M(D) for D = d0 .. d0+nDays: between day D-1 (f = i) and day D (f = i + 1).
  for (let i = 0; i <= nDays; i++) {
    for (let k = 0; k < nCells; k++) {
      const a = i * nCells + k,
        b = a + nCells;
      mid[a] = midnightValue(hi[a]!, lo[a]!, hi[b]!, lo[b]!);
    }
  }
}

/**
 * M(D), the value at the midnight starting day D, from the final extremes of days D - 1 and D:
 * 30 % of the way from Tmin(D) back to Tmax(D - 1), clamped into both days' ranges (module comment).
 */
function midnightValue(prevMax: number, prevMin: number, curMax: number, curMin: number): number {
  const floor = prevMin > curMin ? prevMin : curMin;
  const ceil = prevMax < curMax ? prevMax : curMax;
  let m = Math.fround(curMin + MIDNIGHT_SHARE * (prevMax - curMin));
  if (m < floor) m = floor;
  if (m > ceil) m = ceil;
  return m;
}

/** The same local days d0 .. d0+nDays-1 for every column of a block (daily values: each column's own local days). */
export function anchorDaysFrom(block: Block, d0: number, nDays: number): AnchorDays {
  return { d0: new Int32Array(block.nCols).fill(d0), nDays };
}

/**
 * Anchors for the days `days` names at every cell of the block. Dewpoint anchors (one more noise
 * field) are computed only when `withDew` is set, midnight values (for the hourly curve) only when
 * `withHourly` is: daily extremes need neither. Per-day, per-row and per-column terms come first,
 * then one pass over [day][cell].
 */
export function temperatureAnchors(block: Block, days: AnchorDays, withDew = true, withHourly = true): TemperatureAnchors {
  const { lats, lons, nRows, nCols, nCells, altitude, offsetHours, climateMean, seasonCos, seasonSin, land, coastKm, cells } = block;
  const { d0, nDays } = days;
  const margin = rawMargin(withDew || withHourly);
  const nExt = nDays + 2 * margin;
  // Day length depends on (row, day of year) only: it is computed over the days of every column
  // (from the earliest column's first raw day, e0), each row's once per J.
  let dMin = Infinity,
    dMax = -Infinity;
  for (let c = 0; c < nCols; c++) {
    if (d0[c]! < dMin) dMin = d0[c]!;
    if (d0[c]! > dMax) dMax = d0[c]!;
  }
  const e0 = dMin - margin;
  const nSpan = dMax - dMin + nExt;
  const tanLat = Float64Array.from(lats, (lat) => Math.tan(lat * DEG));
  const dayLen = scratchF64('dayLen', nSpan * nRows);
  // Within a year each day of the span has its own J, so each row's day lengths are computed
  // directly; a longer span takes each (row, J) once from a table.
  const dayLenByJ = nSpan > 366 ? scratchF64('dayLenByJ', 367 * nRows).fill(Number.NaN) : null;
  let j = dayOfYearOf(e0) - 1;
  for (let e = 0; e < nSpan; e++) {
    const day = e0 + e;
    j = j < 365 ? j + 1 : dayOfYearOf(day);
    const tanDecl = TAN_DECLINATION[j]!;
    if (!dayLenByJ) {
      for (let r = 0; r < nRows; r++) dayLen[e * nRows + r] = daylightHours(tanLat[r]!, tanDecl);
      continue;
    }
    for (let r = 0; r < nRows; r++) {
      let n = dayLenByJ[367 * r + j]!;
      if (Number.isNaN(n)) n = dayLenByJ[367 * r + j] = daylightHours(tanLat[r]!, tanDecl);
      dayLen[e * nRows + r] = n;
    }
  }
  // The hour of the minimum is read by the hourly curve alone.
  const nSunrise = withHourly ? dMax - dMin + nDays : 0;
  const sunrise = new Float64Array(nSunrise * nRows);
  for (let i = 0; i < nSunrise * nRows; i++) sunrise[i] = minimumHour(dayLen[margin * nRows + i]!);
  // The diurnal range's daylight damping, like the day length a function of (row, day): beside it.
  const damping = scratchF64('damping', nSpan * nRows);
  for (let i = 0; i < nSpan * nRows; i++) damping[i] = daylightDamping(dayLen[i]!);

  // Per raw day e of each column c (its day d0[c] - margin + e): the UTC time of its local noon and
  // the year's phase then; per column, where the row-days of its raw day 0 start in dayLen.
  const tNoon = scratchF64('tNoon', nExt * nCols);
  const yearCos = scratchF64('yearCos', nExt * nCols),
    yearSin = scratchF64('yearSin', nExt * nCols);
  const dayLenAt = Int32Array.from(d0, (d) => (d - margin - e0) * nRows);
  for (let e = 0; e < nExt; e++) {
    for (let c = 0; c < nCols; c++) {
      const day = d0[c]! - margin + e;
      // Anchors describe local noon of the day, at its UTC instant.
      const t = 24 * day + 12 - offsetHours[c]!;
      tNoon[e * nCols + c] = t;
      const angle = yearAngle(t);
      yearCos[e * nCols + c] = Math.cos(angle);
      yearSin[e * nCols + c] = Math.sin(angle);
    }
  }

  const rowScale = scratchF64('rowScale', nRows),
    rowBias = scratchF64('rowBias', nRows);
  const base = scratchF64('base', nCells),
    maritime = scratchF64('maritime', nCells);
  for (let r = 0; r < nRows; r++) {
    const lat = lats[r]!;
    rowScale[r] = anomalyScale(lat);
    rowBias[r] = cloudBias(lat);
  }
  // Per cell, the terms that are the same every day (the cloud bias's static part: cloud-climate.ts cloudBiasOf).
  const { row: cellRow, col: cellCol } = cellIndexes(nRows, nCols, cells);
  const staticBias = scratchF64('staticBias', nCells);
  for (let k = 0; k < nCells; k++) {
    base[k] = climateMean[k]! - LAPSE_RATE_K_PER_M * altitude[k]!;
    maritime[k] = maritimeDamping(land[k]!, coastKm[k]!);
    staticBias[k] = rowBias[cellRow[k]!]! + block.cloudShift[k]!;
  }
  const size = nExt * nCells;
  // Hourly air temperature alone computes each column's raw days its hours read; dewpoint reads the
  // minima and cloud of every day, and daily extremes have no hours.
  const steps = withHourly && !withDew && days.hours ? rawDaysRead(block, days.hours, d0, margin, sunrise, dMin) : null;
  const anomaly = new BlockNoise(TEMPERATURE_ANOMALY, lats, lons, cells).seriesAtColumnTimes(
    tNoon,
    nExt,
    scratchF32('anomaly', size),
    1,
    steps,
  );
  const clouds = new BlockNoise(DAILY_CLOUD_NOISE, lats, lons, cells).seriesAtColumnTimes(
    tNoon,
    nExt,
    scratchF32('clouds', size),
    1,
    steps,
  );
  // Raw pairs as float32: the anchors are float32, and rounding commutes with the maxima and
  // minima finishAnchors takes (it is monotone), so they are the same as from doubles, with half
  // the memory to pass through.
  const rawMax = scratchF32('rawMax', size),
    rawMin = scratchF32('rawMin', size);
  const cloudOf = withDew ? scratchF64('cloudOf', size) : null;
  const { monsoonCos, monsoonSin, precipLog, precipCos, precipSin } = block;
  rawPairs(
    {
      nExt,
      nCells,
      nRows,
      nCols,
      cellRow,
      cellCol,
      yearCos,
      yearSin,
      dayLenAt,
      damping,
      rowScale,
      base,
      seasonCos,
      seasonSin,
      staticBias,
      maritime,
      climate: { monsoonCos, monsoonSin, precipLog, precipCos, precipSin },
      anomaly,
      clouds,
      steps,
    },
    rawMax,
    rawMin,
    cloudOf,
  );
  const tmax = new Float32Array(nDays * nCells),
    tmin = new Float32Array(nDays * nCells),
    mid = new Float32Array(withHourly ? (nDays + 1) * nCells : 0);
  const low = withDew ? scratchF32('low', (nDays + 1) * nCells) : null;
  finishAnchors(rawMax, rawMin, nCells, nDays, margin, tmax, tmin, withHourly ? mid : null, low);
  const tdew = new Float32Array(withDew ? (nDays + 1) * nCells : 0);
  if (withDew && low && cloudOf) {
    // Dew anchors at the midnight starting days d0 .. d0+nDays, from that day's minimum and air mass.
    const dry = scratchF64('dry', (nDays + 1) * nCols);
    for (let i = 0; i <= nDays; i++) for (let c = 0; c < nCols; c++) dry[i * nCols + c] = tNoon[(i + margin) * nCols + c]!;
    const dryness = new BlockNoise(DRYNESS_NOISE, lats, lons, cells).seriesAtColumnTimes(
      dry,
      nDays + 1,
      scratchF32('dryness', (nDays + 1) * nCells),
    );
    const arids = Array.from(lats, aridDepression);
    for (let i = 0; i <= nDays; i++) {
      const dew = (cell: number, r: number) => {
        const q = i * nCells + cell;
        tdew[q] = low[q]! - dawnDewpointDepression(dryness[q] as number, arids[r]!, cloudOf[q + margin * nCells]!);
      };
      if (cells) for (let k = 0; k < nCells; k++) dew(k, cells.row[k]!);
      else for (let r = 0, k = 0; r < nRows; r++) for (let c = 0; c < nCols; c++, k++) dew(k, r);
    }
  }
  return { d0, nDays, nRows, nCells, tmax, tmin, mid, tdew, sunriseD0: dMin, sunrise };
}

/**
 * The raw days (e, day d0[c] - margin + e) of each column that the hourly curve reads at `hours`
 * (module comment, `curve`): every hour of local day D reads Tmin(D) or Tmax(D), so raw days D - 1
 * to D + 1; an hour before the minimum's plateau also reads M(D), from Tmax(D - 1) (raw day D - 2),
 * and one after the maximum's plateau M(D + 1), from Tmin(D + 1) (raw day D + 2). A column's first
 * hour is its earliest in its first day and its last hour its latest in its last, and every day
 * between reads all of them: a one-hour read computes three or four raw days a column, not five.
 * Anchors built from the others are never read by the curve at these hours.
 */
function rawDaysRead(
  block: Block,
  hours: { h0: number; nt: number },
  d0: Int32Array,
  margin: number,
  sunrise: Float64Array,
  sunriseD0: number,
): ColumnSteps {
  const { nRows, nCols, offsetHours } = block;
  // The latest hour of the minimum among the rows, per day of `sunrise`.
  const latestMinimum = new Float64Array(sunrise.length / Math.max(1, nRows)).fill(-Infinity);
  for (let i = 0; i < latestMinimum.length; i++)
    for (let r = 0; r < nRows; r++) if (sunrise[i * nRows + r]! > latestMinimum[i]!) latestMinimum[i] = sunrise[i * nRows + r]!;
  const from = new Int32Array(nCols),
    to = new Int32Array(nCols);
  const hLast = hours.h0 + hours.nt - 1;
  for (let c = 0; c < nCols; c++) {
    // Local days and hours as fillHourlyTemperature takes them.
    const first = hours.h0 + offsetHours[c]!,
      last = hLast + offsetHours[c]!;
    const dFirst = Math.floor(first / 24),
      dLast = Math.floor(last / 24);
    const beforeMinimum = first - 24 * dFirst < latestMinimum[dFirst - sunriseD0]! - PLATEAU_HALF_HOURS;
    const afterMaximum = last - 24 * dLast > TMAX_LOCAL_HOUR + PLATEAU_HALF_HOURS;
    const e0 = d0[c]! - margin;
    from[c] = dFirst - (beforeMinimum ? 2 : 1) - e0;
    to[c] = dLast + (afterMaximum ? 2 : 1) - e0;
  }
  return { from, to };
}

/** What a block's raw daily pairs are made of (temperatureAnchors), each term at the scope it varies over. */
interface RawPairTerms {
  nExt: number;
  nCells: number;
  nRows: number;
  nCols: number;
  /** each cell's row and column (cellIndexes) */
  cellRow: Int32Array;
  cellCol: Int32Array;
  /** [raw day][column]: the year's phase at the column's local noon */
  yearCos: Float64Array;
  yearSin: Float64Array;
  /** per column, where the row-days of its raw day 0 start in `damping` (raw day e: nRows x e on) */
  dayLenAt: Int32Array;
  /** [day][row] daylight damping of the diurnal range (climate.ts daylightDamping) */
  damping: Float64Array;
  /** per row, the anomaly's scale (climate.ts anomalyScale) */
  rowScale: Float64Array;
  /** per cell: the mean at sea level less the lapse, the annual cycle, the cloud bias's static part, the maritime damping */
  base: Float64Array;
  seasonCos: Float32Array;
  seasonSin: Float32Array;
  staticBias: Float64Array;
  maritime: Float64Array;
  /** per cell, the cloud bias's seasonal terms (cloud-climate.ts cloudBiasOf) */
  climate: Pick<Block, 'monsoonCos' | 'monsoonSin' | 'precipLog' | 'precipCos' | 'precipSin'>;
  /** [raw day][cell] the temperature anomaly and the daily cloud noise */
  anomaly: Float32Array;
  clouds: Float32Array;
  /** the raw days each column's hours read (rawDaysRead), or null for all of them */
  steps: ColumnSteps | null;
}

/**
 * The raw daily pairs, mean +- half the diurnal range, of every raw day and cell ([day][cell])
 * (with `steps`, of the raw days each column's hours read), and with `cloudOf` each cell-day's
 * cloud fraction: one plain loop over the cells and their days, whichever order the block's cells
 * come in, in a function of its own so the engine compiles it early and alone. Its arrays come
 * in an object of one shape: read through the block (whose shape differs between full and listed
 * blocks) they were loaded again at every cell-day.
 */
function rawPairs(terms: RawPairTerms, rawMax: Float32Array, rawMin: Float32Array, cloudOf: Float64Array | null): void {
  const { nExt, nCells, nCols, nRows, cellRow, cellCol, yearCos, yearSin, dayLenAt, damping, rowScale, steps } = terms;
  const { base, seasonCos, seasonSin, staticBias, maritime, climate, anomaly, clouds } = terms;
  // Cell by cell, its static terms read once for all its raw days (day by day over every cell read
  // them from memory again each day, a block's static terms being larger than the processor's cache).
  for (let cell = 0; cell < nCells; cell++) {
    const r = cellRow[cell]!,
      col = cellCol[cell]!;
    const cellBase = base[cell]!,
      cellCos = seasonCos[cell]!,
      cellSin = seasonSin[cell]!,
      scale = rowScale[r]!,
      bias = staticBias[cell]!,
      marine = maritime[cell]!;
    const monsoonCos = climate.monsoonCos[cell]!,
      monsoonSin = climate.monsoonSin[cell]!,
      precipLog = climate.precipLog[cell]!,
      precipCos = climate.precipCos[cell]!,
      precipSin = climate.precipSin[cell]!;
    const eLast = steps ? steps.to[col]! : nExt - 1;
    const eFirst = steps ? steps.from[col]! : 0;
    for (
      let e = eFirst, q = cell + e * nCells, yc = col + e * nCols, dl = dayLenAt[col]! + e * nRows + r;
      e <= eLast;
      e++, q += nCells, yc += nCols, dl += nRows
    ) {
      const yCos = yearCos[yc]!,
        ySin = yearSin[yc]!;
      const mean = cellBase + cellCos * yCos + cellSin * ySin + scale * anomaly[q]!;
      const cloud = cloudFraction(clouds[q]!, cloudBiasOf(bias, monsoonCos, monsoonSin, precipLog, precipCos, precipSin, yCos, ySin));
      const half = diurnalRange(cloud, damping[dl]!, marine) / 2;
      rawMax[q] = mean + half;
      rawMin[q] = mean - half;
      if (cloudOf) cloudOf[q] = cloud;
    }
  }
}

/**
 * Temperature of `cell` (row r) at local hour lh in [0, 24) of anchor day index di (relative to
 * its column's d0), whose day is sunrise index si (relative to sunriseD0): the single definition
 * of the hourly curve (module comment).
 */
function temperatureAt(A: TemperatureAnchors, di: number, si: number, r: number, cell: number, lh: number): number {
  const q = di * A.nCells + cell;
  return curve(
    A.sunrise[si * A.nRows + r] as number,
    A.mid[q] as number,
    A.tmin[q] as number,
    A.tmax[q] as number,
    A.mid[q + A.nCells] as number,
    lh,
  );
}

/** The hourly curve of one local day from its anchors (sr = hour of the minimum). */
export function curve(sr: number, m0: number, lo: number, hi: number, m1: number, lh: number): number {
  const a = sr - PLATEAU_HALF_HOURS;
  if (lh < a) return blend(0, a, m0, lo, lh);
  if (lh <= sr + PLATEAU_HALF_HOURS) return lo;
  const b = TMAX_LOCAL_HOUR - PLATEAU_HALF_HOURS;
  if (lh < b) return blend(sr + PLATEAU_HALF_HOURS, b, lo, hi, lh);
  const c = TMAX_LOCAL_HOUR + PLATEAU_HALF_HOURS;
  if (lh <= c) return hi;
  return blend(c, 24, hi, m1, lh);
}

/** Smoothstep blend from va at local hour a to vb at b, at local hour lh. */
function blend(a: number, b: number, va: number, vb: number, lh: number): number {
  const s = (lh - a) / (b - a);
  return va + (vb - va) * s * s * (3 - 2 * s);
}

/**
 * Anchor days for hourly values h0 .. h0+nt-1 (hours since 1970) at every column of the block:
 * from the local day of each column's first hour, as many as the column with the most needs.
 */
export function anchorDaysForHours(block: Block, h0: number, nt: number): AnchorDays {
  const { nCols, offsetHours } = block;
  const d0 = new Int32Array(nCols);
  let nDays = 1;
  for (let c = 0; c < nCols; c++) {
    // The local day of an hour as fillHourlyTemperature takes it.
    const first = Math.floor((h0 + (offsetHours[c] as number)) / 24);
    const last = Math.floor((h0 + nt - 1 + (offsetHours[c] as number)) / 24);
    d0[c] = first;
    if (last - first + 1 > nDays) nDays = last - first + 1;
  }
  return { d0, nDays, hours: { h0, nt } };
}

/**
 * Hourly air temperature and/or dewpoint for hours h0 .. h0+nt-1 into [t][cell] arrays.
 * Dewpoint follows a line between the day's dewpoint anchors and is capped at the air
 * temperature, so Td <= T holds by construction (saturation caps the dewpoint).
 */
export function fillHourlyTemperature(
  block: Block,
  A: TemperatureAnchors,
  h0: number,
  nt: number,
  tOut: Float32Array | null,
  dOut: Float32Array | null,
): void {
  const { nRows, nCols, nCells, offsetHours, cells } = block;
  const dIdx = new Int32Array(nCols),
    sIdx = new Int32Array(nCols);
  const lhs = new Float64Array(nCols);
  const d0 = A.d0;
  const tdew = A.tdew;
  // One function for every hour (its offset `o` set per hour), not one made per hour: a function
  // made in a loop costs its creation, and with esbuild's keepNames (tsx, the bundles) a naming
  // call, each time, which was half of an hourly point series.
  let o = 0;
  const hourly = (cell: number, r: number, c: number) => {
    const di = dIdx[c] as number;
    const lh = lhs[c] as number;
    const temp = temperatureAt(A, di, sIdx[c] as number, r, cell, lh);
    if (tOut) tOut[o + cell] = temp;
    if (dOut) {
      const a = tdew[di * nCells + cell] as number;
      const td = a + ((tdew[(di + 1) * nCells + cell] as number) - a) * (lh / 24);
      dOut[o + cell] = td < temp ? td : temp;
    }
  };
  for (let t = 0; t < nt; t++) {
    const h = h0 + t;
    for (let c = 0; c < nCols; c++) {
      const L = h + (offsetHours[c] as number);
      const D = Math.floor(L / 24);
      dIdx[c] = D - (d0[c] as number);
      sIdx[c] = D - A.sunriseD0;
      lhs[c] = L - 24 * D;
    }
    o = t * nCells;
    if (cells) for (let k = 0; k < nCells; k++) hourly(k, cells.row[k]!, cells.col[k]!);
    else for (let r = 0, k = 0; r < nRows; r++) for (let c = 0; c < nCols; c++, k++) hourly(k, r, c);
  }
}

/**
 * Daily maximum and/or minimum of the hourly curve over each local solar day dStart .. dStart+n-1
 * into [day][cell] arrays: exactly the day's anchors (module comment). The anchors' days are the
 * same at every column (anchorDaysFrom).
 */
export function fillDailyExtremes(
  block: Block,
  A: TemperatureAnchors,
  dStart: number,
  n: number,
  maxOut: Float32Array | null,
  minOut: Float32Array | null,
): void {
  const nCells = block.nCells;
  const from = (dStart - (A.d0[0] as number)) * nCells,
    to = from + n * nCells;
  if (maxOut) maxOut.set(A.tmax.subarray(from, to));
  if (minOut) minOut.set(A.tmin.subarray(from, to));
}
