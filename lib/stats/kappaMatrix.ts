import { twoSidedZ } from "./normal";

export type MatrixKappa =
  | { defined: true; kappa: number; low: number; high: number; standardError: number; agreement: number; n: number }
  | { defined: false; reason: string; n: number };

/**
 * Cohen's κ of two raters over k categories from their k×k matrix (rows: the first rater, columns: the second),
 * with the Wald interval of the large-sample standard error of Fleiss, Cohen & Everitt (1969, eq. 13), the
 * same as lib/stats/agreement.ts uses for yes/no, here over any number of categories:
 *
 *   Var(κ) = [ Σi pii (1 − (pi· + p·i)(1 − κ))² + (1 − κ)² Σi≠j pij (p·i + pj·)² − (κ − pe (1 − κ))² ] / (n (1 − pe)²)
 *
 * Used for people's A/B verdicts against the pairwise judge (A better, tie, B better). Undefined with fewer than
 * two items, or when both raters used one and the same category throughout (pe = 1).
 */
export function cohensKappaMatrix(matrix: readonly (readonly number[])[], confidence = 0.95): MatrixKappa {
  const k = matrix.length;
  const n = matrix.reduce((sum, row) => sum + row.reduce((s, v) => s + v, 0), 0);
  if (n < 2) return { defined: false, reason: n === 0 ? "no item rated by both" : "one item; κ needs two", n };
  const p = matrix.map((row) => row.map((v) => v / n));
  const rowMargin = p.map((row) => row.reduce((s, v) => s + v, 0));
  const columnMargin = Array.from({ length: k }, (_, j) => p.reduce((s, row) => s + row[j], 0));
  const po = p.reduce((s, row, i) => s + row[i], 0);
  const pe = rowMargin.reduce((s, m, i) => s + m * columnMargin[i], 0);
  if (pe >= 1 - 1e-12) return { defined: false, reason: "both used one and the same answer throughout", n };
  const kappa = (po - pe) / (1 - pe);
  let diagonal = 0;
  let offDiagonal = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      if (i === j) diagonal += p[i][i] * (1 - (rowMargin[i] + columnMargin[i]) * (1 - kappa)) ** 2;
      else offDiagonal += p[i][j] * (columnMargin[i] + rowMargin[j]) ** 2;
    }
  const numerator = diagonal + (1 - kappa) ** 2 * offDiagonal - (kappa - pe * (1 - kappa)) ** 2;
  const standardError = Math.sqrt(Math.max(0, numerator) / (n * (1 - pe) ** 2));
  const z = twoSidedZ(confidence);
  return {
    defined: true,
    kappa,
    standardError,
    low: Math.max(-1, kappa - z * standardError),
    high: Math.min(1, kappa + z * standardError),
    agreement: po,
    n,
  };
}
