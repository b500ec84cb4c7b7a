/**
 * Which GRIB parameters of each source a sync fetches, what they are in Fieldcast's terms, and
 * how they are found in the source's inventory (docs/decisions/0230-sync-sources-and-variables.md).
 *
 * GFS names are wgrib2's (NCEP's GRIB2 tables, as its `.idx` prints them); ECMWF names are the
 * MARS short names of its `.index`. The statistical processing a message carries (product
 * template 4.8) is checked against `statistic` when it is decoded (step.ts); the interval itself is
 * always read from the message, never assumed.
 */
import type { EcmwfIndexEntry, IdxEntry } from '@fieldcast/grib2';
import type { SourceName } from './sources.js';

/** Code table 4.5: the ground or water surface, and a height above ground (metres). */
const GROUND = { type: 1 };
const above = (metres: number) => ({ type: 103, value: metres });

/** What one fetched field holds. */
export type Quantity =
  | 'temperature'
  | 'dewpoint'
  | 'wind_u'
  | 'wind_v'
  | 'shortwave'
  | 'pressure'
  | 'precipitation'
  | 'temperature_max'
  | 'temperature_min'
  | 'categorical_rain'
  | 'categorical_freezing_rain'
  | 'categorical_ice_pellets'
  | 'categorical_snow'
  | 'precipitation_type';

/** Code table 4.10 process of a statistically processed field, or 'instant' for product template 4.0. */
export type Statistic = 'instant' | 'average' | 'accumulation' | 'maximum' | 'minimum';

export const STATISTIC_PROCESS: Record<Exclude<Statistic, 'instant'>, number> = { average: 0, accumulation: 1, maximum: 2, minimum: 3 };

export interface Parameter {
  quantity: Quantity;
  /** GFS `.idx` variable and level, or ECMWF `.index` param (a pattern for the ones whose name carries their period). */
  match: { variable: string; level: string } | { param: RegExp };
  /** Units of the message's values (UDUNITS spelling). */
  units: string;
  statistic: Statistic;
  /** Discipline, category and number (code tables 0.0, 4.1, 4.2) the message must carry, where the source follows WMO's tables. */
  wmo?: readonly [number, number, number];
  /**
   * The first fixed surface the message must be on (product templates 4.0 and 4.8 octets 23-28):
   * its code table 4.5 type, and for a height above ground (103) its metres. One parameter number
   * names a quantity on every level (0/0/0 is the temperature at 2 m and at 850 hPa alike).
   */
  surface: { type: number; value?: number };
  /**
   * Written by the source only in some runs or steps ("where present"); a step without it is still
   * whole. Statistics over intervals are not required at step 0 either, whose interval is empty.
   */
  optional?: boolean;
}

