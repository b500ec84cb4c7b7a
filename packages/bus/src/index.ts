export * from './envelope.js';
export * from './topics.js';
export * from './transport.js';
export * from './in-process.js';
export * from './kafka.js';
