/** Gridded data on disk: Zarr stores (ZarrSource, the writer) and ingest of NetCDF/GeoTIFF into them. */
export * from './zarr/index.js';
export * from './ingest/index.js';
