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
