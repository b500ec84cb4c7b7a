/**
 * ASCE-EWRI (2005) standardized reference evapotranspiration, hourly and daily, for the short
 * (clipped grass, ETos) and tall (alfalfa, ETrs) reference surfaces.
 *
 * Source: ASCE-EWRI (2005) "The ASCE Standardized Reference Evapotranspiration Equation",
 * Task Committee report, eq. 1 and Table 1, with the radiation, vapour-pressure and wind terms
 * of its chapters 3-5. FAO-56 (Allen et al. 1998) Penman-Monteith is the same equation with
 * Cn = 900 / Cd = 0.34 daily and Cn = 37 / Cd = 0.34 hourly; the coefficients are inputs so the
 * FAO-56 worked examples can be reproduced exactly.
 *
 * Units: temperature °C, vapour pressure kPa, radiation MJ m-2 per period, wind m s-1,
 * elevation m, results mm per period (mm/h or mm/d; `millimetresToInches` converts).
 */

import { clearSkyRadiation, extraterrestrialRadiationDaily, hourlySolarGeometry } from './solar.js';
import { saturationVapourPressureTetens } from './humidity.js';

export type ReferenceSurface = 'short' | 'tall';

/** ASCE-EWRI 2005 Table 1, hourly time step. G is a fraction of Rn (eqs. 65-66). */
export interface HourlyCoefficients {
  cn: number;
  cdDay: number;
  cdNight: number;
  soilHeatRatioDay: number;
  soilHeatRatioNight: number;
}

/** ASCE-EWRI 2005 Table 1, daily time step (G = 0 for a day, eq. 30). */
export interface DailyCoefficients {
  cn: number;
  cd: number;
}

export const HOURLY_COEFFICIENTS: Readonly<Record<ReferenceSurface, Readonly<HourlyCoefficients>>> = {
  short: { cn: 37, cdDay: 0.24, cdNight: 0.96, soilHeatRatioDay: 0.1, soilHeatRatioNight: 0.5 },
  tall: { cn: 66, cdDay: 0.25, cdNight: 1.7, soilHeatRatioDay: 0.04, soilHeatRatioNight: 0.2 },
};

export const DAILY_COEFFICIENTS: Readonly<Record<ReferenceSurface, Readonly<DailyCoefficients>>> = {
  short: { cn: 900, cd: 0.34 },
  tall: { cn: 1600, cd: 0.38 },
};

/** FAO-56 hourly Penman-Monteith (eq. 53, G per eqs. 45-46): Cd 0.34 by day and by night. */
export const FAO56_HOURLY_COEFFICIENTS: Readonly<HourlyCoefficients> = {
  cn: 37,
  cdDay: 0.34,
  cdNight: 0.34,
  soilHeatRatioDay: 0.1,
  soilHeatRatioNight: 0.5,
};

/** Albedo of both reference surfaces, ASCE-EWRI 2005 eq. 15. */
export const REFERENCE_ALBEDO = 0.23;

/** Stefan-Boltzmann constant per hour and per day, MJ K-4 m-2, ASCE-EWRI 2005 eqs. 44 and 17. */
export const STEFAN_BOLTZMANN_HOURLY = 2.042e-10;
export const STEFAN_BOLTZMANN_DAILY = 4.901e-9;

/**
 * Solar altitude, 0.3 rad (about 17°), below which Rs/Rso is no measure of cloudiness (ASCE-EWRI
 * 2005, text to eq. 45): near the horizon the simple Rso of eq. 47 overstates what a clear sky
 * lets through, so a clear hour's ratio drops towards the 0.3 floor and reads as overcast. Hours
 * whose midpoint sun is lower take a carried fcd (`LowSunRule`).
 */
export const LOW_SUN_ALTITUDE = 0.3;

/**
 * How an hour with the sun above the horizon but below `LOW_SUN_ALTITUDE` gets its fcd:
 * - `carry` (default): the carried value, as a night hour does. This is the reading of the text to
 *   ASCE-EWRI 2005 eq. 45 that Allen's Ref-ET program applies: Rs/Rso counts only while the sun is
 *   at least 0.3 rad high, dawn and dusk alike.
 * - `own-ratio`: its own Rs/Rso, clamped. The report's Appendix C hourly table was computed this
 *   way in its 18-19 h row (docs/decisions/0110-low-sun-cloudiness.md); kept so that table can be
 *   checked as printed.
 */
