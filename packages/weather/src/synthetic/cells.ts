/**
 * Which cells of rows x columns a block holds: every row x column, row-major (null), or the cells
 * at rows row[k] and columns col[k], k = 0, 1, ..., in that order (scattered places computed
 * together: docs/decisions/0306-batch-points-read-together.md).
 */
export type CellList = { row: Int32Array; col: Int32Array } | null;

/** The number of cells of a block of nRows x nCols (or of the list). */
export function cellCount(nRows: number, nCols: number, cells: CellList): number {
  return cells ? cells.row.length : nRows * nCols;
}

/**
 * Each cell's row and column, in the block's cell order: the list's own, or row-major for every
 * row x column, so one loop over cells serves both kinds of block.
 */
export function cellIndexes(nRows: number, nCols: number, cells: CellList): { row: Int32Array; col: Int32Array } {
  if (cells) return cells;
  const row = new Int32Array(nRows * nCols),
    col = new Int32Array(nRows * nCols);
  for (let r = 0, k = 0; r < nRows; r++)
    for (let c = 0; c < nCols; c++, k++) {
      row[k] = r;
      col[k] = c;
    }
  return { row, col };
}
