/**
 * Air and dewpoint temperature of the synthetic world, hourly and as daily extremes, from one
 * set of per-day anchors so the two always agree.
 *
 * Each local solar day D of a cell has two anchors: its minimum Tmin(D) at sunrise and its
 * maximum Tmax(D) at 15:00 local mean solar time. The hourly curve rises from Tmin(D) to Tmax(D)
 * and falls from Tmax(D) to Tmin(D+1) at the next sunrise, blended with smoothstep (the cubic
 * form of the half-cosine diurnal interpolation of Goudriaan and van Laar 1994, "Modelling
 * Potential Crop Growth Processes", sect. 2.3; De Wit et al. 1978). The curve is C1 and monotone
 * between anchors, so over the 24 hourly samples of a local day the extremes lie at the first or
 * last sample of each of the (at most three) monotone pieces: the daily values are the max/min of
 * those few samples of the very same hourly function, which equals the max/min of all 24.
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
import { anomalyScale, diurnalRange, LAPSE_RATE_K_PER_M, seaLevelMeanTemperature, seasonalAmplitude, seasonalPhase, TEMPERATURE_ANOMALY, TMAX_LOCAL_HOUR } from './climate.js';
import { DAILY_CLOUD_NOISE, cloudBias, cloudFraction, DRYNESS_NOISE, dawnDewpointDepression } from './clouds.js';
import { daysFromCivil, yearOfDay } from './calendar.js';
import { BlockNoise } from './noise.js';
import { dayLengthHours, dayOfYear, solarDeclination } from './solar.js';

const DEG = Math.PI / 180;

export interface TemperatureAnchors {
  /** first local day (days since 1970-01-01) */
  d0: number;
  nDays: number;
  nRows: number;
  nCells: number;
  /** [day][cell] daily maximum at 15:00 local, degC */
  tmax: Float32Array;
  /** [day][cell] daily minimum at sunrise, degC */
  tmin: Float32Array;
  /** [day][cell] dewpoint ceiling at local midnight starting the day, degC */
  tdew: Float32Array;
  /** [day][row] local mean solar hour of sunrise */
  sunrise: Float64Array;
}

/** Local hour of sunrise: 12 - N/2 (FAO-56 eq. 34 for N). 12 in polar night, 0 in polar day. */
export function sunriseLocalHour(latDeg: number, dayIndex: number): number {
  return 12 - dayLengthHours(latDeg, solarDeclination(dayOfYear(dayIndex))) / 2;
}

/**
 * Anchors for local days d0 .. d0+nDays-1 of every cell of the block. Dewpoint anchors (one more
 * noise field) are computed only when `withDew` is set. Work is vectorised over days: per-day,
 * per-row and per-column terms first, then one pass over [day][cell].
 */
