import { OVERALL_CRITERION, pairVerdict, type PairWinner } from "@/lib/contract/pairwise";
import type { Db } from "@/lib/db/client";
import type { StoredPairwiseComparison } from "@/lib/db/pairwise/pairwiseComparisons";
import { listPreferencesForRuns, type StoredPreference } from "@/lib/db/pairwise/pairwisePreferences";
import { readDoneVerdictsOfRows } from "@/lib/db/pairwise/pairwiseVerdicts";
import { cohensKappaMatrix, type MatrixKappa } from "@/lib/stats/kappaMatrix";

/** The answers in the matrix's order: A better, tie, B better. */
export const PAIRWISE_ANSWERS: readonly PairWinner[] = ["a", "tie", "b"];

export type PairwiseAgreement = {
  /** People's verdicts that count for these runs (each person's verdict on a pair is one item). */
  verdicts: number;
  /** Of them, those on pairs the judge has a verdict for: the matrix's total. */
  compared: number;
  /** Judge (rows) × person (columns), in PAIRWISE_ANSWERS order. */
  matrix: number[][];
  kappa: MatrixKappa;
};

/**
 * People's A/B verdicts held to the pairwise judge's, on the built-in criterion: each person's verdict on a pair
 * the judge decided (its pair verdict, MT-Bench's rule in both-order mode) is one item of a 3×3 matrix, read as
 * raw agreement and Cohen's κ with its interval, as the agreement panel reads a pointwise judge against labels.
 */
export async function readPairwiseAgreement(
  db: Db,
  comparison: StoredPairwiseComparison,
  runs: { baselineGenerates: boolean; candidateGenerates: boolean },
): Promise<PairwiseAgreement & { preferences: StoredPreference[] }> {
  const preferences = await listPreferencesForRuns(db, {
    baselineRunId: comparison.baselineRunId,
    candidateRunId: comparison.candidateRunId,
    ...runs,
  });
  const verdicts = await readDoneVerdictsOfRows(db, comparison.id, OVERALL_CRITERION, [
    ...new Set(preferences.map((p) => p.baselineRowId)),
  ]);
  const byRow = new Map<string, Partial<Record<"ab" | "ba", PairWinner>>>();
  for (const verdict of verdicts)
    byRow.set(verdict.baselineRowId, { ...byRow.get(verdict.baselineRowId), [verdict.shownOrder]: verdict.winner });
  const judged = (rowId: string): PairWinner | null => {
    const orders = byRow.get(rowId);
    if (!orders) return null;
    if (comparison.orders === "one") return orders.ab ?? orders.ba ?? null;
    return orders.ab && orders.ba ? pairVerdict(orders.ab, orders.ba).winner : null;
  };
  const matrix = PAIRWISE_ANSWERS.map(() => PAIRWISE_ANSWERS.map(() => 0));
  let compared = 0;
  for (const preference of preferences) {
    const judge = judged(preference.baselineRowId);
    if (judge === null) continue;
    matrix[PAIRWISE_ANSWERS.indexOf(judge)][PAIRWISE_ANSWERS.indexOf(preference.choice)] += 1;
    compared += 1;
  }
  return { verdicts: preferences.length, compared, matrix, kappa: cohensKappaMatrix(matrix), preferences };
}
