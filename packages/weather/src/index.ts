export * from './grid/index.js';
export * from './stores.js';
export * from './synthetic/index.js';
export * from './catalog/index.js';
/** What a fleet serves: ingested stores in front of the synthetic world (docs/architecture.md §2). */
export * from './composite-source.js';
export * from './load-weather-source.js';