export type LowSunRule = 'carry' | 'own-ratio';

/**
 * Where the hour whose fcd is carried into the night lies: its midpoint 2 to 3 hours before
 * sunset (ASCE-EWRI 2005, text to eq. 45, and its Appendix C hourly example).
 */
export const NIGHT_CLOUDINESS_HOURS_BEFORE_SUNSET: readonly [number, number] = [2, 3];

/**
 * Cloudiness function used at night when the caller has no value to carry forward (the first
 * hours of a series that starts at night). ASCE gives no default; FAO-56 (text to eq. 39)
 * suggests Rs/Rso of 0.4-0.6 in humid and 0.7-0.8 in arid climates at night. Rs/Rso = 0.7, the
 * boundary of those ranges, gives fcd = 1.35 x 0.7 - 0.35 = 0.595. Recorded in docs/decisions/0012-hourly-cloudiness-and-polar-hours.md.
 */
export const FALLBACK_CLOUDINESS = 0.595;

/** Mean atmospheric pressure from elevation, kPa, ASCE-EWRI 2005 eq. 3 (FAO-56 eq. 7). */
export function atmosphericPressure(elevationM: number): number {
  return 101.3 * Math.pow((293 - 0.0065 * elevationM) / 293, 5.26);
}

/** Psychrometric constant, kPa °C-1, ASCE-EWRI 2005 eq. 4 (FAO-56 eq. 8). */
export function psychrometricConstant(pressureKPa: number): number {
  return 0.000665 * pressureKPa;
}

/** Slope of the saturation vapour pressure curve, kPa °C-1, ASCE-EWRI 2005 eq. 5 (FAO-56 eq. 13). */
export function saturationVapourPressureSlope(tC: number): number {
  const d = tC + 237.3;
  return (2503 * Math.exp((17.27 * tC) / d)) / (d * d);
}

/**
 * Actual vapour pressure from daily extreme humidity, kPa, FAO-56 eq. 17 (ASCE-EWRI 2005
 * Table 3): ea = [e°(Tmin) RHmax/100 + e°(Tmax) RHmin/100] / 2, Tetens e°.
 */
export function actualVapourPressureFromRhExtremes(tmax: number, tmin: number, rhMax: number, rhMin: number): number {
  return (saturationVapourPressureTetens(tmin) * rhMax + saturationVapourPressureTetens(tmax) * rhMin) / 200;
}

/**
 * Wind speed at 2 m from a measurement at height z over short grass, ASCE-EWRI 2005 eq. 33
 * (FAO-56 eq. 47): u2 = uz 4.87 / ln(67.8 z - 5.42).
 */
export function windSpeedAt2m(uz: number, heightM: number): number {
  // A 2 m reading is already the standard's u2; the fitted log law gives 1.0002 there.
  if (heightM === 2) return uz;
  return (uz * 4.87) / Math.log(67.8 * heightM - 5.42);
}

/**
 * Cloudiness function fcd = 1.35 Rs/Rso - 0.35 with 0.3 <= Rs/Rso <= 1.0, so fcd runs from
 * 0.055 to 1.0 (inside ASCE's stated 0.05 < fcd <= 1.0),
 * ASCE-EWRI 2005 eqs. 18 (daily) and 45 (hourly). Rso = 0 (no sun) has no ratio: NaN, and the
 * hourly caller applies the low-sun rule instead.
 */
export function cloudinessFunction(rs: number, rso: number): number {
  if (!(rso > 0)) return Number.NaN;
  let ratio = rs / rso;
  if (ratio < 0.3) ratio = 0.3;
  else if (ratio > 1) ratio = 1;
  return 1.35 * ratio - 0.35;
}

/** Net shortwave radiation (1 - 0.23) Rs, ASCE-EWRI 2005 eq. 15 (FAO-56 eq. 38). */
export function netShortwaveRadiation(rs: number): number {
  return (1 - REFERENCE_ALBEDO) * rs;
}

/**
 * Hourly net longwave radiation, MJ m-2 h-1, ASCE-EWRI 2005 eq. 44:
 * Rnl = σ fcd (0.34 - 0.14 √ea) T_K^4, T_K = T + 273.16.
 */
export function netLongwaveRadiationHourly(tC: number, ea: number, fcd: number): number {
  const tk = tC + 273.16;
  const t2 = tk * tk;
  return STEFAN_BOLTZMANN_HOURLY * fcd * (0.34 - 0.14 * Math.sqrt(ea)) * t2 * t2;
}

