/**
 * Data-transfer products and their datasets (spec 2.5, 4.9; docs/interface.md §9;
 * docs/decisions/0162-dataset-grids-and-names.md): which products the weather can fill, the
 * datasets of a day, their names and the file each one is.
 */
import { calendarMs } from '@fieldcast/calendar';
import { createHash } from 'node:crypto';
import { InvalidRequestError, NotFoundError } from '@fieldcast/kit';
import {
  type BBox,
  type Catalog,
  forecastBoundaryMs,
  type GridSource,
  isRoutingSource,
  type ProductDef,
  TRANSFER_DEFAULT_BBOX,
  TRANSFER_DEFAULT_RESOLUTION,
  type TransferProductDef,
  type VariableId,
  type VariableInfo,
  variableFramesEndMs,
} from '@fieldcast/weather';
import { datasetGrid, type DatasetGrid } from './grid-rows.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Spec 4.1 and docs/interface.md §9: datasets from the first day of 2015. */
export const FIRST_DATE = '2015-01-01';

export type Format = TransferProductDef['format'];

/** The file name extension and media type of each format. */
export const FORMATS: Record<Format, { extension: string; mediaType: string }> = {
  GeoTIFF: { extension: 'tif', mediaType: 'image/tiff' },
  // The registered type of NetCDF files (Unidata; RFC 6838 x- subtype in common use).
  NetCDF: { extension: 'nc', mediaType: 'application/x-netcdf' },
};

/** A transfer product the weather can fill: its definition with its variables and grid resolved. */
export interface TransferProduct {
  def: TransferProductDef;
  variables: VariableInfo[];
  /** the variables' time step, ms; 0 for static fields */
  stepMs: number;
  /** ms between datasets; 0 for one static dataset */
  cadenceMs: number;
  grid: DatasetGrid;
  /** where a synced source's product is read from (synced-products.ts); absent for the catalog's, read from the weather served */
  synced?: SyncedOrigin;
  /**
   * the catalog's products, whose frames a catalog product's files end with (lastValidMs); absent
   * for a synced product, which its stores bound
   */
  framedBy?: readonly ProductDef[];
}

/** A synced source's product's origin (docs/decisions/0340-synced-transfer-products.md). */
export interface SyncedOrigin {
  /** the synced source, `gfs-0p25` */
  source: string;
  /** its stores stitched in time, with nothing behind them */
  weather: GridSource;
  /** their locations, in the order read, for a thread to open again */
  stores: string[];
  /** changes whenever a value the stores hold for the product may have: each store's location and time axes */
  version: string;
  /** whether one of its stores holds the variable's step at ms */
  holds(variable: VariableId, ms: number): boolean;
}

/** The weather a product is read from: its synced source's stores, or the weather served. */
export function weatherOf(product: TransferProduct, served: GridSource): GridSource {
  return product.synced?.weather ?? served;
}

/** One file of a product: its name and its valid times (none for a static field). */
export interface Dataset {
  product: TransferProduct;
  name: string;
  /** first valid time the weather holds, epoch ms (the first synced, for a synced product); null for a static field */
  startMs: number | null;
  times: number[];
}

/**
 * The product, or why it cannot be served from this weather: its variables must all be the
 * source's, share one time step, and a GeoTIFF (no time axis) must hold one step per file.
 */
export function resolveProduct(def: TransferProductDef, source: GridSource): TransferProduct | string {
  const known = new Map(source.variables().map((v) => [v.id, v]));
  const ids = [def.variable, ...(def.additionalVariables ?? [])];
  const variables = ids.map((id) => known.get(id));
  if (variables.some((v) => v === undefined)) return `the weather lacks one of ${ids.join(', ')}`;
  const steps = new Set(variables.map((v) => v!.stepMs));
  if (steps.size > 1) return 'its variables have different time steps';
  const stepMs = variables[0]!.stepMs;
  const cadenceMs = def.cadenceMinutes * MINUTE_MS;
  if (stepMs > 0 && (cadenceMs === 0 || cadenceMs % stepMs !== 0)) return 'its cadence is not a whole number of time steps';
  if (def.format === 'GeoTIFF' && cadenceMs !== stepMs) return 'a GeoTIFF holds one time step';
  return {
    def,
    variables: variables as VariableInfo[],
    stepMs,
    cadenceMs,
    grid: datasetGrid(def.bbox ?? TRANSFER_DEFAULT_BBOX, def.resolution ?? TRANSFER_DEFAULT_RESOLUTION),
  };
}