const GFS: readonly Parameter[] = [
  {
    quantity: 'temperature',
    match: { variable: 'TMP', level: '2 m above ground' },
    units: 'K',
    statistic: 'instant',
    wmo: [0, 0, 0],
    surface: above(2),
  },
  {
    quantity: 'dewpoint',
    match: { variable: 'DPT', level: '2 m above ground' },
    units: 'K',
    statistic: 'instant',
    wmo: [0, 0, 6],
    surface: above(2),
  },
  {
    quantity: 'wind_u',
    match: { variable: 'UGRD', level: '10 m above ground' },
    units: 'm s-1',
    statistic: 'instant',
    wmo: [0, 2, 2],
    surface: above(10),
  },
  {
    quantity: 'wind_v',
    match: { variable: 'VGRD', level: '10 m above ground' },
    units: 'm s-1',
    statistic: 'instant',
    wmo: [0, 2, 3],
    surface: above(10),
  },
  {
    quantity: 'pressure',
    match: { variable: 'PRES', level: 'surface' },
    units: 'Pa',
    statistic: 'instant',
    wmo: [0, 3, 0],
    surface: GROUND,
  },
  // GFS averages fluxes and accumulates precipitation over intervals restarted every 6 hours
  // (0-1, 0-2, ... 0-6, 6-7, ...; 3-hourly steps 120-123, 120-126, ...).
  {
    quantity: 'shortwave',
    match: { variable: 'DSWRF', level: 'surface' },
    units: 'W m-2',
    statistic: 'average',
    wmo: [0, 4, 7],
    surface: GROUND,
  },
  {
    quantity: 'precipitation',
    match: { variable: 'APCP', level: 'surface' },
    units: 'kg m-2',
    statistic: 'accumulation',
    wmo: [0, 1, 8],
    surface: GROUND,
  },
  // NCEP's categorical precipitation types at the step (NCEP GRIB2 table 4.2-0-1, local numbers
  // 192-195, each code table 4.222: 0 no, 1 yes), combined into one code (precipitation-type.ts).
  // A file holds their averages over the step's interval too (`0-6 hour ave fcst`, template 4.8):
  // fractions of the time, no category, never picked (pickFromIdx).
  ...(
    [
      ['categorical_rain', 'CRAIN', 192],
      ['categorical_freezing_rain', 'CFRZR', 193],
      ['categorical_ice_pellets', 'CICEP', 194],
      ['categorical_snow', 'CSNOW', 195],
    ] as const
  ).map(([quantity, variable, number]): Parameter => ({
    quantity,
    match: { variable, level: 'surface' },
    units: '1',
    statistic: 'instant',
    wmo: [0, 1, number],
    surface: GROUND,
    // A mask layer of the precipitation products, no variable of the contract: a run whose files
    // lack it syncs without it (precipitation-type.ts).
    optional: true,
  })),
  {
    quantity: 'temperature_max',
    match: { variable: 'TMAX', level: '2 m above ground' },
    units: 'K',
    statistic: 'maximum',
    wmo: [0, 0, 4],
    surface: above(2),
    optional: true,
  },
  {
    quantity: 'temperature_min',
    match: { variable: 'TMIN', level: '2 m above ground' },
    units: 'K',
    statistic: 'minimum',
    wmo: [0, 0, 5],
    surface: above(2),
    optional: true,
  },
];

const ECMWF: readonly Parameter[] = [
  { quantity: 'temperature', match: { param: /^2t$/ }, units: 'K', statistic: 'instant', wmo: [0, 0, 0], surface: above(2) },
  { quantity: 'dewpoint', match: { param: /^2d$/ }, units: 'K', statistic: 'instant', wmo: [0, 0, 6], surface: above(2) },
  { quantity: 'wind_u', match: { param: /^10u$/ }, units: 'm s-1', statistic: 'instant', wmo: [0, 2, 2], surface: above(10) },
  { quantity: 'wind_v', match: { param: /^10v$/ }, units: 'm s-1', statistic: 'instant', wmo: [0, 2, 3], surface: above(10) },
  { quantity: 'pressure', match: { param: /^sp$/ }, units: 'Pa', statistic: 'instant', wmo: [0, 3, 0], surface: GROUND },
  // Accumulated from the start of the forecast (ECMWF parameter database, ssrd paramId 169:
  // "accumulated (from the beginning of the forecast)", J m-2, https://confluence.ecmwf.int/x/2hAVAw;
  // IFS "Form of Output": "Precipitation forecasts are provided as values accumulated from the
  // start of the forecast integration", https://confluence.ecmwf.int/x/qCnlEw). Both are written at
  // step 0 over an empty interval.
  { quantity: 'shortwave', match: { param: /^ssrd$/ }, units: 'J m-2', statistic: 'accumulation', wmo: [0, 4, 7], surface: GROUND },
  { quantity: 'precipitation', match: { param: /^tp$/ }, units: 'm', statistic: 'accumulation', surface: GROUND },
  // Precipitation type at the step (ECMWF parameter database, paramId 260015, WMO 0/1/19 with the
  // values of WMO code table 4.201), mapped to the catalog's codes (precipitation-type.ts).
  {
    quantity: 'precipitation_type',
    match: { param: /^ptype$/ },
    units: '1',
    statistic: 'instant',
    wmo: [0, 1, 19],
    surface: GROUND,
    // A mask layer of the precipitation products, no variable of the contract: a run whose files
    // lack it syncs without it (precipitation-type.ts).
    optional: true,
  },
  // Extremes over the period its name gives (mx2t3: the last 3 hours, mx2t6: 6), where written.
  { quantity: 'temperature_max', match: { param: /^mx2t\d*$/ }, units: 'K', statistic: 'maximum', optional: true, surface: above(2) },
  { quantity: 'temperature_min', match: { param: /^mn2t\d*$/ }, units: 'K', statistic: 'minimum', optional: true, surface: above(2) },
];

