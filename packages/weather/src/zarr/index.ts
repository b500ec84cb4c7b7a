export { ZarrSource } from './zarr-source.js';
export { lonInGrid } from './grid-indices.js';
export { GridStoreWriter, timeBoundsMetadata, timeBoundsName, timeBoundsValues } from './writer.js';
export { SYNCED_MEAN_AXIS, SYNCED_MEAN_CELL } from './store-metadata.js';
export { FileStore } from './file-store.js';
export { defaultChunks, frameChunks, FRAMES_OF, framesName } from './layout.js';
export { CANONICAL_UNITS, CF_IDENTITY, unitConversion } from './cf-variables.js';
export { temporaryBeside, writeWhole } from './whole-files.js';
