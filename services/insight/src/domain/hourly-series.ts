import { cellWeights, unwrapLongitudes, polygonsBBox } from '@fieldcast/geo';
import { RequestTooLargeError, UnavailableError } from '@fieldcast/kit';
import type { HourlyQuery } from '@fieldcast/schemas';
import { millimetresToInches } from '@fieldcast/science';
import {
  answeringSource,
  type BBox,
  centresWithin,
  ET_LEAD_HOURS,
  etLeadRefusal,
  type EtSite,
  evapotranspirationHours,
  type GridSource,
  type GridWindow,
  type PointSeries,
  shortCropEtHoursAt,
  shortwaveHours,
  type TimeRange,
  type VariableId,
  windHeightOf,
  windowParts,
} from '@fieldcast/weather';
import type { AssetRecord } from './assets.js';
import { HOUR_MS, type HourlyInputs, relativeHumidityHours } from './hourly-values.js';
import { productsJson, type SeriesHead, seriesJson } from './series-json.js';

export type HourlyQuantity = 'relative-humidity' | 'evapotranspiration';

/** Where a series is computed: a point (bilinear) or an asset (area-weighted cells). */
export type SeriesPlace = { latitude: number; longitude: number } | { asset: AssetRecord };

/**
 * Most work of one series request, in grid cells x hours read (the hours asked, the 24 read
 * before them for ET and the one after): the synthetic world refuses a read over 50 million
 * values, and ET reads five variables (docs/decisions/0111-hourly-series.md).
 */
export const MAX_SERIES_CELL_HOURS = 10_000_000;

/** A point is bilinear between the four grid points around it (docs/architecture.md §6). */
const POINT_CELLS = 4;

const UNITS = {
  'relative-humidity': { description: 'percent', label: '%' },
  millimeters: { description: 'millimeters per hour', label: 'mm/hr' },
  inches: { description: 'inches per hour', label: 'in/hr' },
} as const;

/** Rounding of served values (docs/decisions/0111-hourly-series.md). */
const round = (x: number, decimals: number) => {
  const f = 10 ** decimals;
  const r = Math.round(x * f) / f;
  return r === 0 ? 0 : r;
};

const missing = () =>
  new UnavailableError('weather_data_missing', 'The weather source has no values for some of these hours at this place; try again later');

/** The hours read: the lead hours, the series' hours and the hour after the last (hourly-values.ts). */
function inputRange(query: HourlyQuery, quantity: HourlyQuantity): { range: TimeRange; lead: number; hours: number } {
  const lead = quantity === 'evapotranspiration' ? ET_LEAD_HOURS : 0;
  const hours = Math.round((query.lastMs - query.firstMs) / HOUR_MS) + 1;
  return { range: { startMs: query.firstMs - lead * HOUR_MS, endMs: query.lastMs + HOUR_MS }, lead, hours };
}

/** Refuses, before anything is read, a series (or a batch of them) whose work is over the limit. */
export function checkWork(cellHours: number, subject: 'series' | 'batch' = 'series'): void {
  RequestTooLargeError.refuseOver(cellHours, {
    limit: MAX_SERIES_CELL_HOURS,
    subject,
    unit: 'cell-hours',
    meaning: 'weather grid cells x hours read',
    advice: subject === 'batch' ? 'Ask for fewer hours or fewer places.' : 'Ask for fewer hours or a smaller asset.',
  });
}

/** Index of the stamp at range.startMs in a series or window read for that range; a read that starts later lacks hours. */
function firstIndex(startMs: number, stepMs: number, rangeStartMs: number): number {
  const k = stepMs > 0 ? Math.round((rangeStartMs - startMs) / stepMs) : 0;
  if (k < 0) throw missing();
  return k;
}

interface Computed {
  values: Float64Array;
  /** each hour's products as JSON (series-json.ts productsJson) */
  products: string[];
}

/** The work of a point series in cell-hours: its four grid points x the hours read. */
export function pointSeriesWork(quantity: HourlyQuantity, query: HourlyQuery): number {
  const { lead, hours } = inputRange(query, quantity);
  return POINT_CELLS * (lead + hours + 1);
}

