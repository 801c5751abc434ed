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
    sql.all<PairGroup>(
      `SELECT x."criterion" AS "criterion", x."winner" AS "ab", y."winner" AS "ba", COUNT(*) AS "count"
       FROM "PairwiseVerdict" x
       JOIN "PairwiseVerdict" y ON y."comparisonId" = x."comparisonId" AND y."criterion" = x."criterion"
         AND y."baselineRowId" = x."baselineRowId" AND y."shownOrder" = 'ba' AND y."status" = 'done'
       WHERE x."comparisonId" = ? AND x."shownOrder" = 'ab' AND x."status" = 'done'
       GROUP BY x."criterion", x."winner", y."winner"`,
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
