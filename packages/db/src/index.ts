export * from './database.js';
export * from './idempotency-keys.js';
export * from './migrations.js';
export * from './outbox.js';
export * from './owned-resource-store.js';