/** The catalog's transfer products that this weather can fill, in catalog order. */
export function servedProducts(catalog: Catalog, source: GridSource): TransferProduct[] {
  return catalog.transferProducts().flatMap((def) => {
    const product = resolveProduct(def, source);
    return typeof product === 'string' ? [] : [{ ...product, framedBy: catalog.products() }];
  });
}

export function findProduct(products: readonly TransferProduct[], name: string): TransferProduct {
  const product = products.find((p) => p.def.name === name);
  if (!product) throw new NotFoundError('product', name);
  return product;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** 2024-06-01 at 00:00 -> 20240601; at another time of day -> 20240601T0600Z. */
function stamp(ms: number, daily: boolean): string {
  const d = new Date(ms);
  const day = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
  return daily ? day : `${day}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}Z`;
}

function datasetAt(product: TransferProduct, startMs: number | null): Dataset {
  const { extension } = FORMATS[product.def.format];
  if (startMs === null) return { product, name: `${product.def.name}.${extension}`, startMs: null, times: [] };
  const times: number[] = [];
  for (let t = startMs; t < startMs + product.cadenceMs; t += product.stepMs) times.push(t);
  const daily = product.cadenceMs % DAY_MS === 0;
  return { product, name: `${product.def.name}_${stamp(startMs, daily)}.${extension}`, startMs, times };
}

/**
 * The dataset as its weather holds it at nowMs, or null when it holds none of it: the steps of its
 * period that the weather holds, one after another, under the period's name. A catalog product's
 * are those from the weather's start to lastValidMs (the last day of the forecast holds its hours
 * up to the forecast's end, docs/decisions/0424-partial-days-listed-with-their-hours.md); a synced
 * product's those the source's stores hold for every variable (a day partly synced holds its
 * hours synced, docs/decisions/0340-synced-transfer-products.md).
 */
function held(dataset: Dataset, source: GridSource, nowMs: number): Dataset | null {
  const { synced, variables, stepMs } = dataset.product;
  if (dataset.startMs === null) return dataset;
  const holds = synced ? (t: number) => variables.every((v) => synced.holds(v.id, t)) : covers(dataset.product, source, nowMs);
  const times = dataset.times.filter(holds);
  if (times.length === 0 || times.some((t, i) => i > 0 && t - times[i - 1]! !== stepMs)) return null;
  return { ...dataset, startMs: times[0]!, times };
}

/**
 * The dataset with its variables as the store that answers all of it describes them: a synced or
 * ingested store holding every cell and hour of the dataset (a synced run's CF long names and cell
 * methods, docs/decisions/0315-synced-sources-as-products.md), else as the weather does. The
 * records, the cache key and the file's metadata all read them from here.
 */
export function answered(dataset: Dataset, source: GridSource): Dataset {
  if (dataset.startMs === null || !isRoutingSource(source)) return dataset;
  const { lats, lons } = dataset.product.grid;
  const bbox: BBox = [lons[0]!, lats[lats.length - 1]!, lons[lons.length - 1]!, lats[0]!];
  const when = { startMs: dataset.times[0]!, endMs: dataset.times[dataset.times.length - 1]! };
  let changed = false;
  const variables = dataset.product.variables.map((v) => {
    const store = source.sourceForPointsIn(v.id, bbox, when);
    const described = store && store !== source ? store.variables().find((x) => x.id === v.id) : undefined;
    if (!described || described === v) return v;
    changed = true;
    return described;
  });
  return changed ? { ...dataset, product: { ...dataset.product, variables } } : dataset;
}

/**
 * The last valid time a product's files may hold at nowMs: the end of its weather's coverage and,
 * for a catalog product, no later than the last frame the catalog's products over each of its
 * variables show, which for a forecast product is its newest published run's last valid time. So
 * a file's forecast hours are those the platform's frames, the tiles and the model area's runs list
 * (docs/decisions/0508-transfer-files-end-with-the-published-runs.md). A variable no product shows
 * in frames is bounded by the weather alone.
 */
function lastValidMs(product: TransferProduct, source: GridSource, nowMs: number): number {
  let end = source.coverage().endMs;
  for (const v of product.framedBy ? product.variables : []) {
    const shown = variableFramesEndMs(product.framedBy!, v.id, nowMs);
    if (shown !== null && shown < end) end = shown;
  }
  return end;
}

/** Whether a valid time is within what a product's files may hold at nowMs. */
function covers(product: TransferProduct, source: GridSource, nowMs: number): (ms: number) => boolean {
  const startMs = source.coverage().startMs;
  const endMs = lastValidMs(product, source, nowMs);
  return (ms) => ms >= startMs && ms <= endMs;
}

/** The epoch ms of 00:00Z of a YYYY-MM-DD date. */
export function dayStart(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/**
 * The dates a list may be asked for at nowMs: from FIRST_DATE to the day the product's forecast
 * ends (lastValidMs, docs/interface.md §9). A date outside them is the request's fault.
 */
export function checkDate(date: string, product: TransferProduct, served: GridSource, nowMs: number): number {
  const source = weatherOf(product, served);
  const start = dayStart(date);
  const last = new Date(lastValidMs(product, source, nowMs)).toISOString().slice(0, 10);
  if (!Number.isFinite(start) || date < FIRST_DATE || date > last) {
    throw new InvalidRequestError('date_out_of_range', `date must be from ${FIRST_DATE} to ${last}, the end of the forecast`, [
      { path: 'date', message: `must be from ${FIRST_DATE} to ${last}` },
    ]);
  }
  return start;
}

/** The datasets of a product whose period begins on the day starting at dayMs, each with the steps the weather holds at nowMs. */
export function datasetsOfDay(product: TransferProduct, dayMs: number, served: GridSource, nowMs: number): Dataset[] {
  if (product.cadenceMs === 0) return [datasetAt(product, null)];
  const source = weatherOf(product, served);
  const out: Dataset[] = [];
  for (let t = Math.ceil(dayMs / product.cadenceMs) * product.cadenceMs; t < dayMs + DAY_MS; t += product.cadenceMs) {
    const dataset = held(datasetAt(product, t), source, nowMs);
    if (dataset) out.push(answered(dataset, source));
  }
  return out;
}

/** The dataset of a product by its file name, if it names one the weather covers at nowMs. */
export function findDataset(product: TransferProduct, name: string, served: GridSource, nowMs: number): Dataset {
  const source = weatherOf(product, served);
  const missing = () => new NotFoundError('dataset', name);
  if (product.cadenceMs === 0) {
    const only = datasetAt(product, null);
    if (only.name !== name) throw missing();
    return only;
  }
  const prefix = `${product.def.name}_`;
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})Z)?\.([a-z]+)$/.exec(name.startsWith(prefix) ? name.slice(prefix.length) : '');
  if (!m) throw missing();
  const startMs = calendarMs(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0));
  if (startMs === null || startMs % product.cadenceMs !== 0) throw missing();
  const named = datasetAt(product, startMs);
  // The round trip refuses what parses but is not the canonical name (20240631, a T0000Z suffix on a daily product).
  const dataset = named.name === name ? held(named, source, nowMs) : null;
  if (!dataset) throw missing();
  return answered(dataset, source);
}

