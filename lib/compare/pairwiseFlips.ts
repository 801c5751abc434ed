import type { Db } from "@/lib/db/client";
import type { Flip } from "@/lib/db/judgments/compareQueries";
import { listDecidedPairs } from "@/lib/db/pairwise/pairwiseRows";
import { isPairwiseMetric } from "./pairwiseDelta";
import type { PairwiseView } from "./pairwiseResults";

/**
 * The flip list filtered on a pairwise criterion (`pairwise/<criterion>`): the rows its judge decided, B's
 * losses as regressions and its wins as improvements, shaped as flips so the list and its links work alike.
 * Null when `metric` is not a criterion of the candidate's comparison.
 */
export async function readPairwiseFlipPage(
  db: Db,
  view: PairwiseView | undefined,
  options: { metric?: string; direction?: "regressions" | "improvements"; page: number; pageSize: number },
): Promise<{ items: Flip[]; total: number } | null> {
  if (!view || !options.metric || !isPairwiseMetric(options.metric)) return null;
  const criterion = view.criteria.find((c) => c.metric === options.metric)?.criterion.name;
  if (!criterion) return null;
  const pairs = await listDecidedPairs(db, view.comparison, criterion, {
    direction: options.direction,
    offset: (options.page - 1) * options.pageSize,
    limit: options.pageSize,
  });
  return {
    total: pairs.total,
    items: pairs.items.map((pair) => ({
      rowId: pair.rowId,
      rowNumber: pair.rowNumber,
      requestId: pair.requestId,
      requestText: pair.requestText,
      metric: options.metric as string,
      kind: "verdict",
      regression: pair.winner === "a",
      baseline: pair.winner === "a" ? "A better" : "B better",
      candidate: pair.winner === "a" ? "B lost" : "B won",
      baselineScore: null,
      candidateScore: null,
      baselineThreshold: null,
      candidateThreshold: null,
    })),
  };
}
