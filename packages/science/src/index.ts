// @fieldcast/science: pure, dependency-free functions behind the agriculture, insight and
// model areas (docs/architecture.md §1). Each module cites its published source.
export * from './units.js';
export * from './rounding.js';
export * from './degree-days.js';
export * from './humidity.js';
export * from './solar.js';
export * from './evapotranspiration.js';
export * from './statistics.js';
export * from './hourly-et-of-weather.js';
export * from './chill.js';
