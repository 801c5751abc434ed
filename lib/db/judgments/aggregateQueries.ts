import { toAggregate, type Aggregate, type MetricCounts } from "@/lib/contract/aggregates";
import { sqlOf, type Db } from "../client";

/**
 * Per-metric counts and score sums for a run, read from the kept tallies
 * (RunMetricTally, maintained by triggers as judgments are written): a few
 * rows per metric, whatever the run's size.
 */
export async function getRunAggregates(db: Db, runId: string, metricOrder: string[] = []): Promise<Aggregate[]> {
  const rows = await sqlOf(db).all<Omit<MetricCounts, "scoreSum"> & { scoreSum: number | null }>(
    // With no scores kept the sum is 0: scores added to a shard and taken away again leave a float residue
    // (-1e-17, say) that a page would print as "-0.00".
    `SELECT "metric", SUM("yes") AS "yes", SUM("no") AS "no", SUM("error") AS "error", SUM("skipped") AS "skipped",
       SUM("pending") + SUM("running") AS "pending", SUM("scored") AS "scored", CASE WHEN SUM("scored") = 0 THEN 0.0 ELSE SUM("scoreSum") END AS "scoreSum",
       SUM("passed") AS "passed", SUM("failed") AS "failed"
     FROM "RunMetricTally" WHERE "runId" = ? GROUP BY "metric" HAVING SUM("items") > 0`,
    [runId],
  );
  const counts: MetricCounts[] = rows.map((row) => ({
    metric: row.metric,
    yes: Number(row.yes),
    no: Number(row.no),
    error: Number(row.error),
    skipped: Number(row.skipped),
    pending: Number(row.pending),
    scored: Number(row.scored),
    scoreSum: Number(row.scoreSum ?? 0),
    passed: Number(row.passed),
    failed: Number(row.failed),
  }));
  const order = (metric: string) => {
    const i = metricOrder.indexOf(metric);
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  return counts.sort((a, b) => order(a.metric) - order(b.metric) || a.metric.localeCompare(b.metric)).map(toAggregate);
}
