/**
 * The variables of the synthetic source with their CF standard names (CF Standard Name Table)
 * and UDUNITS units.
 */
import type { VariableInfo } from '../grid/grid-source.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** The hour centred on the stamp: radiation.ts integrates the sun over it. */
const CENTRED_HOUR = [-HOUR / 2, HOUR / 2] as const;

export const SYNTHETIC_VARIABLES: readonly VariableInfo[] = [
  {
    id: 'air_temperature',
    standardName: 'air_temperature',
    cellMethods: '',
    units: 'degC',
    description: 'Air temperature at 2 m',
    stepMs: HOUR,
  },
  {
    id: 'dew_point_temperature',
    standardName: 'dew_point_temperature',
    cellMethods: '',
    units: 'degC',
    description: 'Dewpoint temperature at 2 m',
    stepMs: HOUR,
  },
  {
    id: 'surface_downwelling_shortwave_flux_in_air',
    standardName: 'surface_downwelling_shortwave_flux_in_air',
    cellMethods: 'time: mean',
    units: 'W m-2',
    description: 'Incoming shortwave radiation at the surface, mean over the hour centred on the time',
    stepMs: HOUR,
    timeCell: CENTRED_HOUR,
  },
  {
    id: 'surface_downwelling_shortwave_flux_in_air_assuming_clear_sky',
    standardName: 'surface_downwelling_shortwave_flux_in_air_assuming_clear_sky',
    cellMethods: 'time: mean',
    units: 'W m-2',
    description: 'Clear-sky shortwave radiation at the surface (ASCE-EWRI 2005 Rso), mean over the hour centred on the time',
    stepMs: HOUR,
    timeCell: CENTRED_HOUR,
  },
  { id: 'wind_speed', standardName: 'wind_speed', cellMethods: '', units: 'm s-1', description: 'Wind speed at 2 m', stepMs: HOUR },
  {
    id: 'surface_air_pressure',
    standardName: 'surface_air_pressure',
    cellMethods: '',
    units: 'kPa',
    description: 'Air pressure at the surface',
    stepMs: HOUR,
  },
  {
    id: 'precipitation_rate',
    standardName: 'lwe_precipitation_rate',
    cellMethods: '',
    units: 'mm h-1',
    description: 'Precipitation rate, liquid water equivalent',
    stepMs: HOUR,
  },
  {
    id: 'precipitation_type',
    // CF has no standard name for precipitation type; the code list is in the description.
    standardName: '',
    cellMethods: '',
    units: '1',
    description: 'Precipitation type: 0 none, 1 rain, 2 snow, 3 freezing rain, 4 ice pellets',
    stepMs: HOUR,
  },
  {
    id: 'air_temperature_daily_max',
    standardName: 'air_temperature',
    cellMethods: 'time: maximum',
    units: 'degC',
    description: 'Maximum of the hourly 2 m air temperature over the local solar day, stamped 00:00Z of the date',
    stepMs: DAY,
  },
  {
    id: 'air_temperature_daily_min',
    standardName: 'air_temperature',
    cellMethods: 'time: minimum',
    units: 'degC',
    description: 'Minimum of the hourly 2 m air temperature over the local solar day, stamped 00:00Z of the date',
    stepMs: DAY,
  },
  {
    id: 'surface_altitude',
    standardName: 'surface_altitude',
    cellMethods: '',
    units: 'm',
    description: 'Terrain height above sea level',
    stepMs: 0,
  },
];

const BY_ID = new Map<string, VariableInfo>(SYNTHETIC_VARIABLES.map((v) => [v.id, v]));

export function syntheticVariable(id: string): VariableInfo | undefined {
  return BY_ID.get(id);
}
