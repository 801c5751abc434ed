import type { Db } from "../client";

/** Why a metric's judgments were skipped, and how many rows each reason covers, most common first. */
export type SkipReasonCount = { reason: string; count: number };

/**
 * A run's skipped judgments grouped by metric and the reason the plan wrote
 * ("needs expected_retrieved_context[].content (the ideal context)"), so a
 * card can say why its rows were not judged, not only how many.
 */
export async function listSkipReasons(db: Db, runId: string): Promise<Map<string, SkipReasonCount[]>> {
  const groups = await db.judgmentItem.groupBy({
    by: ["metric", "skipReason"],
    where: { runId, status: "skipped" },
    _count: { _all: true },
  });
  const byMetric = new Map<string, SkipReasonCount[]>();
  for (const group of groups) {
    const reasons = byMetric.get(group.metric) ?? [];
    reasons.push({ reason: group.skipReason ?? "no reason recorded", count: group._count._all });
    byMetric.set(group.metric, reasons);
  }
  for (const reasons of byMetric.values())
    reasons.sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  return byMetric;
}
