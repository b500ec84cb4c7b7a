// @fieldcast/geography: Earth's land, sea, elevation, distance to the coast and
// continentality on a global grid, from the datasets listed in docs/data-sources.md.
export * from './geography.js';
export * from './grid-file.js';
export * from './layers.js';
