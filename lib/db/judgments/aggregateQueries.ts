import { toAggregate, type Aggregate, type MetricCounts } from "@/lib/contract/aggregates";
import { rowRateInterval } from "@/lib/stats/trialAgreement";
import { sqlOf, type Db } from "../client";
import { trialsOfStoredConfig } from "../runs/storedRun";
import { readTrialCounts } from "./trialQueries";

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
  const aggregates = counts
    .sort((a, b) => order(a.metric) - order(b.metric) || a.metric.localeCompare(b.metric))
    .map(toAggregate);
  return withTrialIntervals(db, runId, aggregates);
}

/**
 * A run with trials: each yes-rate (and score success rate) gets its interval over rows, each row its mean over
 * its trials, from the trials' counts in SQL; a run without trials is returned as it is (one lookup of its config).
 */
async function withTrialIntervals(db: Db, runId: string, aggregates: Aggregate[]): Promise<Aggregate[]> {
  const run = await sqlOf(db).get<{ config: string }>(`SELECT "config" FROM "Run" WHERE "id" = ?`, [runId]);
  const trials = run ? trialsOfStoredConfig(run.config) : 1;
  if (trials <= 1) return aggregates;
  const counts = await readTrialCounts(db, runId);
  return aggregates.map((aggregate) => {
    const interval = rowRateInterval(counts.get(aggregate.metric) ?? []);
    if (aggregate.success) return { ...aggregate, trials, success: { ...aggregate.success, interval } };
    return aggregate.kind === "percentage" ? { ...aggregate, trials, interval } : { ...aggregate, trials };
  });
}
