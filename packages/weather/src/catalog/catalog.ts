/**
 * The catalog the areas share (docs/architecture.md §4 and §6): products, models and data-transfer
 * products, code-defined defaults plus an optional YAML override, validated with zod at load.
 * Also the deterministic rules derived from them: product time ranges and records, frame and
 * forecast ids, default styles with their ids.
 *
 * This package never reads process.env: the caller passes the override path (from its env.ts).
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { forecastBoundaryMs } from '../grid/grid-source.js';
import { forecastRunSchedule, isoInstant, latestProductRun } from './product-runs.js';
import { DEFAULT_MODELS, DEFAULT_PRODUCTS, DEFAULT_TRANSFER_PRODUCTS, modelId, productId } from './defaults.js';
import {
  catalogOverrideSchema,
  type CatalogOverride,
  type Colorizer,
  type ModelDef,
  modelDefSchema,
  type ProductDef,
  productDefSchema,
  type StyleableLayer,
  type TransferProductDef,
  transferProductDefSchema,
} from './schema.js';
import { fieldcastId, isUuid } from '@fieldcast/ids';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** The catalog could not be loaded: unreadable file, bad YAML, or contents that fail validation. */
export class CatalogError extends Error {
  override name = 'CatalogError';
}

/** Spec 2.4 product record. */
export interface ProductRecord {
  id: string;
  name: string;
  description: string;
  contentType: string;
  source: string;
  startTime: string;
  endTime: string;
  aggregationPeriodInMinutes: number;
  coverage: ProductDef['coverage'];
  frames: string | null;
  forecasts: string | null;
  styles: string;
  styleableLayers: StyleableLayer[];
}

/** Spec 2.3 style record of a product's default style. */
export interface DefaultStyle {
  id: string;
  name: string;
  description: string;
  layerName: string;
  colorizers: Colorizer[];
  isDefault: true;
  productId: string;
}

/** Spec 2.5 data-transfer product record. */
export interface TransferProductRecord {
  name: string;
  datasets: string;
  format: 'GeoTIFF' | 'NetCDF';
}

export interface LoadCatalogOptions {
  /** path of a YAML override file (see catalogOverrideSchema); none means the defaults alone */
  overridePath?: string;
}

function issues(error: z.ZodError, where: string): string {
  return error.issues.map((i) => `${where}${i.path.length ? '.' + i.path.join('.') : ''}: ${i.message}`).join('; ');
}

function validate<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new CatalogError(`invalid catalog entry: ${issues(r.error, where)}`);
  return r.data;
}

/** Applies an override list to defaults: patch by name, add new, drop removed. */
function merge<T extends { name: string }>(
  defaults: readonly T[],
  patches: Record<string, unknown>[] | undefined,
  remove: string[] | undefined,
  schema: z.ZodType<T>,
  kind: string,
  deriveId: ((name: string) => string) | null,
): T[] {
  const byName = new Map<string, unknown>(defaults.map((d) => [d.name, structuredClone(d)]));
  for (const name of remove ?? []) {
    if (!byName.delete(name)) throw new CatalogError(`override removes unknown ${kind} ${name}`);
  }
  for (const patch of patches ?? []) {
    const name = String(patch.name);
    const base = byName.get(name);
    const merged: Record<string, unknown> = base ? { ...(base as Record<string, unknown>), ...patch } : { ...patch };
    if (deriveId && merged.id === undefined) merged.id = deriveId(name);
    byName.set(name, merged);
  }
  return [...byName.entries()].map(([name, v]) => validate(schema, v, `${kind} ${name}`));
}

export class Catalog {
  private readonly productsByKey = new Map<string, ProductDef>();
  private readonly modelsByKey = new Map<string, ModelDef>();
  private readonly transferByName = new Map<string, TransferProductDef>();

