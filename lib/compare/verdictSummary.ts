import type { Comparison } from "./compareRuns";

export type VerdictCounts = {
  worse: number;
  better: number;
  noise: number;
  pending: number;
  judgedDifferently: number;
};

/**
 * Every candidate's verdicts over every metric and pairwise criterion, counted: what the one summary line above
 * the compare table says.
 */
export function countVerdicts(comparison: Pick<Comparison, "metrics" | "pairwise">): VerdictCounts {
  const counts: VerdictCounts = { worse: 0, better: 0, noise: 0, pending: 0, judgedDifferently: 0 };
  const pairwise = Object.values(comparison.pairwise ?? {}).flatMap((view) => view.criteria.map((c) => c.delta));
  for (const deltas of [...comparison.metrics.map((metric) => Object.values(metric.deltas)), pairwise])
    for (const delta of deltas) {
      if (delta.verdict === "n/a") continue;
      counts[delta.verdict]++;
      if (delta.judgedDifferently && delta.verdict !== "pending") counts.judgedDifferently++;
    }
  return counts;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "1 real regression, 3 real improvements, 3 likely noise", with what is still computing or judged differently. */
export function describeVerdicts(counts: VerdictCounts): string {
  const parts = [
    plural(counts.worse, "real regression", "real regressions"),
    plural(counts.better, "real improvement", "real improvements"),
    `${counts.noise} likely noise`,
  ];
  if (counts.pending > 0) parts.push(`${counts.pending} still computing`);
  const line = parts.join(", ");
  return counts.judgedDifferently > 0
    ? `${line} (${plural(counts.judgedDifferently, "verdict compares", "verdicts compare")} runs judged differently)`
    : line;
}