/** A change of any writer's output changes this, so no file made by an older writer is served again. */
export const WRITER_VERSION = 9;

/**
 * The cache key of a dataset's file: a hash of everything its bytes depend on. Its valid times are
 * in it, so the last day of the forecast, which grows as each run is published (lastValidMs), is
 * made again then (docs/decisions/0508-transfer-files-end-with-the-published-runs.md). Files that
 * hold a forecast (a valid time after the forecast boundary) carry the boundary too, so they are
 * made again each hour from the newest forecast; a synced product's carry its stores' version
 * instead, so a new run or analysis hour makes them again, and nothing else does.
 */
export function cacheKey(dataset: Dataset, served: GridSource, nowMs: number): string {
  const { def, grid, synced } = dataset.product;
  const source = weatherOf(dataset.product, served);
  // A synced file changes with its stores alone, which its version names.
  const boundary = forecastBoundaryMs(nowMs);
  const forecast = !synced && dataset.times.some((t) => t > boundary);
  const inputs = {
    writer: WRITER_VERSION,
    format: def.format,
    name: dataset.name,
    description: def.description,
    variables: dataset.product.variables,
    times: dataset.times,
    bounds: grid.bounds,
    resolution: grid.resolution,
    source: { id: source.id, label: source.label, grid: source.grid },
    ...(synced ? { stores: synced.version } : {}),
    ...(forecast ? { forecastFrom: boundary } : {}),
  };
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
}
