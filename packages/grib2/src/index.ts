export { decodeField } from './decode.js';
export { GribError } from './errors.js';
export type { LatLonGrid } from './grid.js';
export { type GribField, readFields } from './message.js';
export { type Product, type StatisticalRange, type Surface, timeUnitSeconds } from './product.js';
export type { Representation } from './representation.js';
export { type ByteRange, type EcmwfIndexEntry, type IdxEntry, parseEcmwfIndex, parseIdx } from './inventory.js';
