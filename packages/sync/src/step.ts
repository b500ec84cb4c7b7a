/**
 * One step of one run: its inventory read, the messages of the wanted parameters fetched by
 * range and decoded, each checked to be what the inventory said (parameter, level, run, valid time,
 * statistic) on one grid; then, step after step, converted to Fieldcast's variables.
 */
import { type GribField, GribError, type LatLonGrid, decodeField, parseEcmwfIndex, parseIdx, readFields } from '@fieldcast/grib2';
import { timeUnitSeconds } from '@fieldcast/grib2';
import { PHYSICAL_BOUNDS, type VariableId } from '@fieldcast/weather';
import { IntervalRates, statisticInterval, toCanonical, windSpeedAt2mFromComponents } from './convert.js';
import { MessageRangeError, StepDataError } from './errors.js';
import { precipitationTypeAt } from './precipitation-type.js';
import type { SourceHttp } from './http.js';
import {
  PARAMETERS,
  type Parameter,
  type Pick,
  type Quantity,
  STATISTIC_PROCESS,
  pickFromEcmwfIndex,
  pickFromIdx,
  requiredAt,
} from './parameters.js';
import { type SourceFacts, stepUrls } from './sources.js';

const HOUR_MS = 3_600_000;

export interface DecodedParameter {
  parameter: Parameter;
  field: GribField;
  /** Values on `grid`, rows north to south, in the message's units. */
  values: Float32Array;
}

export interface DecodedStep {
  source: SourceFacts['name'];
  runMs: number;
  step: number;
  grid: LatLonGrid;
  parameters: Map<Quantity, DecodedParameter>;
}

const sameGrid = (a: LatLonGrid, b: LatLonGrid) =>
  a.ni === b.ni && a.nj === b.nj && a.lat0 === b.lat0 && a.lon0 === b.lon0 && a.dLat === b.dLat && a.dLon === b.dLon;

/** Why the field is not the parameter of this run and step the inventory named, or null. */
function mismatch(field: GribField, parameter: Parameter, runMs: number, step: number): string | null {
  const { wmo, statistic } = parameter;
  const p = field.product;
  if (wmo && (field.discipline !== wmo[0] || p.category !== wmo[1] || p.number !== wmo[2]))
    return `holds parameter ${field.discipline}/${p.category}/${p.number}, not ${parameter.quantity} (${wmo.join('/')})`;
  const [at, wanted] = [p.firstSurface, parameter.surface];
  if (at.type !== wanted.type || (wanted.value !== undefined && at.value !== wanted.value))
    return `is on fixed surface ${at.type} at ${at.value ?? 'no value'} (code table 4.5), not ${parameter.quantity}'s ${wanted.type}${wanted.value === undefined ? '' : ` at ${wanted.value}`}`;
  if (field.referenceTimeMs !== runMs) return `is of the run of ${new Date(field.referenceTimeMs).toISOString()}`;
  const validMs = runMs + step * HOUR_MS;
  if (statistic === 'instant') {
    if (p.template !== 0) return `is statistically processed (product template 4.${p.template}), ${parameter.quantity} is not`;
    const atMs = runMs + timeUnitSeconds(p.timeUnit, p.forecastTime) * 1000;
    if (atMs !== validMs) return `is valid at ${new Date(atMs).toISOString()}, not step ${step} h`;
    return null;
  }
  if (p.template !== 8) return `is not statistically processed (product template 4.${p.template}), ${parameter.quantity} is a ${statistic}`;
  const process = p.statistics?.[0]?.process;
  if (process !== STATISTIC_PROCESS[statistic])
    return `has statistical process ${process} (code table 4.10), ${parameter.quantity} is a ${statistic}`;
  const { endMs } = statisticInterval(field);
  if (endMs !== validMs) return `covers an interval ending ${new Date(endMs).toISOString()}, not at step ${step} h`;
  return null;
}

/**
 * The most grid points a field of a source may have: a 0.1° globe (3600 x 1801) with room. A
 * constant field takes no bits per point, so a few corrupt octets of section 3 could otherwise
 * declare billions of points, each a float the decoder would allocate.
 */
const MAX_GRID_POINTS = 8_000_000;

