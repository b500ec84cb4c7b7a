export * from './distributed.js';
export * from './env.js';
export * from './identity.js';
export * from './needs.js';
export * from './ports.js';
export * from './services.js';
export * from './weather.js';
