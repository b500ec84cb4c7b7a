// The catalog's public names, listed so knip sees which of them are used (an `export *` would
// make every export of these modules public API).
export { SYNTHETIC_HORIZON_HOURS } from './sources.js';
export {
  type ModelDef,
  type ModelVariable,
  type ProductDef,
  type StyleableLayer,
  TRANSFER_DEFAULT_BBOX,
  TRANSFER_DEFAULT_RESOLUTION,
  type TransferProductDef,
} from './schema.js';
export { maskAttributeName, maskAttributeValue, recordAttribute, recordAttributeName } from './precipitation-types.js';
export { CATALOG_START, DEFAULT_FORECAST_RUNS, DEFAULT_MODELS, modelId, productId } from './defaults.js';
export {
  Catalog,
  catalogFromYaml,
  CatalogError,
  createCatalog,
  type DefaultStyle,
  defaultStyles,
  forecastId,
  forecastValidTimes,
  forecastVariableId,
  frameId,
  grantedProductId,
  loadCatalog,
  type ProductRecord,
  productRecord,
  productTimeRange,
  type TransferProductRecord,
  transferProductRecord,
} from './catalog.js';
export {
  frameZoomLevels,
  lonLatToTileXY,
  pixelCentre,
  tileAndPixelOf,
  TILE_SIZE,
  tileYToLatitude,
  type ZoomLevels,
} from './frame-tiles.js';
export {
  analysisEndMs,
  frameFinalMs,
  findProductRun,
  forecastFrameId,
  forecastRunSchedule,
  isoInstant,
  latestProductRun,
  type ProductRun,
  productRun,
  productRunId,
  productRunModel,
  productRuns,
  type SortOrder,
} from './product-runs.js';
export {
  analysisFrame,
  FrameIndex,
  frameIndexOf,
  type FrameRecord,
  type FrameRef,
  frameRecord,
  hasFrameIn,
  productFrames,
  productFramesVersion,
  runFrames,
  variableFramesEndMs,
} from './product-frames.js';
export { RUN_TRANSITIONS, type RunLifeCycle, runLifeCycle, type RunStatus, runStatusAt } from './run-life-cycle.js';
export {
  ERROR_RULES,
  type ErrorRun,
  forecastAt,
  forecastEtInputs,
  forecastGrid,
  forecastValues,
  frameErrorRun,
  type Truth,
} from './forecast-error.js';
