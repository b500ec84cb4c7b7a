/**
 * Recognising Fieldcast variables in CF-described data (CF conventions 1.11, sections 3.1
 * "units", 3.3 "standard_name", 7.3 "cell_methods") and converting their units to the ones
 * the GridSource contract promises (grid-source.ts). Stores keep the data in the units they
 * arrived in; conversion happens on read, so an ingested store stays a lossless copy.
 */
import { knotsToMetresPerSecond } from '@fieldcast/science';
import type { VariableId } from '../grid/grid-source.js';
import { normaliseUnits, unitsSpelling } from './udunits.js';

/** Canonical units per VariableId, as documented in grid-source.ts. */
export const CANONICAL_UNITS: Record<VariableId, string> = {
  air_temperature: 'degC',
  dew_point_temperature: 'degC',
  surface_downwelling_shortwave_flux_in_air: 'W m-2',
  surface_downwelling_shortwave_flux_in_air_assuming_clear_sky: 'W m-2',
  wind_speed: 'm s-1',
  surface_air_pressure: 'kPa',
  precipitation_rate: 'mm h-1',
  precipitation_type: '1',
  air_temperature_daily_max: 'degC',
  air_temperature_daily_min: 'degC',
  surface_altitude: 'm',
};

export const VARIABLE_IDS = Object.keys(CANONICAL_UNITS) as VariableId[];

/** CF standard name and cell_methods written for each VariableId. */
export const CF_IDENTITY: Record<VariableId, { standardName: string; cellMethods: string; longName: string }> = {
  air_temperature: { standardName: 'air_temperature', cellMethods: '', longName: '2 m air temperature' },
  dew_point_temperature: { standardName: 'dew_point_temperature', cellMethods: '', longName: '2 m dewpoint temperature' },
  surface_downwelling_shortwave_flux_in_air: {
    standardName: 'surface_downwelling_shortwave_flux_in_air',
    cellMethods: 'time: mean',
    longName: 'incoming shortwave radiation',
  },
  surface_downwelling_shortwave_flux_in_air_assuming_clear_sky: {
    standardName: 'surface_downwelling_shortwave_flux_in_air_assuming_clear_sky',
    cellMethods: 'time: mean',
    longName: 'clear-sky shortwave radiation',
  },
  wind_speed: { standardName: 'wind_speed', cellMethods: '', longName: '2 m wind speed' },
  surface_air_pressure: { standardName: 'surface_air_pressure', cellMethods: '', longName: 'surface air pressure' },
  precipitation_rate: { standardName: 'lwe_precipitation_rate', cellMethods: 'time: mean', longName: 'precipitation rate' },
  // No CF standard name exists for a precipitation type code; recognised by name only.
  precipitation_type: {
    standardName: '',
    cellMethods: '',
    longName: 'precipitation type (0 none, 1 rain, 2 snow, 3 freezing rain, 4 ice pellets)',
  },
  air_temperature_daily_max: {
    standardName: 'air_temperature',
    cellMethods: 'time: maximum',
    longName: 'daily maximum 2 m air temperature',
  },
  air_temperature_daily_min: {
    standardName: 'air_temperature',
    cellMethods: 'time: minimum',
    longName: 'daily minimum 2 m air temperature',
  },
  surface_altitude: { standardName: 'surface_altitude', cellMethods: '', longName: 'surface altitude' },
};

/** value_in_canonical = value * scale + offset */
export interface UnitConversion {
  scale: number;
  offset: number;
}

const IDENTITY: UnitConversion = { scale: 1, offset: 0 };

/** A table of conversions written in UDUNITS-2 spellings, keyed by unitsSpelling. */
function bySpelling(table: Record<string, UnitConversion>): ReadonlyMap<string, UnitConversion> {
  return new Map(
    Object.entries(table).map(([units, conversion]) => {
      const key = unitsSpelling(units);
      if (key === null) throw new Error(`conversion from "${units}", which is no UDUNITS-2 spelling of the units known`);
      return [key, conversion];
    }),
  );
}

type Quantity = 'temperature' | 'pressure' | 'precip' | 'speed' | 'flux' | 'length' | 'code';

const QUANTITY: Record<VariableId, Quantity> = {
  air_temperature: 'temperature',
  dew_point_temperature: 'temperature',
  air_temperature_daily_max: 'temperature',
  air_temperature_daily_min: 'temperature',
  surface_downwelling_shortwave_flux_in_air: 'flux',
  surface_downwelling_shortwave_flux_in_air_assuming_clear_sky: 'flux',
  wind_speed: 'speed',
  surface_air_pressure: 'pressure',
  precipitation_rate: 'precip',
  precipitation_type: 'code',
  surface_altitude: 'length',
};

/**
 * Whether a variable's values are codes of a table (precipitation_type): a point between grid
 * points or steps takes one of theirs, never a blend, as a mix of two codes names neither
 * (docs/decisions/0502-precipitation-type-synced-from-the-sources.md).
 */
export const isCategorical = (variable: VariableId): boolean => QUANTITY[variable] === 'code';

/**
 * The units each quantity is read in, one entry per unit: every spelling UDUNITS-2 reads as that
 * unit converts (names in any case, symbols by their case, prefixes by name or symbol), and no
 * other. A unit UDUNITS-2 reads as the right dimension but that no entry lists (the megametre
 * "Mm", the megapascal) is refused, as a likely slip of case (docs/decisions/0373-units-read-as-udunits-reads-them.md).
 */
