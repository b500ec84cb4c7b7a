export * from './polygon-checks.js';
export * from './measures.js';
export * from './grid-weights.js';
export * from './contour-bands.js';
export * from './overlay.js';
export * from './rings.js';
export * from './antimeridian.js';
export * from './distance.js';