/**
 * Daily net longwave radiation, MJ m-2 d-1, ASCE-EWRI 2005 eq. 17 (FAO-56 eq. 39):
 * Rnl = σ fcd (0.34 - 0.14 √ea) (Tmax,K^4 + Tmin,K^4) / 2.
 */
export function netLongwaveRadiationDaily(tmax: number, tmin: number, ea: number, fcd: number): number {
  const hi = (tmax + 273.16) ** 4;
  const lo = (tmin + 273.16) ** 4;
  return STEFAN_BOLTZMANN_DAILY * fcd * (0.34 - 0.14 * Math.sqrt(ea)) * ((hi + lo) / 2);
}

/**
 * The standardized equation itself, ASCE-EWRI 2005 eq. 1:
 * ET = [0.408 Δ (Rn - G) + γ Cn/(T + 273) u2 (es - ea)] / [Δ + γ (1 + Cd u2)].
 */
export function penmanMonteith(
  delta: number,
  gamma: number,
  rn: number,
  g: number,
  tC: number,
  u2: number,
  es: number,
  ea: number,
  cn: number,
  cd: number,
): number {
  return (0.408 * delta * (rn - g) + ((gamma * cn) / (tC + 273)) * u2 * (es - ea)) / (delta + gamma * (1 + cd * u2));
}

export interface HourlyReferenceEtInput {
  /** Mean air temperature of the hour, °C. */
  temperature: number;
  /** Mean actual vapour pressure of the hour, kPa. */
  actualVapourPressure: number;
  /** Incoming shortwave radiation of the hour, MJ m-2 h-1 (W m-2 x 0.0036). */
  solarRadiation: number;
  /** Wind speed, m s-1, measured at `windHeight`. */
  windSpeed: number;
  /** Anemometer height, m; default 2. */
  windHeight?: number;
  elevation: number;
  /** Degrees north. */
  latitude: number;
  /** Degrees east. */
  longitude: number;
  dayOfYear: number;
  /** Standard clock time of the hour's midpoint, e.g. 14.5 for 14:00-15:00. */
  midpointHour: number;
  /** Central meridian of the clock's time zone, degrees east; default 0 (UTC clock). */
  standardMeridian?: number;
  /**
   * fcd for a night hour (no sun, Rso = 0): the value of the hour 2-3 h before sunset, carried
   * by the caller (`hourlyReferenceEtSeries` does it). `FALLBACK_CLOUDINESS` when absent.
   */
  carriedCloudiness?: number;
  /** Hours with sun below 0.3 rad: carried fcd (default) or their own Rs/Rso (`LowSunRule`). */
  lowSun?: LowSunRule;
  /** Default 'short' (ETos, spec 2.7). */
  surface?: ReferenceSurface;
  /** Overrides of Table 1 (e.g. `FAO56_HOURLY_COEFFICIENTS`). */
  coefficients?: Partial<HourlyCoefficients>;
}

export interface HourlyReferenceEtResult {
  /** Reference ET of the hour, mm h-1. Negative values (dew) are returned as computed. */
  et: number;
  ra: number;
  rso: number;
  /** Cloudiness function used: from this hour's Rs/Rso when `ownCloudiness`, else the carried value. */
  fcd: number;
  /** True when fcd comes from this hour's own Rs/Rso: the sun at least 0.3 rad high (or above the horizon, `own-ratio`). */
  ownCloudiness: boolean;
  /** True when the sun is above the horizon for part of the hour (Rso > 0). */
  sunUp: boolean;
  /** Hours from the hour's midpoint to the next sunset; Infinity in polar day, NaN in polar night. */
  hoursToSunset: number;
  rns: number;
  rnl: number;
  rn: number;
  g: number;
  /** Daytime per ASCE-EWRI 2005 Table 1 note: Rn > 0. Chooses Cd and the G ratio. */
  daytime: boolean;
  u2: number;
  pressure: number;
  gamma: number;
  delta: number;
  es: number;
  altitude: number;
}

