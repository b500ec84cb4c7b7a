export * from './gregorian.js';
export * from './http-date.js';
