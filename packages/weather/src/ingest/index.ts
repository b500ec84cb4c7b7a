export { ingestFile, type IngestOptions, type IngestResult } from './ingest-file.js';
export { IngestError } from './errors.js';
export { detectFormat, type SourceFormat } from './detect-format.js';
export { readIngestedStores, registerIngestedStore, IngestedStoreSchema, type IngestedStore } from './store-catalog.js';
export type { GeotiffTimeOptions } from './geotiff-grid.js';
export { loadH5wasm } from './netcdf4.js';