  constructor(
    readonly productDefs: readonly ProductDef[],
    readonly modelDefs: readonly ModelDef[],
    readonly transferProductDefs: readonly TransferProductDef[],
  ) {
    for (const p of productDefs) {
      this.index(this.productsByKey, p.id.toLowerCase(), p, 'product id');
      this.index(this.productsByKey, p.name, p, 'product name');
      const layers = new Set(p.styleableLayers.map((l) => l.name));
      for (const s of p.defaultStyles) {
        if (!layers.has(s.layerName))
          throw new CatalogError(`product ${p.name}: default style ${s.name} names unknown layer ${s.layerName}`);
        for (const c of s.colorizers) {
          if (!c.mask) continue;
          const layer = p.styleableLayers.find((l) => l.name === c.mask?.layerName);
          if (!layer) throw new CatalogError(`product ${p.name}: style ${s.name} masks with unknown layer ${c.mask.layerName}`);
          for (const a of c.mask.attributes) {
            if (!layer.attributes.some((x) => x.name.replace(/\s+/g, '_') === a.replace(/\s+/g, '_'))) {
              throw new CatalogError(`product ${p.name}: style ${s.name} masks with unknown attribute ${a} of ${layer.name}`);
            }
          }
        }
      }
    }
    for (const m of modelDefs) {
      this.index(this.modelsByKey, m.id.toLowerCase(), m, 'model id');
      this.index(this.modelsByKey, m.name, m, 'model name');
      const names = new Set<string>();
      for (const v of m.variables) {
        if (names.has(v.name)) throw new CatalogError(`model ${m.name}: duplicate variable ${v.name}`);
        names.add(v.name);
      }
    }
    for (const t of transferProductDefs) this.index(this.transferByName, t.name, t, 'transfer product name');
  }

  private index<T>(map: Map<string, T>, key: string, value: T, what: string): void {
    if (map.has(key)) throw new CatalogError(`duplicate ${what} ${key}`);
    map.set(key, value);
  }

  products(): readonly ProductDef[] {
    return this.productDefs;
  }

  /** A product by id (UUID, any case) or name (spec 4.3/4.6: the name is usable in place of the id). */
  product(idOrName: string): ProductDef | undefined {
    return this.productsByKey.get(isUuid(idOrName) ? idOrName.toLowerCase() : idOrName);
  }

  models(): readonly ModelDef[] {
    return this.modelDefs;
  }

  /** A model by id or name. */
  model(idOrName: string): ModelDef | undefined {
    return this.modelsByKey.get(isUuid(idOrName) ? idOrName.toLowerCase() : idOrName);
  }

  transferProducts(): readonly TransferProductDef[] {
    return this.transferProductDefs;
  }

  transferProduct(name: string): TransferProductDef | undefined {
    return this.transferByName.get(name);
  }
}

/** The catalog from the defaults and an optional, already parsed override object. */
export function createCatalog(override?: unknown): Catalog {
  let o: CatalogOverride = {};
  if (override !== undefined && override !== null) {
    const r = catalogOverrideSchema.safeParse(override);
    if (!r.success) throw new CatalogError(`invalid catalog override: ${issues(r.error, 'override')}`);
    o = r.data;
  }
  const products = merge(DEFAULT_PRODUCTS, o.products, o.remove?.products, productDefSchema, 'product', productId);
  const models = merge(DEFAULT_MODELS, o.models, o.remove?.models, modelDefSchema, 'model', modelId);
  const transfer = merge(
    DEFAULT_TRANSFER_PRODUCTS,
    o.transferProducts,
    o.remove?.transferProducts,
    transferProductDefSchema,
    'transfer product',
    null,
  );
  return new Catalog(products, models, transfer);
}

/** Parses override YAML text into a catalog. */
export function catalogFromYaml(text: string, where = 'override'): Catalog {
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (e) {
    throw new CatalogError(`${where}: not valid YAML: ${(e as Error).message}`);
  }
  return createCatalog(parsed ?? undefined);
}

/** The catalog: defaults, plus the YAML file at options.overridePath when given. */
export async function loadCatalog(options: LoadCatalogOptions = {}): Promise<Catalog> {
  if (!options.overridePath) return createCatalog();
  let text: string;
  try {
    text = await readFile(options.overridePath, 'utf8');
  } catch (e) {
    throw new CatalogError(`cannot read catalog override ${options.overridePath}: ${(e as Error).message}`);
  }
  return catalogFromYaml(text, options.overridePath);
}

