export { ZarrSource, GridCoverageError, type ZarrSourceOptions, type ZarrArrayInfo } from './zarr-source.js';
export { GridStoreWriter, type GridStoreOptions, type TimeAxisSpec, type VariableSpec, type ZarrCompressor } from './writer.js';
export { FileStore } from './file-store.js';
export { defaultChunks } from './layout.js';
export { CANONICAL_UNITS, identifyVariable, unitConversion } from './cf-variables.js';
export { CfTimeError, parseCfTimeUnits } from './cf-time.js';
