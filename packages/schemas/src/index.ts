export * from './common.js';
export * from './text.js';
export * from './problem.js';
export * from './geojson.js';
export * from './fields.js';
export * from './events.js';
export * from './growing-degree-days.js';
