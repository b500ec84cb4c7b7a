import type { VariableId } from './grid-source.js';

/**
 * The values each variable can take on Earth, in its canonical units (VariableInfo), with room
 * around the observed extremes for a model grid's smoothing and error. Data from outside the
 * service (a synced GRIB2 run) with a value beyond them is corrupt, whatever it decoded to: a
 * wrong reference value or scale in a message yields numbers, not a decoding error.
 *
 * Extremes from the WMO Archive of Weather and Climate Extremes (https://wmo.asu.edu) unless said.
 */
export const PHYSICAL_BOUNDS: Readonly<Partial<Record<VariableId, readonly [min: number, max: number]>>> = {
  // 56.7 °C (Furnace Creek, 1913) and -89.2 °C (Vostok, 1983)
  air_temperature: [-95, 65],
  air_temperature_daily_max: [-95, 65],
  air_temperature_daily_min: [-95, 65],
  // the highest dewpoint reported is 35 °C (Dhahran, 2003); the lowest follow the coldest air
  dew_point_temperature: [-110, 40],
  // 108.38 kPa at sea level (Agata, 1968); about 33 kPa at the summit of Everest
  surface_air_pressure: [30, 110],
  // the strongest gust measured, 113.2 m/s at 10 m (Barrow Island, 1996), above any 2 m mean
  wind_speed: [0, 120],
  // 305 mm in an hour (Holt, Missouri, 1947)
  precipitation_rate: [0, 400],
  // an hour's mean at the surface stays below the solar constant, 1361 W m-2 (Kopp and Lean 2011)
  surface_downwelling_shortwave_flux_in_air: [0, 1400],
};
