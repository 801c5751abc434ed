import { toAggregate, type Aggregate, type MetricCounts } from "@/lib/metrics/aggregates";
import { sqlOf, type Db } from "../client";

/** Per-metric counts and score sums for a run, grouped in SQL; no judgment rows are loaded. */
export async function getRunAggregates(db: Db, runId: string, metricOrder: string[] = []): Promise<Aggregate[]> {
  const rows = await sqlOf(db).all<{
    metric: string;
    yes: number;
    no: number;
    error: number;
    skipped: number;
    pending: number;
    scored: number;
    scoreSum: number | null;
    passed: number;
    failed: number;
  }>(
    `SELECT "metric",
       SUM(CASE WHEN "status" = 'done' AND "rating" = 'yes' THEN 1 ELSE 0 END) AS "yes",
       SUM(CASE WHEN "status" = 'done' AND "rating" = 'no' THEN 1 ELSE 0 END) AS "no",
       SUM(CASE WHEN "status" = 'error' THEN 1 ELSE 0 END) AS "error",
       SUM(CASE WHEN "status" = 'skipped' THEN 1 ELSE 0 END) AS "skipped",
       SUM(CASE WHEN "status" IN ('pending', 'running') THEN 1 ELSE 0 END) AS "pending",
       SUM(CASE WHEN "status" = 'done' AND "rating" IS NULL AND "score" IS NOT NULL THEN 1 ELSE 0 END) AS "scored",
       SUM(CASE WHEN "status" = 'done' AND "rating" IS NULL THEN "score" END) AS "scoreSum",
       SUM(CASE WHEN "status" = 'done' AND "passed" = TRUE THEN 1 ELSE 0 END) AS "passed",
       SUM(CASE WHEN "status" = 'done' AND "passed" = FALSE THEN 1 ELSE 0 END) AS "failed"
     FROM "JudgmentItem" WHERE "runId" = ? GROUP BY "metric"`,
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
