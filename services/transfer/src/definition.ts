import { join } from 'node:path';
import { Api } from '@fieldcast/kit';
import { datasetMaker, DATASET_WORKER } from './dataset-maker.js';
import { defineService, ProductGrantCopy, productGrantsConsumer } from '@fieldcast/runtime';
import { productGrantsMigration } from '../migrations/001_product_grants.js';
import { FileCache } from './domain/file-cache.js';
import { ProductionQueue } from './domain/production-queue.js';
import { UrlSigner } from './domain/signing.js';
import { Transfer } from './domain/transfer.js';
import { productRoutes } from './routes/products.js';

export interface TransferServiceOptions {
  /** files made at once per process (production-queue.ts); 2 by default */
  productions?: number;
  /** seconds a download waits for its file to be made before answering 503 with Retry-After; 60 by default */
  waitSeconds?: number;
  /** false makes files on the event loop even when the weather can be opened in a worker thread (tests that count reads) */
  threads?: boolean;
}

/**
 * The transfer service (docs/interface.md §9): data-transfer products, their datasets by date,
 * and the files behind signed links. Its one table is its copy of the platform's grants of
 * restricted products (docs/decisions/0397-transfer-products-follow-product-grants.md): reading a
 * dataset records nothing of the caller's, and its files live in its directory under the data dir.
 */
export function createTransferService(options: TransferServiceOptions = {}) {
  return defineService({
    area: 'transfer',
    port: 7,
    workers: [DATASET_WORKER],
    title: 'Transfer',
    description: 'Data-transfer products, datasets by date, and GeoTIFF and NetCDF downloads behind signed links (spec 2.5, 4.9).',
    needs: { database: { migrations: [productGrantsMigration] }, weather: true, files: true, catalog: true },
    api(deps) {
      const signer = new UrlSigner(deps.files.signingKey, deps.now);
      const maker = datasetMaker(deps.weather, { threads: (options.threads ?? true) && deps.computeThreads > 0 });
      const transfer = new Transfer({
        catalog: deps.catalog,
        weather: deps.weather,
        grants: new ProductGrantCopy(deps.db.knex, 'transfer'),
        cache: new FileCache(join(deps.files.dir, 'datasets'), deps.files.cacheBytes),
        signer,
        queue: new ProductionQueue(options.productions ?? 2),
        make: (dataset, path, progress) => maker.make(dataset, path, progress),
        waitMs: (options.waitSeconds ?? 60) * 1000,
        now: deps.now,
      });
      // its worker threads, started on the first file made
      return { api: productRoutes(new Api(), { transfer, signer, identity: deps.identity }), close: () => maker.close() };
    },
    // Products over a restricted variable are served to the accounts the platform area granted it (docs/decisions/0397-transfer-products-follow-product-grants.md).
    consumers(deps) {
      return [productGrantsConsumer('transfer', new ProductGrantCopy(deps.db.knex, 'transfer'), deps.logger)];
    },
  });
}

/** The transfer service: what `fieldcast serve transfer` and the embedded fleet run. */
export const transferService = createTransferService();
