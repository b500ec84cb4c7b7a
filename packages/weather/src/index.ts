// @fieldcast/weather, in its rooms (docs/architecture.md §6):
//   grid/       the grid contract every source answers and every area reads
//   synthetic/  the synthetic world, a GridSource computed from the clock and the geography
//   zarr/, ingest/ (stores.ts)
//               Zarr stores: reading, writing, and ingest of NetCDF and GeoTIFF into them
//   sources/    what a fleet serves: ingested stores in front of the synthetic world
//   catalog/    products, models and transfer products, and the rules derived from them
export * from './grid/index.js';
export * from './stores.js';
export * from './synthetic/index.js';
export * from './catalog/index.js';
export * from './sources/index.js';
