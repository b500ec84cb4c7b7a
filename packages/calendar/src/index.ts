export * from './gregorian.js';