const CONVERSIONS: Record<Quantity, ReadonlyMap<string, UnitConversion>> = {
  temperature: bySpelling({
    '°C': IDENTITY,
    K: { scale: 1, offset: -273.15 },
    '°F': { scale: 5 / 9, offset: (-32 * 5) / 9 },
  }),
  pressure: bySpelling({
    kPa: IDENTITY,
    Pa: { scale: 1e-3, offset: 0 },
    hPa: { scale: 0.1, offset: 0 },
    mbar: { scale: 0.1, offset: 0 },
  }),
  // Liquid water: 1 kg m-2 of water is 1 mm deep.
  precip: bySpelling({
    'mm h-1': IDENTITY,
    'mm s-1': { scale: 3600, offset: 0 },
    'm s-1': { scale: 3.6e6, offset: 0 },
    'kg m-2 s-1': { scale: 3600, offset: 0 },
    'kg m-2 h-1': IDENTITY,
  }),
  speed: bySpelling({
    'm s-1': IDENTITY,
    'km h-1': { scale: 1 / 3.6, offset: 0 },
    kt: { scale: knotsToMetresPerSecond(1), offset: 0 },
  }),
  flux: bySpelling({ 'W m-2': IDENTITY }),
  length: bySpelling({ m: IDENTITY, km: { scale: 1000, offset: 0 } }),
  code: bySpelling({ '1': IDENTITY, '': IDENTITY }),
};

/** Conversion from `units` to the VariableId's canonical units, or null if not convertible. */
export function unitConversion(variable: VariableId, units: string | undefined): UnitConversion | null {
  const spelling = unitsSpelling(units ?? '');
  return spelling === null ? null : (CONVERSIONS[QUANTITY[variable]].get(spelling) ?? null);
}

/** What UDUNITS makes of a units string that is read as no temperature, where one is often meant. */
const NOT_TEMPERATURES: Record<string, string> = {
  C: '"C" is the coulomb, a unit of electric charge',
  c: '"c" is no temperature unit',
  k: '"k" is no unit ("K" is the kelvin)',
};

/**
 * Why an array that is a contract variable by its name or standard_name cannot be served as it:
 * its units do not convert to the variable's (CF 1.11 section 3.3: a standard name fixes the
 * units' dimension), or null when they do or when the array is no contract variable. Ingest
 * refuses such a file rather than store the array as one it would not serve.
 */
export function unitsFault(name: string, attrs: { standard_name?: unknown; cell_methods?: unknown; units?: unknown }): string | null {
  const variable = contractVariable(name, attrs);
  const units = typeof attrs.units === 'string' ? attrs.units : undefined;
  if (variable === null || unitConversion(variable, units)) return null;
  const spelled = normaliseUnits(units ?? '');
  const why = QUANTITY[variable] === 'temperature' ? NOT_TEMPERATURES[spelled] : undefined;
  const hint = QUANTITY[variable] === 'temperature' ? '; degrees Celsius are "degC" or "degree_Celsius", kelvin "K"' : '';
  return `variable "${name}" (${variable}): units "${units ?? ''}" cannot be read as ${CANONICAL_UNITS[variable]}${why ? ` (in UDUNITS ${why})` : ''}${hint} (CF 1.11 section 3.1)`;
}

function hasTimeMethod(cellMethods: string, method: string): boolean {
  return new RegExp(`\\btime\\s*:\\s*${method}\\b`).test(cellMethods);
}

/**
 * Which VariableId a CF variable is, if any. The array's own name wins when it is a
 * VariableId (Fieldcast stores); otherwise standard_name, with cell_methods telling daily
 * extremes from instantaneous temperature (CF 7.3). Units must be convertible, else null.
 */
export function identifyVariable(
  name: string,
  attrs: { standard_name?: unknown; cell_methods?: unknown; units?: unknown },
): VariableId | null {
  const units = typeof attrs.units === 'string' ? attrs.units : undefined;
  const id = contractVariable(name, attrs);
  return id !== null && unitConversion(id, units) ? id : null;
}

/** The VariableId an array stands for by its name or standard_name and cell_methods, whatever its units. */
function contractVariable(name: string, attrs: { standard_name?: unknown; cell_methods?: unknown }): VariableId | null {
  if ((VARIABLE_IDS as string[]).includes(name)) return name as VariableId;
  const sn = typeof attrs.standard_name === 'string' ? attrs.standard_name.trim() : '';
  const cm = typeof attrs.cell_methods === 'string' ? attrs.cell_methods : '';
  switch (sn) {
    case 'air_temperature':
      if (hasTimeMethod(cm, 'maximum')) return 'air_temperature_daily_max';
      if (hasTimeMethod(cm, 'minimum')) return 'air_temperature_daily_min';
      return 'air_temperature';
    case 'dew_point_temperature':
    case 'surface_downwelling_shortwave_flux_in_air':
    case 'surface_downwelling_shortwave_flux_in_air_assuming_clear_sky':
    case 'wind_speed':
    case 'surface_air_pressure':
    case 'surface_altitude':
      return sn;
    case 'precipitation_flux':
    case 'lwe_precipitation_rate':
      return 'precipitation_rate';
    default:
      return null;
  }
}
