import type { Db } from "../client";

/** Who judged one metric of a run, as its finished judgments record it (one entry per distinct judge and prompt). */
export type MetricJudge = { metric: string; provider: string; model: string; promptVersion: string; rows: number };

/**
 * The judges and prompt versions behind each metric of a run, read from its finished judgments (not from
 * the run's settings): a re-judge with another prompt, or deterministic metrics in an LLM-judged run, show
 * as what they really were. One GROUP BY over the run's done judgments.
 */
export async function getMetricJudges(db: Db, runId: string): Promise<MetricJudge[]> {
  const groups = await db.judgmentItem.groupBy({
    by: ["metric", "judgeProvider", "judgeModel", "promptVersion"],
    where: { runId, status: "done" },
    _count: { _all: true },
    // An unrecorded judge or prompt first, as SQLite orders NULLs (PostgreSQL puts them last unless told).
    orderBy: [
      { metric: "asc" },
      { judgeModel: { sort: "asc", nulls: "first" } },
      { promptVersion: { sort: "asc", nulls: "first" } },
    ],
  });
  return groups.map((group) => ({
    metric: group.metric,
    provider: group.judgeProvider ?? "unknown",
    model: group.judgeModel ?? "unknown",
    promptVersion: group.promptVersion ?? "unknown",
    rows: group._count._all,
  }));
}

/** The pass marks one metric's finished judgments of a run were scored against (usually one). */
export type MetricPassMark = { metric: string; threshold: number };

/**
 * The pass marks a run's finished judgments record per metric (JudgmentItem.threshold): the effective value
 * each score was held to, whether it came from the run's thresholds, a G-Eval judge's own threshold or the
 * metric's default, so two runs compare on what they used rather than on how it was written in their settings.
 * Judgments without a pass mark (yes/no ratings, agent measurements, rows with no score) record none.
 */
export async function getMetricPassMarks(db: Db, runId: string): Promise<MetricPassMark[]> {
  const groups = await db.judgmentItem.groupBy({
    by: ["metric", "threshold"],
    where: { runId, status: "done", threshold: { not: null } },
    orderBy: [{ metric: "asc" }, { threshold: "asc" }],
  });
  return groups.flatMap((group) =>
    group.threshold === null ? [] : [{ metric: group.metric, threshold: group.threshold }],
  );
}
