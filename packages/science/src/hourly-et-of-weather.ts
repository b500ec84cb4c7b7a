/**
 * The hourly short-crop reference ET (ETos) of one hour at one place from gridded weather: the
 * one computation behind every area that shows the evapotranspiration product's value for a
 * single hour (a frame's datapoint, a tile's pixel), so the number and the colour agree.
 *
 * ASCE-EWRI (2005) standardized equation (`hourlyReferenceEt`) with the inputs a weather grid
 * holds: 2 m air temperature and dewpoint (°C), mean shortwave irradiance of the hour (W m-2),
 * 2 m wind speed (m s-1), ground height (m), on a UTC clock. One hour is read alone, so a night
 * hour takes the standard's fallback cloudiness (`FALLBACK_CLOUDINESS`), no evening being known.
 */
import { hourlyReferenceEt } from './evapotranspiration.js';
import { saturationVapourPressureTetens } from './humidity.js';
import { dayOfYear } from './solar.js';
import { wattsPerSquareMetreToMegajoulesPerHour } from './units.js';

const HOUR_MS = 3_600_000;

export interface HourOfWeather {
  /** Mean 2 m air temperature of the hour, °C. */
  airTemperature: number;
  /** 2 m dewpoint, °C. */
  dewpoint: number;
  /** Mean incoming shortwave irradiance of the hour, W m-2. */
  shortwave: number;
  /** 2 m wind speed, m s-1. */
  windSpeed: number;
  /** Ground height, m; below sea level counts as sea level (the standard's pressure from elevation). */
  elevation: number;
  /** Degrees north. */
  latitude: number;
  /** Degrees east. */
  longitude: number;
  /** Start of the hour, ms since the epoch (UTC). */
  hourStartMs: number;
}

/** ETos of the hour, mm h-1 (negative for dew, as computed); NaN when an input is missing. */
export function shortCropEtOfHour(w: HourOfWeather): number {
  const mid = new Date(w.hourStartMs + HOUR_MS / 2);
  return hourlyReferenceEt({
    temperature: w.airTemperature,
    // ea = e°(Tdew) with the standard's own Tetens e° (ASCE-EWRI 2005 eq. 8), the form its es
    // takes: Bolton's (humidity.ts) is never mixed into the deficit (docs/decisions/0011-humidity-and-reference-et-forms.md).
    actualVapourPressure: saturationVapourPressureTetens(w.dewpoint),
    solarRadiation: wattsPerSquareMetreToMegajoulesPerHour(w.shortwave),
    windSpeed: w.windSpeed,
    elevation: Math.max(0, w.elevation),
    latitude: w.latitude,
    longitude: w.longitude,
    dayOfYear: dayOfYear(mid),
    midpointHour: mid.getUTCHours() + mid.getUTCMinutes() / 60 + mid.getUTCSeconds() / 3600,
  }).et;
}
