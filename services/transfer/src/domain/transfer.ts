/**
 * The transfer area's domain (docs/interface.md §9): the products this weather fills, the
 * datasets of a day as records, and a dataset's file from the cache, made on first request.
 * Nothing here knows HTTP; the routes give it the base address links are made from.
 */
import { type Catalog, type GridSource, transferProductRecord, type TransferProductRecord } from '@fieldcast/weather';
import { NotFoundError, UnavailableError } from '@fieldcast/kit';
import type { TransferDataset } from '@fieldcast/schemas';
import type { z } from 'zod';
import { restrictingProducts } from './access.js';
import { grantedAll, type GrantLookup } from '@fieldcast/runtime';
import {
  cacheKey,
  checkDate,
  type Dataset,
  datasetsOfDay,
  dayStart,
  findDataset,
  findProduct,
  FORMATS,
  servedProducts,
  type TransferProduct,
} from './datasets.js';
import type { CachedFile, FileCache } from './file-cache.js';
import { MakingTimes } from './making-times.js';
import { SyncedTransferProducts } from './synced-products.js';
import type { ProductionQueue } from './production-queue.js';
import type { UrlSigner } from './signing.js';

type DatasetRecord = z.infer<typeof TransferDataset>;

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Whether a product's files each hold several time steps (an hourly NetCDF of a day), rather than one or none. */
const holdsSeveralSteps = (product: TransferProduct) => product.stepMs > 0 && product.cadenceMs > product.stepMs;

/** The path of a dataset's file on the transfer area, as links carry it and signatures cover it. */
export function datasetPath(product: string, dataset: string): string {
  return `/products/${encodeURIComponent(product)}/datasets/${encodeURIComponent(dataset)}`;
}

export interface TransferDeps {
  catalog: Catalog;
  weather: GridSource;
  /** the area's copy of the platform's grants of restricted products (docs/decisions/0397-transfer-products-follow-product-grants.md) */
  grants: GrantLookup;
  cache: FileCache;
  signer: UrlSigner;
  queue: ProductionQueue;
  /** how long a request waits for a file being made before it is answered 503 with Retry-After */
  waitMs: number;
  /**
   * writes a dataset's file at a path (in a worker thread or inline: dataset-maker.ts) and returns
   * its size, telling `progress` the share of its rows written as it goes
   */
  make: (dataset: Dataset, path: string, progress: (done: number) => void) => Promise<number>;
  now: () => Date;
  /** what files took to make in this process, for the list's estimate of a file not made yet */
  times?: MakingTimes;
}

/** Values a dataset's file holds: cells x steps x variables, what its making time is measured per. */
function valuesOf(dataset: Dataset): number {
  const { grid, variables } = dataset.product;
  return grid.lats.length * grid.lons.length * Math.max(1, dataset.times.length) * variables.length;
}

export class Transfer {
  private readonly served: TransferProduct[];
  private readonly synced: SyncedTransferProducts;
  private readonly times: MakingTimes;

  constructor(private readonly deps: TransferDeps) {
    this.served = servedProducts(deps.catalog, deps.weather);
    this.synced = new SyncedTransferProducts(deps.catalog, deps.weather);
    this.times = deps.times ?? new MakingTimes();
  }

  /** The catalog's products, then the synced sources' (docs/decisions/0340-synced-transfer-products.md). */
  private all(): TransferProduct[] {
    const synced = this.synced.products();
    return synced.length === 0 ? this.served : [...this.served, ...synced];
  }

  /**
   * Whether the account may see the product: every account, unless it carries the variable of a
   * restricted catalog product, then only an account granted each such product
   * (docs/decisions/0397-transfer-products-follow-product-grants.md).
   */
  private visibleTo(product: TransferProduct, account: string): Promise<boolean> {
    return grantedAll(this.deps.grants, account, restrictingProducts(this.deps.catalog, product.def));
  }

  /** The product by name as the account sees it: one it may not see is as missing as an unknown one (docs/decisions/0121-product-access.md). */
  private async visible(productName: string, account: string): Promise<TransferProduct> {
    const product = findProduct(this.all(), productName);
    if (!(await this.visibleTo(product, account))) throw new NotFoundError('product', productName);
    return product;
  }

  /** Spec 2.5 records of the products the account may see, the catalog's in its order, then the synced sources'. */
  async products(account: string): Promise<TransferProductRecord[]> {
    const records: TransferProductRecord[] = [];
    for (const p of this.all()) if (await this.visibleTo(p, account)) records.push(transferProductRecord(p.def));
    return records;
  }