async function pointValues(source: GridSource, quantity: HourlyQuantity, lon: number, lat: number, query: HourlyQuery): Promise<Computed> {
  const { range, hours } = inputRange(query, quantity);
  checkWork(pointSeriesWork(quantity, query));
  const values = new Float64Array(hours);
  if (quantity === 'relative-humidity') {
    const [t, td] = await Promise.all([
      source.pointSeries('air_temperature', lon, lat, range),
      source.pointSeries('dew_point_temperature', lon, lat, range),
    ]);
    const k0 = firstIndex(t.startMs, t.stepMs, range.startMs);
    checkLength(t, k0 + hours + 1);
    relativeHumidityHours({ offset: k0, stride: 1, temperature: t.values, dewpoint: td.values }, 0, hours, values);
    return { values, products: productsJson((i) => t.productOf(k0 + i), 0, hours) };
  }
  // The ET of the hours at a point, as the alerts area's reference-ET rules read it (packages/weather hourly-et.ts).
  const et = await shortCropEtHoursAt(source, lon, lat, query.firstMs, hours);
  if (!et || et.values.some((v) => !Number.isFinite(v))) throw missing();
  return { values: et.values, products: productsJson((i) => et.airTemperature.productOf(i), et.first, hours) };
}

function checkLength(series: PointSeries, needed: number): void {
  if (series.values.length < needed) throw missing();
}

/** The asset in one longitude frame, the grid its weather comes on and the windows that hold its cells. */
function assetWindows(source: GridSource, asset: AssetRecord, range: TimeRange) {
  const { polygons } = unwrapLongitudes([asset.polygon]);
  const [w, s, e, n] = polygonsBBox(polygons);
  const grid = answeringSource(source, 'air_temperature', { bbox: [Math.max(-180, w), s, Math.min(180, e), n] }, range).grid;
  // the cells whose centres lie within half a cell of the asset's bbox
  const parts = windowParts(polygonsBBox(polygons), grid, 0.5);
  const cells = parts.reduce(
    (sum, p) => sum + centresWithin(p.bbox[0], p.bbox[2], grid.lon0, grid.dLon) * centresWithin(p.bbox[1], p.bbox[3], grid.lat0, grid.dLat),
    0,
  );
  return { polygons, parts, cells };
}

/** The work of an asset series in cell-hours: the cells of its windows x the hours read. Counted from the geometry and the grid alone. */
export function assetSeriesWork(source: GridSource, asset: AssetRecord, quantity: HourlyQuantity, query: HourlyQuery): number {
  const { range, lead, hours } = inputRange(query, quantity);
  return Math.max(1, assetWindows(source, asset, range).cells) * (lead + hours + 1);
}

async function assetValues(source: GridSource, quantity: HourlyQuantity, asset: AssetRecord, query: HourlyQuery): Promise<Computed> {
  const { range, lead, hours } = inputRange(query, quantity);
  const { polygons, parts, cells } = assetWindows(source, asset, range);
  checkWork(Math.max(1, cells) * (lead + hours + 1));
  const sums = new Float64Array(hours);
  let totalWeight = 0;
  let products: string[] | undefined;
  const one = new Float64Array(hours);
  const windHeight = windHeightOf(source);
  for (const part of parts) {
    const read = await readWindows(source, quantity, part.bbox, range);
    const t = read.temperature;
    if (t.lats.length === 0 || t.lons.length === 0) continue;
    const lons = Float64Array.from(t.lons, (lon) => lon + part.shift);
    const weights = cellWeights(polygons, { lats: t.lats, lons, dLat: t.dLat, dLon: t.dLon });
    const nCells = t.lats.length * t.lons.length;
    const k0 = firstIndex(t.startMs, t.stepMs, range.startMs);
    if (t.nt < k0 + lead + hours + 1) throw missing();
    const kp = read.pressure ? firstIndex(read.pressure.startMs, read.pressure.stepMs, range.startMs) : 0;
    products ??= productsJson((i) => t.productOf(k0 + i), lead, hours);
    const swHours = read.shortwave ? shortwaveHours(read.shortwave, range.startMs, lead + hours) : [];
    for (let c = 0; c < nCells; c++) {
      const weight = weights[c] as number;
      if (!(weight > 0)) continue;
      const inputs: HourlyInputs = {
        offset: k0 * nCells + c,
        stride: nCells,
        temperature: t.values,
        dewpoint: read.dewpoint.values,
        ...(read.shortwave ? { shortwave: { values: read.shortwave.values, offset: c, hours: swHours } } : {}),
        ...(read.windSpeed ? { windSpeed: read.windSpeed.values } : {}),
        ...(read.pressure ? { pressure: { values: read.pressure.values, offset: kp * nCells + c } } : {}),
      };
      if (quantity === 'relative-humidity') relativeHumidityHours(inputs, lead, hours, one);
      else {
        const i = Math.floor(c / t.lons.length),
          j = c % t.lons.length;
        // without a ground height, each hour's own pressure gives it (packages/weather hourly-et.ts)
        const site: EtSite = { latitude: t.lats[i] as number, longitude: t.lons[j] as number, elevation: read.elevation?.[c], windHeight };
        evapotranspirationHours(inputs, site, range.startMs, lead, hours, one);
      }
      for (let h = 0; h < hours; h++) sums[h]! += weight * (one[h] as number);
      totalWeight += weight;
    }
  }
  // An asset too small for any cell to count it (under a billionth of a cell, packages/geo
  // cellWeights) is its centroid.
  if (!(totalWeight > 0) || !products) return pointValues(source, quantity, asset.centroid.longitude, asset.centroid.latitude, query);
  for (let h = 0; h < hours; h++) sums[h]! /= totalWeight;
  return { values: sums, products };
}

