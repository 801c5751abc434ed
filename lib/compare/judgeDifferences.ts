import type { MetricJudge } from "@/lib/db/judgments/judgeProvenanceQueries";

/**
 * How one run judged one metric: its judges (usually one) and the pass marks its judgments were scored
 * against (usually one; empty for yes/no metrics, whose delta of yes-rates no pass mark affects).
 */
export type MetricJudging = { judges: MetricJudge[]; passMarks: number[] };

/** What a judge is called in a note: the offline heuristic by that name, an LLM by its model. */
export function judgeName(judge: Pick<MetricJudge, "provider" | "model">): string {
  if (judge.provider === "heuristic") return `offline heuristic (${judge.model})`;
  if (judge.provider === "deterministic") return "computed (no judge)";
  return judge.model;
}

function describe(judges: MetricJudge[], part: (judge: MetricJudge) => string): string {
  return [...new Set(judges.map(part))].join(" + ") || "none";
}

/**
 * Why two runs' results for a metric may differ for a reason other than the model under test: another
 * judge (provider or model), another prompt version, or another pass mark. Null when they were judged
 * alike, or when either run has no finished judgment of the metric (there is no verdict to qualify).
 * A delta between differently judged runs can be the judge's doing, so the compare page says so beside it.
 */
export function judgedDifferently(baseline: MetricJudging, candidate: MetricJudging): string | null {
  if (baseline.judges.length === 0 || candidate.judges.length === 0) return null;
  const reasons: string[] = [];
  const judgeKey = (judge: MetricJudge) => `${judge.provider}\u0000${judge.model}`;
  const baseJudges = describe(baseline.judges, judgeKey);
  const candJudges = describe(candidate.judges, judgeKey);
  if (baseJudges !== candJudges)
    reasons.push(`${describe(baseline.judges, judgeName)} vs ${describe(candidate.judges, judgeName)}`);
  else {
    const basePrompts = describe(baseline.judges, (judge) => judge.promptVersion);
    const candPrompts = describe(candidate.judges, (judge) => judge.promptVersion);
    if (basePrompts !== candPrompts) reasons.push(`prompt ${basePrompts} vs ${candPrompts}`);
  }
  // The effective marks the judgments recorded: an unset mark and an explicit default are the same mark.
  const basePassMarks = [...new Set(baseline.passMarks)].sort((x, y) => x - y).join(" + ");
  const candPassMarks = [...new Set(candidate.passMarks)].sort((x, y) => x - y).join(" + ");
  if (basePassMarks && candPassMarks && basePassMarks !== candPassMarks)
    reasons.push(`pass mark ${basePassMarks} vs ${candPassMarks}`);
  if (reasons.length === 0) return null;
  return `Judged differently: ${reasons.join("; ")}. The difference may be the judge, not the model.`;
}