export function temperatureAnchors(block: Block, d0: number, nDays: number, withDew = true): TemperatureAnchors {
  const { lats, lons, nRows, nCols, nCells, altitude, offsetHours } = block;
  const size = nDays * nCells;
  const tmax = new Float32Array(size);
  const tmin = new Float32Array(size);
  const tdew = new Float32Array(withDew ? size : 0);
  const sunrise = new Float64Array(nDays * nRows);
  const dayLen = new Float64Array(nDays * nRows);
  const tNoon = new Float64Array(nDays * nCols);
  const season = new Float64Array(nDays * nCols);

  const rowAmp = new Float64Array(nRows);
  const rowScale = new Float64Array(nRows);
  const rowBias = new Float64Array(nRows);
  const rowTan = new Float64Array(nRows);
  const base = new Float64Array(nCells);
  for (let r = 0; r < nRows; r++) {
    const lat = lats[r] as number;
    rowAmp[r] = seasonalAmplitude(lat);
    rowScale[r] = anomalyScale(lat);
    rowBias[r] = cloudBias(lat);
    rowTan[r] = Math.tan(lat * DEG);
    const sl = seaLevelMeanTemperature(lat);
    for (let c = 0; c < nCols; c++) base[r * nCols + c] = sl - LAPSE_RATE_K_PER_M * (altitude[r * nCols + c] as number);
  }
  // Day length depends on (latitude, day of year) only: tabulate by J for long runs.
  const byJ = nDays >= 366 ? new Float64Array(367 * nRows).fill(-1) : null;
  let yearStart = daysFromCivil(yearOfDay(d0), 1, 1);
  let nextYear = daysFromCivil(yearOfDay(d0) + 1, 1, 1);
  for (let i = 0; i < nDays; i++) {
    const day = d0 + i;
    if (day >= nextYear) {
      yearStart = nextYear;
      nextYear = daysFromCivil(yearOfDay(day) + 1, 1, 1);
    }
    const j = day - yearStart + 1;
    const tanDecl = Math.tan(solarDeclination(j));
    for (let r = 0; r < nRows; r++) {
      let n: number;
      const cached = byJ ? (byJ[j * nRows + r] as number) : -1;
      if (cached >= 0) {
        n = cached;
      } else {
        const x = -(rowTan[r] as number) * tanDecl;
        n = x <= -1 ? 24 : x >= 1 ? 0 : (24 / Math.PI) * Math.acos(x);
        if (byJ) byJ[j * nRows + r] = n;
      }
      dayLen[i * nRows + r] = n;
      sunrise[i * nRows + r] = 12 - n / 2;
    }
    for (let c = 0; c < nCols; c++) {
      // Anchors describe local noon of the day, at its UTC instant.
      const t = 24 * day + 12 - (offsetHours[c] as number);
      tNoon[i * nCols + c] = t;
      season[i * nCols + c] = seasonalPhase(t);
    }
  }
  const anomaly = new BlockNoise(TEMPERATURE_ANOMALY, lats, lons).seriesAtColumnTimes(tNoon, nDays, new Float32Array(size));
  const clouds = new BlockNoise(DAILY_CLOUD_NOISE, lats, lons).seriesAtColumnTimes(tNoon, nDays, new Float32Array(size));
  const dryness = withDew ? new BlockNoise(DRYNESS_NOISE, lats, lons).seriesAtColumnTimes(tNoon, nDays, new Float32Array(size)) : null;

  for (let i = 0; i < nDays; i++) {
    const o = i * nCells;
    for (let r = 0; r < nRows; r++) {
      const amp = rowAmp[r] as number, sc = rowScale[r] as number, bias = rowBias[r] as number;
      const n = dayLen[i * nRows + r] as number;
      const lat = lats[r] as number;
      for (let c = 0; c < nCols; c++) {
        const cell = r * nCols + c;
        const q = o + cell;
        const mean = (base[cell] as number) + amp * (season[i * nCols + c] as number) + sc * (anomaly[q] as number);
        const cloud = cloudFraction(clouds[q] as number, bias);
        const half = diurnalRange(cloud, n) / 2;
        const lo = mean - half;
        tmax[q] = mean + half;
        tmin[q] = lo;
        if (dryness) tdew[q] = lo - dawnDewpointDepression(dryness[q] as number, lat, cloud);
      }
    }
  }
  return { d0, nDays, nRows, nCells, tmax, tmin, tdew, sunrise };
}

/**
 * Temperature of `cell` (row r) at local hour lh of anchor day index di (d0-relative): the
 * smoothstep blend between the anchors bracketing lh. The single definition of the hourly curve.
 */
export function temperatureAt(A: TemperatureAnchors, di: number, r: number, cell: number, lh: number): number {
  const nC = A.nCells;
  const sr = A.sunrise[di * A.nRows + r] as number;
  let a: number, b: number, va: number, vb: number;
  if (lh < sr) {
    a = TMAX_LOCAL_HOUR - 24;
    b = sr;
    va = A.tmax[(di - 1) * nC + cell] as number;
    vb = A.tmin[di * nC + cell] as number;
  } else if (lh < TMAX_LOCAL_HOUR) {
    a = sr;
    b = TMAX_LOCAL_HOUR;
    va = A.tmin[di * nC + cell] as number;
    vb = A.tmax[di * nC + cell] as number;
  } else {
    a = TMAX_LOCAL_HOUR;
    b = 24 + (A.sunrise[(di + 1) * A.nRows + r] as number);
    va = A.tmax[di * nC + cell] as number;
    vb = A.tmin[(di + 1) * nC + cell] as number;
  }
  const s = (lh - a) / (b - a);
  return va + (vb - va) * s * s * (3 - 2 * s);
}

/** Anchor days needed for hourly values h0 .. h0+nt-1 (hours since 1970) anywhere on Earth. */
export function anchorDaysForHours(h0: number, nt: number): { d0: number; nDays: number } {
  const d0 = Math.floor((h0 - 12) / 24) - 1;
  const d1 = Math.floor((h0 + nt - 1 + 12) / 24) + 1;
  return { d0, nDays: d1 - d0 + 1 };
}

/** Anchor days needed for daily values of days dStart .. dStart+n-1. */
export function anchorDaysForDays(dStart: number, n: number): { d0: number; nDays: number } {
  return { d0: dStart - 1, nDays: n + 2 };
}

/**
 * Hourly air temperature and/or dewpoint for hours h0 .. h0+nt-1 into [t][cell] arrays.
 * Dewpoint follows a line between the day's dewpoint anchors and is capped at the air
 * temperature, so Td <= T holds by construction (saturation caps the dewpoint).
 */
