import { GridRequestError } from '../grid/grid-source.js';

/**
 * A request outside the store's grid, time axis or variables: a GridRequestError by name too, so
 * the areas' error table (known by name, across threads) answers it 400 with its code.
 */
export class GridCoverageError extends GridRequestError {}