/** Hourly standardized reference ET (ETos or ETrs), ASCE-EWRI 2005 eq. 1 with Table 1. */
export function hourlyReferenceEt(input: HourlyReferenceEtInput): HourlyReferenceEtResult {
  const c = { ...HOURLY_COEFFICIENTS[input.surface ?? 'short'], ...input.coefficients };
  const t = input.temperature;
  const ea = input.actualVapourPressure;
  const rs = input.solarRadiation;
  const pressure = atmosphericPressure(input.elevation);
  const gamma = psychrometricConstant(pressure);
  const delta = saturationVapourPressureSlope(t);
  const es = saturationVapourPressureTetens(t);
  const u2 = windSpeedAt2m(input.windSpeed, input.windHeight ?? 2);

  const sun = hourlySolarGeometry(input.latitude, input.longitude, input.dayOfYear, input.midpointHour, input.standardMeridian ?? 0);
  const rso = clearSkyRadiation(sun.ra, input.elevation);
  // Rs/Rso measures cloudiness only with the sun at least 0.3 rad high (text to eq. 45); lower
  // hours, dawn and dusk as well as night, take the carried value (LowSunRule).
  const sunUp = rso > 0;
  const own = sunUp && ((input.lowSun ?? 'carry') === 'own-ratio' || sun.altitude >= LOW_SUN_ALTITUDE);
  const fcd = own ? cloudinessFunction(rs, rso) : (input.carriedCloudiness ?? FALLBACK_CLOUDINESS);

  const rns = netShortwaveRadiation(rs);
  const rnl = netLongwaveRadiationHourly(t, ea, fcd);
  const rn = rns - rnl;
  const daytime = rn > 0;
  const g = rn * (daytime ? c.soilHeatRatioDay : c.soilHeatRatioNight);
  const et = penmanMonteith(delta, gamma, rn, g, t, u2, es, ea, c.cn, daytime ? c.cdDay : c.cdNight);
  return {
    et,
    ra: sun.ra,
    rso,
    fcd,
    ownCloudiness: own,
    sunUp,
    hoursToSunset: hoursToSunset(sun),
    rns,
    rnl,
    rn,
    g,
    daytime,
    u2,
    pressure,
    gamma,
    delta,
    es,
    altitude: sun.altitude,
  };
}

/** Hours from the midpoint's hour angle to sunset, going forward in time (ωs - ω, wrapped). */
function hoursToSunset(sun: { hourAngle: number; sunsetHourAngle: number }): number {
  const ws = sun.sunsetHourAngle;
  if (ws >= Math.PI) return Infinity;
  if (!(ws > 0)) return Number.NaN;
  let d = ws - sun.hourAngle;
  if (d < 0) d += 2 * Math.PI;
  return (d * 12) / Math.PI;
}

/**
 * How far back an hour without its own fcd looks for one (CarriedCloudiness): a day, which holds
 * the evening before any night and dawn wherever the sun reaches 0.3 rad that day. Where it does
 * not (high latitudes in winter), looking further would make an hour's value depend on how far
 * back its series starts, weeks earlier for a long one; instead such an hour takes the fallback.
 */
export const CLOUDINESS_CARRY_HOURS = 24;

/**
 * The fcd an hour without its own (night, or sun below 0.3 rad) takes, following a series hour
 * by hour (ASCE-EWRI 2005, text to eq. 45): the fcd of the hour whose midpoint lies 2-3 h before
 * that evening's sunset, when the sun there was high enough to give its own; else the last hour
 * that gave its own; each only from the `CLOUDINESS_CARRY_HOURS` hours before; else the
 * caller's initial value; else `FALLBACK_CLOUDINESS`. The morning's low-sun hours keep the
 * previous evening's value until the first hour that gives its own.
 */
export class CarriedCloudiness {
  private evening: number | undefined;
  private eveningAt = 0;
  private highSun: number | undefined;
  private highSunAt = 0;
  /** a night has passed since the last hour with its own fcd: the next such hour starts a new day */
  private newDay = true;
  /** the index of the next hour: the number observed */
  private hour = 0;

  constructor(private readonly initial?: number) {}

  /** The value for the next hour. */
  get value(): number | undefined {
    const oldest = this.hour - CLOUDINESS_CARRY_HOURS;
    if (this.evening !== undefined && this.eveningAt >= oldest) return this.evening;
    if (this.highSun !== undefined && this.highSunAt >= oldest) return this.highSun;
    return this.initial;
  }

