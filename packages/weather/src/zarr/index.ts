export { ZarrSource } from './zarr-source.js';
export { GridStoreWriter } from './writer.js';
export { FileStore } from './file-store.js';
export { defaultChunks } from './layout.js';
export { CANONICAL_UNITS, CF_IDENTITY, unitConversion } from './cf-variables.js';
export { temporaryBeside, writeWhole } from './whole-files.js';
