import { GridRequestError } from '../grid/grid-source.js';

/** A request outside the store's grid, time axis or variables (the contract's GridRequestError). */
export class GridCoverageError extends GridRequestError {
  override name = 'GridCoverageError';
}
