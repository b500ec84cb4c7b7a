export * from "./grid-source.js";
export * from './stores.js';
export * from "./synthetic/index.js";
export * from "./catalog/index.js";