interface AssetWindows {
  temperature: GridWindow;
  dewpoint: GridWindow;
  shortwave?: GridWindow;
  windSpeed?: GridWindow;
  pressure?: GridWindow;
  /** ground height per cell of the temperature window, when the source has it on the same cells */
  elevation?: Float64Array;
}

async function readWindows(source: GridSource, quantity: HourlyQuantity, bbox: BBox, range: TimeRange): Promise<AssetWindows> {
  if (quantity === 'relative-humidity') {
    const [temperature, dewpoint] = await Promise.all([
      source.window('air_temperature', bbox, range),
      source.window('dew_point_temperature', bbox, range),
    ]);
    return { temperature, dewpoint };
  }
  const inputs = await source.etInputsIn(bbox, range).catch((err: unknown) => {
    throw etLeadRefusal(err);
  });
  const t = inputs.airTemperature;
  let elevation: Float64Array | undefined;
  if (source.variables().some((v) => v.id === ('surface_altitude' satisfies VariableId))) {
    const z = await source.window('surface_altitude', bbox, { startMs: range.startMs, endMs: range.startMs });
    if (z.lats.length === t.lats.length && z.lons.length === t.lons.length) {
      elevation = Float64Array.from(z.values.subarray(0, z.lats.length * z.lons.length), (v) => (Number.isFinite(v) ? v : 0));
    }
  }
  return {
    temperature: t,
    dewpoint: inputs.dewpoint,
    shortwave: inputs.shortwave,
    windSpeed: inputs.windSpeed,
    pressure: inputs.pressure,
    ...(elevation ? { elevation } : {}),
  };
}

/**
 * An hourly series of relative humidity or short-crop ET (spec 2.7, 4.5) as its JSON text (the
 * HourlySeries schema): at a point, bilinear between grid points; over an asset, the mean of the
 * covered cells weighted by the area of each cell's intersection with the asset (packages/geo
 * cellWeights, as a field's mean), with the asset's centroid as latitude and longitude.
 */
export async function hourlySeriesJson(
  source: GridSource,
  quantity: HourlyQuantity,
  place: SeriesPlace,
  query: HourlyQuery,
): Promise<string> {
  const at = 'asset' in place ? place.asset.centroid : place;
  const computed =
    'asset' in place
      ? await assetValues(source, quantity, place.asset, query)
      : await pointValues(source, quantity, place.longitude, place.latitude, query);
  const inches = quantity === 'evapotranspiration' && query.unit === 'inches';
  const decimals = quantity === 'relative-humidity' ? 1 : inches ? 4 : 3;
  const served = computed.values;
  for (let h = 0; h < served.length; h++) {
    const v = served[h] as number;
    if (!Number.isFinite(v)) throw missing();
    served[h] = round(inches ? millimetresToInches(v) : v, decimals);
  }
  const head: SeriesHead = {
    latitude: at.latitude,
    longitude: at.longitude,
    startTime: query.startTime,
    endTime: query.endTime,
    unit: UNITS[quantity === 'relative-humidity' ? 'relative-humidity' : query.unit],
    ...('asset' in place ? { asset: `/assets/${place.asset.id}` } : {}),
  };
  return seriesJson(head, query.firstMs, served, computed.products);
}