export function fillHourlyTemperature(block: Block, A: TemperatureAnchors, h0: number, nt: number, tOut: Float32Array | null, dOut: Float32Array | null): void {
  const { nRows, nCols, nCells, offsetHours } = block;
  const dIdx = new Int32Array(nCols);
  const lhs = new Float64Array(nCols);
  const d0 = A.d0;
  const tdew = A.tdew;
  for (let t = 0; t < nt; t++) {
    const h = h0 + t;
    for (let c = 0; c < nCols; c++) {
      const L = h + (offsetHours[c] as number);
      const D = Math.floor(L / 24);
      dIdx[c] = D - d0;
      lhs[c] = L - 24 * D;
    }
    const o = t * nCells;
    for (let r = 0; r < nRows; r++) {
      const rowBase = r * nCols;
      for (let c = 0; c < nCols; c++) {
        const cell = rowBase + c;
        const di = dIdx[c] as number;
        const lh = lhs[c] as number;
        const temp = temperatureAt(A, di, r, cell, lh);
        if (tOut) tOut[o + cell] = temp;
        if (dOut) {
          const a = tdew[di * nCells + cell] as number;
          const td = a + ((tdew[(di + 1) * nCells + cell] as number) - a) * (lh / 24);
          dOut[o + cell] = td < temp ? td : temp;
        }
      }
    }
  }
}

/**
 * Daily maximum and/or minimum of the hourly curve over each local solar day dStart .. dStart+n-1
 * into [day][cell] arrays. The day's 24 samples fall into up to three monotone pieces (before
 * sunrise, sunrise to 15:00, after 15:00); the direction of each piece is known from its end
 * anchors, so the extreme of a piece is its first or last sample: at most three evaluations of
 * the hourly function per extreme, each the exact value the hourly series reports.
 */
export function fillDailyExtremes(block: Block, A: TemperatureAnchors, dStart: number, n: number, maxOut: Float32Array | null, minOut: Float32Array | null): void {
  const { nRows, nCols, nCells, offsetHours } = block;
  const { tmax, tmin, d0 } = A;
  for (let i = 0; i < n; i++) {
    const D = dStart + i;
    const di = D - d0;
    const o = i * nCells;
    for (let c = 0; c < nCols; c++) {
      const off = offsetHours[c] as number;
      // First integer UTC hour whose local time falls in day D, by the hourly code's own test.
      let t0 = Math.ceil(24 * D - off);
      while (Math.floor((t0 + off) / 24) < D) t0++;
      while (Math.floor((t0 - 1 + off) / 24) >= D) t0--;
      const lh0 = t0 + off - 24 * D;
      for (let r = 0; r < nRows; r++) {
        const cell = r * nCols + c;
        const sr = A.sunrise[di * nRows + r] as number;
        // Samples k < kA are before sunrise, k < kB before the 15:00 maximum.
        const kA = clampCount(Math.ceil(sr - lh0));
        const kB = clampCount(Math.ceil(TMAX_LOCAL_HOUR - lh0));
        const prevMax = tmax[(di - 1) * nCells + cell] as number;
        const lo = tmin[di * nCells + cell] as number;
        const hi = tmax[di * nCells + cell] as number;
        const nextMin = tmin[(di + 1) * nCells + cell] as number;
        const aFalls = prevMax >= lo;
        const bRises = hi >= lo;
        const cFalls = hi >= nextMin;
        // Each piece's end anchors are known, so its samples are evaluated on that piece
        // directly: the same arithmetic as temperatureAt, without finding the piece again.
        const srNext = 24 + (A.sunrise[(di + 1) * nRows + r] as number);
        // Local hour of sample k as fillHourlyTemperature computes it: (t0 + k) + lon/15 - 24 D.
        const a0 = TMAX_LOCAL_HOUR - 24;
        if (maxOut) {
          let m = -Infinity;
          if (kA > 0) m = Math.max(m, blend(a0, sr, prevMax, lo, t0 + (aFalls ? 0 : kA - 1) + off - 24 * D));
          if (kB > kA) m = Math.max(m, blend(sr, TMAX_LOCAL_HOUR, lo, hi, t0 + (bRises ? kB - 1 : kA) + off - 24 * D));
          if (kB < 24) m = Math.max(m, blend(TMAX_LOCAL_HOUR, srNext, hi, nextMin, t0 + (cFalls ? kB : 23) + off - 24 * D));
          maxOut[o + cell] = m;
        }
        if (minOut) {
          let m = Infinity;
          if (kA > 0) m = Math.min(m, blend(a0, sr, prevMax, lo, t0 + (aFalls ? kA - 1 : 0) + off - 24 * D));
          if (kB > kA) m = Math.min(m, blend(sr, TMAX_LOCAL_HOUR, lo, hi, t0 + (bRises ? kA : kB - 1) + off - 24 * D));
          if (kB < 24) m = Math.min(m, blend(TMAX_LOCAL_HOUR, srNext, hi, nextMin, t0 + (cFalls ? 23 : kB) + off - 24 * D));
          minOut[o + cell] = m;
        }
      }
    }
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
