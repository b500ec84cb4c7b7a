// @fieldcast/client: a fetch-based TypeScript client of the Fieldcast areas; it depends only on the list of areas (@fieldcast/ids/areas).
export * from './areas.js';
export * from './http.js';
export * from './client.js';
export * from './model.js';
export * from './webhooks.js';