  /** Takes in one hour's result, in time order. */
  observe(r: Pick<HourlyReferenceEtResult, 'fcd' | 'ownCloudiness' | 'sunUp' | 'hoursToSunset'>): void {
    const [near, far] = NIGHT_CLOUDINESS_HOURS_BEFORE_SUNSET;
    if (r.ownCloudiness) {
      // A new day's evening replaces the last one's.
      if (this.newDay) this.evening = undefined;
      this.newDay = false;
      this.highSun = r.fcd;
      this.highSunAt = this.hour;
      if (r.hoursToSunset >= near && r.hoursToSunset < far) {
        this.evening = r.fcd;
        this.eveningAt = this.hour;
      }
    }
    if (!r.sunUp) this.newDay = true;
    this.hour++;
  }
}

/**
 * Hourly ET over consecutive hours with the night and low-sun rules of ASCE-EWRI 2005 (text to
 * eq. 45, `CarriedCloudiness`). Appendix C's hourly example (Greeley, 1-2 July 2000) carries the
 * 16-17 h fcd into the night (test/evapotranspiration.test.ts).
 */
export function hourlyReferenceEtSeries(
  hours: Iterable<Omit<HourlyReferenceEtInput, 'carriedCloudiness'>>,
  initialCloudiness?: number,
): HourlyReferenceEtResult[] {
  const carried = new CarriedCloudiness(initialCloudiness);
  const out: HourlyReferenceEtResult[] = [];
  for (const hour of hours) {
    const value = carried.value;
    const r = hourlyReferenceEt(value === undefined ? hour : { ...hour, carriedCloudiness: value });
    carried.observe(r);
    out.push(r);
  }
  return out;
}

export interface DailyReferenceEtInput {
  tmax: number;
  tmin: number;
  /** Mean daily actual vapour pressure, kPa. */
  actualVapourPressure: number;
  /** Incoming shortwave radiation of the day, MJ m-2 d-1. */
  solarRadiation: number;
  windSpeed: number;
  windHeight?: number;
  elevation: number;
  latitude: number;
  dayOfYear: number;
  /** Soil heat flux, MJ m-2 d-1; 0 for a day (ASCE-EWRI 2005 eq. 30); FAO-56 eq. 43-44 for months. */
  soilHeatFlux?: number;
  surface?: ReferenceSurface;
  coefficients?: Partial<DailyCoefficients>;
}

export interface DailyReferenceEtResult {
  /** mm d-1 */
  et: number;
  ra: number;
  rso: number;
  fcd: number;
  rns: number;
  rnl: number;
  rn: number;
  u2: number;
  pressure: number;
  gamma: number;
  delta: number;
  /** Mean saturation vapour pressure, [e°(Tmax) + e°(Tmin)] / 2 (ASCE-EWRI 2005 eq. 6). */
  es: number;
}

/** Daily standardized reference ET (ETos or ETrs), ASCE-EWRI 2005 eq. 1 with Table 1. */
export function dailyReferenceEt(input: DailyReferenceEtInput): DailyReferenceEtResult {
  const c = { ...DAILY_COEFFICIENTS[input.surface ?? 'short'], ...input.coefficients };
  const { tmax, tmin } = input;
  const ea = input.actualVapourPressure;
  const rs = input.solarRadiation;
  const tmean = (tmax + tmin) / 2; // eq. 2: the standard defines Tmean from the extremes
  const pressure = atmosphericPressure(input.elevation);
  const gamma = psychrometricConstant(pressure);
  const delta = saturationVapourPressureSlope(tmean);
  const es = (saturationVapourPressureTetens(tmax) + saturationVapourPressureTetens(tmin)) / 2;
  const u2 = windSpeedAt2m(input.windSpeed, input.windHeight ?? 2);
  const ra = extraterrestrialRadiationDaily(input.latitude, input.dayOfYear);
  const rso = clearSkyRadiation(ra, input.elevation);
  // Polar night: no Rso, no ratio; take the clearest-sky bound so Rnl is not understated.
  const fcd = rso > 0 ? cloudinessFunction(rs, rso) : 1;
  const rns = netShortwaveRadiation(rs);
  const rnl = netLongwaveRadiationDaily(tmax, tmin, ea, fcd);
  const rn = rns - rnl;
  const g = input.soilHeatFlux ?? 0;
  const et = penmanMonteith(delta, gamma, rn, g, tmean, u2, es, ea, c.cn, c.cd);
  return { et, ra, rso, fcd, rns, rnl, rn, u2, pressure, gamma, delta, es };
}