/** Fetches and decodes the wanted parameters of one step of a run from a source below `http`'s base URL. */
export async function readStep(http: SourceHttp, source: SourceFacts, baseUrl: string, runMs: number, step: number): Promise<DecodedStep> {
  const urls = stepUrls(source, baseUrl, runMs, step);
  const text = await http.text(urls.inventory);
  const parameters = PARAMETERS[source.name];
  let picks: Pick[];
  try {
    picks = source.inventory === 'idx' ? pickFromIdx(parseIdx(text), parameters) : pickFromEcmwfIndex(parseEcmwfIndex(text), parameters);
  } catch (error) {
    // An inventory that does not parse (an error page served as 200) is the upstream's fault, retried like one.
    if (error instanceof GribError) throw new StepDataError(`${urls.inventory}: ${error.message}`);
    throw error;
  }
  const missing = parameters.filter((p) => requiredAt(p, step) && !picks.some((k) => k.parameter === p));
  if (missing.length) throw new StepDataError(`${urls.inventory} lists no ${missing.map((p) => p.quantity).join(', ')}`);

  const messages = await http.messages(
    urls.file,
    picks.map((p) => ({ offset: p.offset, length: p.length, name: p.parameter.quantity })),
  );
  const decoded = new Map<Quantity, DecodedParameter>();
  let grid: LatLonGrid | undefined;
  for (const [k, pick] of picks.entries()) {
    const fail = (detail: string) => new MessageRangeError(urls.file, pick.offset, pick.length, `${pick.parameter.quantity}: ${detail}`);
    let field: GribField | undefined;
    try {
      field = readFields(messages[k]!)[pick.fieldIndex];
    } catch (error) {
      throw fail(error instanceof Error ? error.message : String(error));
    }
    if (!field) throw fail(`the message has no field ${pick.fieldIndex + 1}`);
    const wrong = mismatch(field, pick.parameter, runMs, step);
    if (wrong) throw fail(`the message ${wrong}`);
    if (grid && !sameGrid(grid, field.grid))
      throw new StepDataError(
        `${urls.file}: ${pick.parameter.quantity} is on a ${field.grid.ni} x ${field.grid.nj} grid from ${field.grid.lat0}, ${field.grid.lon0}, unlike the step's other fields`,
      );
    if (field.grid.ni * field.grid.nj > MAX_GRID_POINTS)
      throw fail(
        `the message's grid of ${field.grid.ni} x ${field.grid.nj} points is larger than any source publishes (${MAX_GRID_POINTS})`,
      );
    grid ??= field.grid;
    let values: Float32Array;
    try {
      values = await decodeField(field);
    } catch (error) {
      if (error instanceof GribError) throw fail(error.message);
      throw error;
    }
    decoded.set(pick.parameter.quantity, { parameter: pick.parameter, field, values });
  }
  return { source: source.name, runMs, step, grid: grid!, parameters: decoded };
}

/** One variable at one step, in its canonical units (grid-source.ts). */
export interface ConvertedField {
  variable: VariableId;
  /**
   * What the values stand for: an instant (`startMs === endMs`: precipitation_type too, in the
   * catalog's codes), a mean rate over (startMs, endMs]
   * (shortwave, precipitation), or an extreme over [startMs, endMs] (the daily extremes' inputs).
   */
  startMs: number;
  endMs: number;
  values: Float32Array;
}

const INSTANT: Partial<Record<Quantity, VariableId>> = {
  temperature: 'air_temperature',
  dewpoint: 'dew_point_temperature',
  pressure: 'surface_air_pressure',
};
const RATES: Partial<Record<Quantity, { variable: VariableId; perSecondUnits: Record<string, string> }>> = {
  shortwave: { variable: 'surface_downwelling_shortwave_flux_in_air', perSecondUnits: { 'W m-2': 'W m-2', 'J m-2': 'W m-2' } },
  precipitation: { variable: 'precipitation_rate', perSecondUnits: { 'kg m-2': 'kg m-2 s-1', m: 'm s-1' } },
};
const EXTREMES: Partial<Record<Quantity, VariableId>> = {
  temperature_max: 'air_temperature_daily_max',
  temperature_min: 'air_temperature_daily_min',
};

/** Converts the steps of one run, in order, to Fieldcast's variables; it keeps what differencing needs. */
export class RunConverter {
  private readonly rates = new IntervalRates();

  convert(step: DecodedStep): ConvertedField[] {
    const out: ConvertedField[] = [];
    const validMs = step.runMs + step.step * HOUR_MS;
    for (const [quantity, { parameter, field, values }] of step.parameters) {
      const instant = INSTANT[quantity];
      if (instant) out.push({ variable: instant, startMs: validMs, endMs: validMs, values: toCanonical(instant, parameter.units, values) });
      const rate = RATES[quantity];
      if (rate) {
        const r = this.rates.rate(quantity, field, values, { nonNegative: true });
        const units = rate.perSecondUnits[parameter.units];
        if (!units) throw new StepDataError(`${quantity} in ${parameter.units} has no rate units`);
        if (r)
          out.push({ variable: rate.variable, startMs: r.startMs, endMs: r.endMs, values: toCanonical(rate.variable, units, r.perSecond) });
      }
      const extreme = EXTREMES[quantity];
      if (extreme) out.push({ variable: extreme, ...statisticInterval(field), values: toCanonical(extreme, parameter.units, values) });
    }
    const type = precipitationTypeAt(step.step, new Map([...step.parameters].map(([q, d]) => [q, d.values])));
    if (type) out.push({ variable: 'precipitation_type', startMs: validMs, endMs: validMs, values: type });
    const u = step.parameters.get('wind_u');
    const v = step.parameters.get('wind_v');
    if (u && v) {
      const height = [u, v].map((w) => w.field.product.firstSurface);
      // Code table 4.5 type 103: specified height above ground, in metres.
      if (height.some((s) => s.type !== 103 || s.value === null || s.value !== height[0]!.value))
        throw new StepDataError(`wind components are not at one height above ground`);
      out.push({
        variable: 'wind_speed',
        startMs: validMs,
        endMs: validMs,
        values: windSpeedAt2mFromComponents(u.values, v.values, height[0]!.value!),
      });
    }
    for (const field of out) checkBounds(step.step, field);
    return out;
  }
}

/** Refuses a field with a value no weather reaches (PHYSICAL_BOUNDS); NaN is a missing value, kept. */
function checkBounds(step: number, field: ConvertedField): void {
  const bounds = PHYSICAL_BOUNDS[field.variable];
  if (!bounds) return;
  const [min, max] = bounds;
  const { values } = field;
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    if (v < min || v > max)
      throw new StepDataError(
        `step ${step} h: ${field.variable} is ${v} at grid point ${k}, outside ${min} to ${max}, which no weather reaches`,
      );
  }
}
