// What a fleet serves (docs/architecture.md §2): ingested stores in front of the synthetic world,
// and how the runtime opens them.
export * from './composite-source.js';
export * from './load-weather-source.js';
export * from './no-synthetic-source.js';
export * from './synced-stores.js';
export * from './reloading-source.js';
export * from './synced-products.js';
export * from './hour-reads.js';
export * from './hourly-et.js';
