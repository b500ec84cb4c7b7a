export { ingestFile, type IngestOptions } from './ingest-file.js';
export { IngestError } from './errors.js';
export { readIngestedStores } from './store-catalog.js';
export { loadH5wasm } from './netcdf4.js';
