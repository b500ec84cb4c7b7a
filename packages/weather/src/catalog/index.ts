export * from './sources.js';
export * from './schema.js';
export * from './precipitation-types.js';
export {
  DEFAULT_PRODUCTS,
  DEFAULT_MODELS,
  DEFAULT_TRANSFER_PRODUCTS,
  CATALOG_START,
  DEFAULT_FORECAST_RUNS,
  productId,
  modelId,
  globalCoverage,
} from './defaults.js';
export * from './catalog.js';
export * from './frame-tiles.js';
export * from './product-runs.js';
export * from './product-frames.js';
