/** Weighted least squares for the fit scripts (fit-geoclimate.ts, fit-precipitation.ts). */

/** Ridge added to the diagonal so a term no row varies cannot make the system singular. */
const RIDGE = 1e-6;

/**
 * Least squares: the x minimising sum w (A x - b)^2 + ridge |x|^2, by the normal equations. A
 * larger ridge shrinks terms the rows barely tell apart (many overlapping terms) toward zero.
 */
export function leastSquares(rows: number[][], b: number[], weights: number[], ridge = RIDGE): number[] {
  const m = rows[0]!.length;
  const M = Array.from({ length: m }, () => new Array<number>(m + 1).fill(0));
  rows.forEach((r, i) => {
    for (let p = 0; p < m; p++) {
      for (let q = 0; q < m; q++) M[p]![q]! += weights[i]! * r[p]! * r[q]!;
      M[p]![m]! += weights[i]! * r[p]! * b[i]!;
    }
  });
  for (let p = 0; p < m; p++) M[p]![p]! += ridge;
  for (let c = 0; c < m; c++) {
    let piv = c;
    for (let r = c + 1; r < m; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[piv]![c]!)) piv = r;
    [M[c], M[piv]] = [M[piv]!, M[c]!];
    for (let r = 0; r < m; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / M[c]![c]!;
      for (let k = c; k <= m; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  return M.map((row, p) => row[m]! / row[p]!);
}