export const PARAMETERS: Readonly<Record<SourceName, readonly Parameter[]>> = { 'gfs-0p25': GFS, 'ecmwf-ifs-0p25': ECMWF };

/** A parameter found in an inventory: where its message lies and which field of the message it is. */
export interface Pick {
  parameter: Parameter;
  offset: number;
  length: number | null;
  /** Index of the field within its message (wgrib2's `n.k` is field k - 1); 0 for a message of one field. */
  fieldIndex: number;
}

/** Start hour of a wgrib2 interval such as `5-6 hour acc fcst` or `0-1 day ave fcst`; null for an instant. */
function intervalStartHours(forecast: string): number | null {
  const m = /^(\d+)-\d+ (hour|day)/.exec(forecast);
  if (!m) return null;
  return Number(m[1]) * (m[2] === 'day' ? 24 : 1);
}

/**
 * The GFS `.idx` entries of `parameters`: an instant's among the entries at an instant, a
 * statistic's among those over an interval (a file may hold both of one variable and level, as
 * CRAIN at `6 hour fcst` and over `0-6 hour ave fcst`). When a file holds a statistic over several
 * intervals ending at the step, the one starting last is taken: the shortest, needing no earlier step.
 */
export function pickFromIdx(entries: readonly IdxEntry[], parameters: readonly Parameter[]): Pick[] {
  const picks: Pick[] = [];
  for (const parameter of parameters) {
    const { match } = parameter;
    if (!('variable' in match)) continue;
    const instant = parameter.statistic === 'instant';
    const candidates = entries.filter(
      (e) => e.variable === match.variable && e.level === match.level && (intervalStartHours(e.forecast) === null) === instant,
    );
    if (candidates.length === 0) continue;
    const best = candidates.reduce((a, b) => ((intervalStartHours(b.forecast) ?? -1) > (intervalStartHours(a.forecast) ?? -1) ? b : a));
    picks.push({ parameter, offset: best.offset, length: best.length, fieldIndex: best.field === null ? 0 : best.field - 1 });
  }
  return picks;
}

/** Hours in an ECMWF name's period suffix (mx2t3 -> 3); a plain name sorts last. */
const periodOf = (param: string) => Number(/(\d+)$/.exec(param)?.[1] ?? Infinity);

/** The ECMWF `.index` entries of `parameters` (single-level fields); of extremes over several periods, the shortest. */
export function pickFromEcmwfIndex(entries: readonly EcmwfIndexEntry[], parameters: readonly Parameter[]): Pick[] {
  const picks: Pick[] = [];
  for (const parameter of parameters) {
    const { match } = parameter;
    if (!('param' in match)) continue;
    const candidates = entries.filter((e) => e.levtype === 'sfc' && match.param.test(e.param));
    if (candidates.length === 0) continue;
    const best = candidates.reduce((a, b) => (periodOf(b.param) < periodOf(a.param) ? b : a));
    picks.push({ parameter, offset: best.offset, length: best.length, fieldIndex: 0 });
  }
  return picks;
}

/** Whether a step's inventory must list the parameter. */
export const requiredAt = (parameter: Parameter, step: number) => !parameter.optional && (step > 0 || parameter.statistic === 'instant');
