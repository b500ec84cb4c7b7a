export * from './polygon-checks.js';
export * from './measures.js';
