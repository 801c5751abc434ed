import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";

/** Why a metric's judgments were skipped, and how many rows each reason covers, most common first. */
export type SkipReasonCount = { reason: string; count: number };

/**
 * A run's skipped judgments grouped by metric and the reason the plan wrote
 * ("needs expected_retrieved_context[].content (the ideal context)"), so a
 * card can say why its rows were not judged, not only how many. Read through
 * the (runId, status) index: left to itself, SQLite walked the run's whole
 * (runId, metric, …) index to save the GROUP BY a sort (164 ms on a
 * 100,000-row run with nothing skipped, now under 1 ms).
 */
export async function listSkipReasons(db: Db, runId: string): Promise<Map<string, SkipReasonCount[]>> {
  const sql = sqlOf(db);
  const groups = await sql.all<{ metric: string; skipReason: string | null; count: number }>(
    `SELECT "metric", "skipReason", COUNT(*) AS "count"
     FROM "JudgmentItem"${sqlFragments(sql).indexHint("JudgmentItem_runId_status_id_idx")}
     WHERE "runId" = ? AND "status" = 'skipped' AND "trial" = 1
     GROUP BY "metric", "skipReason"`,
    [runId],
  );
  const byMetric = new Map<string, SkipReasonCount[]>();
  for (const group of groups) {
    const reasons = byMetric.get(group.metric) ?? [];
    reasons.push({ reason: group.skipReason ?? "no reason recorded", count: Number(group.count) });
    byMetric.set(group.metric, reasons);
  }
  for (const reasons of byMetric.values())
    reasons.sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  return byMetric;
}