  /** The records of a product's datasets of one day (today, UTC, by default), with links signed for the account. */
  async datasets(productName: string, date: string | undefined, account: string, base: string): Promise<DatasetRecord[]> {
    const product = await this.visible(productName, account);
    const now = this.deps.now();
    const day = date === undefined ? dayStart(now.toISOString().slice(0, 10)) : checkDate(date, product, this.deps.weather, now.getTime());
    const records: DatasetRecord[] = [];
    for (const dataset of datasetsOfDay(product, day, this.deps.weather, now.getTime())) {
      const key = cacheKey(dataset, this.deps.weather, now.getTime());
      const made = await this.deps.cache.peek(key);
      const readyMs = made ? undefined : this.times.estimateMs(key, product.def.name, valuesOf(dataset));
      records.push(this.record(dataset, made, readyMs, account, base));
    }
    return records;
  }

  private record(
    dataset: Dataset,
    made: CachedFile | undefined,
    readyMs: number | undefined,
    account: string,
    base: string,
  ): DatasetRecord {
    const { def, variables, grid } = dataset.product;
    const path = datasetPath(def.name, dataset.name);
    const signed = this.deps.signer.sign(path, account);
    const query = new URLSearchParams({ account, expires: String(signed.expires), signature: signed.signature });
    return {
      name: dataset.name,
      product: def.name,
      format: def.format,
      // By the product, not by the steps a day holds: a file of several steps says validTimes even
      // where the weather covers one of them (docs/decisions/0512-valid-times-by-the-product.md).
      ...(holdsSeveralSteps(dataset.product)
        ? { validTimes: dataset.times.map(iso) }
        : { validTime: dataset.times.length === 1 ? iso(dataset.times[0]!) : null }),
      variables: variables.map((v) => ({
        name: v.id,
        standardName: v.standardName,
        units: v.units,
        description: v.description,
        cellMethods: v.cellMethods,
      })),
      bounds: grid.extent,
      resolution: grid.resolution,
      width: grid.lons.length,
      height: grid.lats.length,
      ...(made ? { size: made.size, checksum: `sha256:${made.sha256}` } : {}),
      // Whole seconds, at least one: a file not made is never "ready in 0".
      ...(readyMs !== undefined ? { readyInSeconds: Math.max(1, Math.ceil(readyMs / 1000)) } : {}),
      mediaType: FORMATS[def.format].mediaType,
      downloadUrl: `${base}${path}?${query.toString()}`,
      downloadUrlExpires: iso(signed.expires * 1000),
    };
  }

  /** The media type of a product's files (404 for a product unknown to the account). */
  async mediaType(productName: string, account: string): Promise<string> {
    return FORMATS[(await this.visible(productName, account)).def.format].mediaType;
  }

  /**
   * The dataset's file for the account, made from the weather on first request (one making for
   * simultaneous requests). The account's grants are read at each download, so a link signed
   * before a revocation stops with it.
   */
  async file(
    productName: string,
    datasetName: string,
    account: string,
  ): Promise<{ dataset: Dataset; file: CachedFile; mediaType: string }> {
    const product = await this.visible(productName, account);
    // One instant for the file's steps and its key, so the key names the steps found.
    const nowMs = this.deps.now().getTime();
    const dataset = findDataset(product, datasetName, this.deps.weather, nowMs);
    const { extension, mediaType } = FORMATS[product.def.format];
    const key = cacheKey(dataset, this.deps.weather, nowMs);
    const making = this.deps.cache.get(key, extension, (path) => this.deps.queue.run(() => this.make(key, dataset, path)));
    const file = await this.within(making, dataset.name);
    return { dataset, file, mediaType };
  }

  /** Makes the file, timed for the list's estimates (making-times.ts). */
  private async make(key: string, dataset: Dataset, path: string): Promise<number> {
    this.times.started(key, dataset.product.def.name, valuesOf(dataset));
    let ok = false;
    try {
      const size = await this.deps.make(dataset, path, (done) => this.times.progress(key, done));
      ok = true;
      return size;
    } finally {
      this.times.ended(key, ok);
    }
  }

  /**
   * The file, if it is ready within the wait; else FileNotReady while the making goes on, so the
   * next request finds it (docs/decisions/0163-download-cache.md). A client or proxy waiting for
   * headers for minutes would give up anyway.
   */
  private async within(making: Promise<CachedFile>, name: string): Promise<CachedFile> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new FileNotReady(name, RETRY_AFTER_SECONDS)), this.deps.waitMs);
    });
    // A making that fails after the wait is reported to the next request, not lost as an unhandled rejection.
    making.catch(() => undefined);
    try {
      return await Promise.race([making, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** How long a client is told to wait before asking again for a file being made. */
const RETRY_AFTER_SECONDS = 30;

/** The file is being made and was not ready within the wait: 503, with the seconds to wait before asking again. */
export class FileNotReady extends UnavailableError {
  constructor(
    name: string,
    readonly retryAfterSeconds: number,
  ) {
    super('dataset_being_made', `${name} is being made from the weather; ask again in ${retryAfterSeconds} s`);
  }
}
