// @fieldcast/client: a fetch-based TypeScript client of the Fieldcast areas, without dependencies.
export * from './areas.js';
export * from './http.js';
export * from './client.js';
export * from './model.js';
