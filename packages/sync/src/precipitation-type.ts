/**
 * Precipitation type in the codes the catalog's styles mask by (`PRECIPITATION_TYPE`,
 * packages/weather: 0 none, 1 rain, 2 snow, 3 freezing rain, 4 ice pellets), from what each
 * source writes (docs/decisions/0502-precipitation-type-synced-from-the-sources.md). A value that
 * is no code of the source's table is refused with the step, as any value no weather reaches.
 */
import { PRECIPITATION_TYPE } from '@fieldcast/weather';
import { StepDataError } from './errors.js';
import type { Quantity } from './parameters.js';

const { none, rain, snow, freezingRain, icePellets } = PRECIPITATION_TYPE;

/**
 * GFS's categorical fields (NCEP GRIB2 table 4.2-0-1: 192 CRAIN, 193 CFRZR, 194 CICEP, 195 CSNOW,
 * each NCEP code table 4.222: 0 no, 1 yes), in NCEP's precedence: where several are yes, the first
 * of them, as NCEP's post-processor breaks ties between the types its algorithms find, "to favor
 * the most dangerous form of precip: freezing rain > snow > sleet > rain" (UPP CALWXT_DOMINANT,
 * NOAA-EMC/UPP sorc/ncep_post.fd/CALWXT_DOMINANT.f; "sleet" there is ice pellets). Where all are
 * no, nothing falls: NCEP sets all four to 0 where the model's precipitation is at or below its
 * threshold.
 */
export const GFS_CATEGORIES: ReadonlyArray<{ quantity: Quantity; name: string; code: number }> = [
  { quantity: 'categorical_freezing_rain', name: 'CFRZR', code: freezingRain },
  { quantity: 'categorical_snow', name: 'CSNOW', code: snow },
  { quantity: 'categorical_ice_pellets', name: 'CICEP', code: icePellets },
  { quantity: 'categorical_rain', name: 'CRAIN', code: rain },
];

/**
 * ECMWF's `ptype` (paramId 260015, https://codes.ecmwf.int/grib/param-db/260015) takes these values
 * of WMO code table 4.201 (0 is its "no precipitation"). Wet snow is snow starting to melt, and a
 * mixture of rain and snow (ECMWF, "Types of precipitation", https://confluence.ecmwf.int/x/28dPF)
 * is drawn as snow, the first of its two by NCEP's precedence above; freezing drizzle is
 * supercooled liquid freezing on contact, the catalog's freezing rain. The table's other values
 * (2 thunderstorm, 4 mixed/ice, 9 graupel, 10 hail, 11 drizzle) are no type ptype writes: refused
 * rather than guessed, as a change of what the parameter holds.
 */
export const ECMWF_PTYPE: ReadonlyMap<number, number> = new Map([
  [0, none],
  [1, rain],
  [3, freezingRain],
  [5, snow],
  [6, snow],
  [7, snow],
  [8, icePellets],
  [12, freezingRain],
]);

/** The catalog's codes from GFS's four categorical fields at one step; NaN where any is missing. */
export function fromGfsCategories(step: number, flags: ReadonlyMap<Quantity, Float32Array>): Float32Array {
  const missing = GFS_CATEGORIES.filter((c) => !flags.has(c.quantity));
  if (missing.length)
    throw new StepDataError(
      `step ${step} h: ${missing.map((c) => c.name).join(', ')} missing beside the other categorical precipitation types`,
    );
  const fields = GFS_CATEGORIES.map((c) => ({ ...c, values: flags.get(c.quantity)! }));
  const out = new Float32Array(fields[0]!.values.length);
  for (let k = 0; k < out.length; k++) {
    let code: number = none;
    for (const f of fields) {
      const v = f.values[k]!;
      if (Number.isNaN(v)) {
        code = NaN;
        break;
      }
      if (v !== 0 && v !== 1)
        throw new StepDataError(`step ${step} h: ${f.name} is ${v} at grid point ${k}, neither 0 nor 1 (NCEP code table 4.222)`);
      if (v === 1 && code === none) code = f.code;
    }
    out[k] = code;
  }
  return out;
}

/** The catalog's codes from ECMWF's ptype at one step; NaN where it is missing. */
export function fromEcmwfPtype(step: number, ptype: Float32Array): Float32Array {
  const out = new Float32Array(ptype.length);
  for (let k = 0; k < ptype.length; k++) {
    const v = ptype[k]!;
    const code = Number.isNaN(v) ? NaN : ECMWF_PTYPE.get(v);
    if (code === undefined)
      throw new StepDataError(
        `step ${step} h: ptype is ${v} at grid point ${k}, no precipitation type ECMWF's ptype writes (WMO code table 4.201: ${[...ECMWF_PTYPE.keys()].join(', ')})`,
      );
    out[k] = code;
  }
  return out;
}

/**
 * The step's precipitation type in the catalog's codes, or null when the step holds none (a run's
 * step 0 may not, and a source's files may lack it: the parameters are optional). GFS's categories
 * come together or not at all.
 */
export function precipitationTypeAt(step: number, values: ReadonlyMap<Quantity, Float32Array>): Float32Array | null {
  const ptype = values.get('precipitation_type');
  if (ptype) return fromEcmwfPtype(step, ptype);
  if (!GFS_CATEGORIES.some((c) => values.has(c.quantity))) return null;
  return fromGfsCategories(step, values);
}
