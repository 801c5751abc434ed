import type { Db } from "@/lib/db/client";
import type { StoredPairwiseComparison } from "@/lib/db/pairwise/pairwiseComparisons";
import { getDecidedPairPlace } from "@/lib/db/pairwise/pairwiseRows";
import { getFlipPlace, type FlipPlace } from "@/lib/db/runs/flipNavigation";
import { isPairwiseMetric } from "./pairwiseDelta";

/**
 * Where the side-by-side page's row stands in the list it was opened from: the flip list, or, opened from a
 * pairwise criterion's pairs (B lost, B won), that list; its neighbours keep the list's metric, so j / k / n step
 * through the same list.
 */
export async function readListPlace(
  db: Db,
  runs: { baseline: string; candidate: string },
  list: { metric?: string; direction?: "regressions" | "improvements" },
  current: { rowId: string; metric: string },
  pairwise: StoredPairwiseComparison | undefined,
): Promise<FlipPlace> {
  if (!isPairwiseMetric(current.metric)) return getFlipPlace(db, runs.baseline, runs.candidate, list, current);
  const criterion = current.metric.slice("pairwise/".length);
  if (!pairwise) return { position: null, total: 0, previous: null, next: null, nextRegression: null };
  const place = await getDecidedPairPlace(db, pairwise, criterion, list.direction, current.rowId);
  const key = (rowId: string | null) => (rowId ? { rowId, metric: current.metric } : null);
  return {
    position: place.position,
    total: place.total,
    previous: key(place.previous),
    next: key(place.next),
    nextRegression: key(place.nextLoss),
  };
}