// ---- Rules derived from the definitions ----

/**
 * Time range of a product's frames at wall-clock nowMs: from its startTime to, for a product with
 * forecasts, the last valid time of its latest published run (its init time plus its horizon, and
 * never before the forecast boundary), else the forecast boundary plus its horizon; floored to its
 * cadence (aligned on startTime). A static product (cadence 0) reports startTime for both
 * (docs/decisions/0120-product-frames-and-forecast-runs.md).
 */
export function productTimeRange(p: ProductDef, nowMs: number): { startMs: number; endMs: number } {
  const startMs = Date.parse(p.startTime);
  if (p.cadenceMinutes === 0) return { startMs, endMs: startMs };
  const step = p.cadenceMinutes * MINUTE_MS;
  const boundary = forecastBoundaryMs(nowMs);
  let last: number;
  if (forecastRunSchedule(p)) {
    const latest = latestProductRun(p, nowMs);
    last = latest ? Math.max(boundary, latest.initMs + p.horizonHours * HOUR_MS) : boundary;
  } else {
    last = boundary + p.horizonHours * HOUR_MS;
  }
  return { startMs, endMs: startMs + Math.floor((last - startMs) / step) * step };
}

/**
 * The id of the product an account's grant must name for it to see `p` when `p` is restricted
 * (docs/decisions/0121-product-access.md): its own, or for a synced source's product the catalog
 * product it is made from (docs/decisions/0408-synced-products-granted-with-their-catalog-product.md).
 */
export function grantedProductId(p: Pick<ProductDef, 'id' | 'grantedWith'>): string {
  return p.grantedWith ?? p.id;
}

/** The spec 2.4 record of a product at wall-clock nowMs. */
export function productRecord(p: ProductDef, nowMs: number): ProductRecord {
  const range = productTimeRange(p, nowMs);
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    contentType: p.contentType,
    source: p.source,
    startTime: isoInstant(range.startMs),
    endTime: isoInstant(range.endMs),
    aggregationPeriodInMinutes: p.aggregationPeriodInMinutes,
    coverage: structuredClone(p.coverage),
    frames: p.hasFrames ? `/products/${p.id}/frames` : null,
    forecasts: p.hasForecasts ? `/products/${p.id}/forecasts` : null,
    // Styles are served by the tiles area (spec 4.3).
    styles: `/v2/products/${p.id}/styles.json`,
    styleableLayers: structuredClone(p.styleableLayers),
  };
}

/** Frame id: UUID v5 of (product name, valid time), the same in every service (docs/architecture.md §3). */
export function frameId(p: Pick<ProductDef, 'name'>, validMs: number): string {
  return fieldcastId(`frame:${p.name}:${isoInstant(validMs)}`);
}

/** The default styles of a product as spec 2.3 Style records. */
export function defaultStyles(p: ProductDef): DefaultStyle[] {
  return p.defaultStyles.map((s) => ({
    id: fieldcastId('style', p.name, s.name),
    name: s.name,
    description: s.description,
    layerName: s.layerName,
    colorizers: structuredClone(s.colorizers),
    isDefault: true,
    productId: p.id,
  }));
}

/** The spec 2.5 record of a data-transfer product. */
export function transferProductRecord(t: TransferProductDef): TransferProductRecord {
  return { name: t.name, datasets: `/products/${encodeURIComponent(t.name)}/datasets`, format: t.format };
}

/** Forecast id: UUID v5 of (model name, init time). */
export function forecastId(m: Pick<ModelDef, 'name'>, initMs: number): string {
  return fieldcastId('forecast', m.name, isoInstant(initMs));
}

/** Valid times of a run: init + k * stepHours up to the horizon. */
export function forecastValidTimes(m: ModelDef, initMs: number): number[] {
  const out: number[] = [];
  for (let h = 0; h <= m.horizonHours; h += m.stepHours) out.push(initMs + h * HOUR_MS);
  return out;
}

/** Id of one variable of one forecast run: UUID v5 of (forecast id, variable name). */
export function forecastVariableId(forecast: string, variableName: string): string {
  return fieldcastId('forecast-variable', forecast, variableName);
}
