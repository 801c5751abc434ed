import type { PairWinner, ShownOrder } from "@/lib/contract/pairwise";
import { sqlOf, type Db } from "../client";
import { readOfCompletedComparison, type ComparisonState } from "./completedComparisonReads";

/** Judgments grouped by what the diagnostics need: criterion, order shown, winner, and which response was longer. */
export type JudgmentGroup = {
  criterion: string;
  shownOrder: ShownOrder;
  winner: PairWinner;
  /** Which run's response was longer in characters; "same" when equally long. */
  longer: "a" | "b" | "same";
  count: number;
};

/** Pairs judged in both orders, grouped by the winner each order gave (the rule combines them, pairVerdict). */
export type PairGroup = { criterion: string; ab: PairWinner; ba: PairWinner; count: number };

/** Per criterion: verdicts by status (pending, done, error, skipped). */
export type StatusGroup = { criterion: string; status: string; count: number };

export type PairwiseCounts = { judgments: JudgmentGroup[]; pairs: PairGroup[]; statuses: StatusGroup[] };

/**
 * Everything a comparison's result and diagnostics are computed from, as three GROUP BYs over its verdicts (a few
 * dozen rows whatever its size): the pages, the API and the gate read these, never the verdicts one by one. Kept
 * for a completed comparison (completedComparisonReads.ts).
 */
export function readPairwiseCounts(db: Db, comparison: ComparisonState): Promise<PairwiseCounts> {
  return readOfCompletedComparison(db, "counts", comparison, () => countVerdicts(db, comparison.id));
}

async function countVerdicts(db: Db, comparisonId: string): Promise<PairwiseCounts> {
  const sql = sqlOf(db);
  const [judgments, pairs, statuses] = await Promise.all([
    sql.all<JudgmentGroup>(
      `SELECT "criterion", "shownOrder", "winner",
         CASE WHEN "baselineLength" > "candidateLength" THEN 'a' WHEN "candidateLength" > "baselineLength" THEN 'b' ELSE 'same' END AS "longer",
         COUNT(*) AS "count"
       FROM "PairwiseVerdict" WHERE "comparisonId" = ? AND "status" = 'done'
       GROUP BY "criterion", "shownOrder", "winner", 4`,
      [comparisonId],
    ),
    // Each pair's two orders side by side by one GROUP BY over the comparison's verdicts, not a join of the table
    // with itself: PostgreSQL without statistics yet (a comparison just written) planned that join as a nested
    // loop over every pair of verdicts, minutes at 100,000 pairs.
    sql.all<PairGroup>(
      `SELECT "criterion", "ab", "ba", COUNT(*) AS "count" FROM (
         SELECT "criterion", MAX(CASE WHEN "shownOrder" = 'ab' THEN "winner" END) AS "ab",
           MAX(CASE WHEN "shownOrder" = 'ba' THEN "winner" END) AS "ba"
         FROM "PairwiseVerdict" WHERE "comparisonId" = ? AND "status" = 'done'
         GROUP BY "criterion", "baselineRowId") pairs
       WHERE "ab" IS NOT NULL AND "ba" IS NOT NULL
       GROUP BY "criterion", "ab", "ba"`,
      [comparisonId],
    ),
    sql.all<StatusGroup>(
      `SELECT "criterion", "status", COUNT(*) AS "count" FROM "PairwiseVerdict" WHERE "comparisonId" = ? GROUP BY "criterion", "status"`,
      [comparisonId],
    ),
  ]);
  return {
    judgments: judgments.map((g) => ({ ...g, count: Number(g.count) })),
    pairs: pairs.map((g) => ({ ...g, count: Number(g.count) })),
    statuses: statuses.map((g) => ({ ...g, count: Number(g.count) })),
  };
}
