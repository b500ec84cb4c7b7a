export { LruCache } from './lru-cache.js';
export { LoadingCache } from './loading-cache.js';
