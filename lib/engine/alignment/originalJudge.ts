import { isAlignableBuiltIn } from "@/lib/alignment/alignableJudges";
import type { OriginalJudge } from "@/lib/alignment/alignedDefinition";
import type { RunRecord } from "@/lib/db/runs/runQueries";
import { decodeCustomJudge } from "@/lib/db/runs/storedRun";
import { gEvalMetricName } from "@/lib/contract/gEvalMetric";
import { customMetricName } from "@/lib/contract/judgeDefinitions";

/** Why an alignment cannot start, in words a user can act on. */
export class AlignmentRefused extends Error {}

export type AlignableRun = Pick<
  RunRecord,
  "id" | "datasetId" | "generationModel" | "customJudges" | "config" | "judgeProvider" | "judgeModel" | "concurrency"
>;

/**
 * The judge of a run that reports `metric`, as an alignment starts from it: a custom ANSWER or RETRIEVAL
 * judge, a G-Eval judge, or a built-in yes/no judge. An aligned judge is aligned again from its original:
 * examples on top of examples would teach nothing measurable. The offline judge reads no examples, so a
 * run it judged cannot be the base of an alignment.
 */
export function originalJudgeOf(run: AlignableRun, metric: string): OriginalJudge {
  if (run.judgeProvider === "heuristic")
    throw new AlignmentRefused(
      "this run was judged by the offline heuristic judge, which reads no examples: align on a run judged by an LLM",
    );
  const custom = run.customJudges.map(decodeCustomJudge).find((judge) => customMetricName(judge) === metric);
  const gEval = (run.config.gEvalJudges ?? []).find((judge) => gEvalMetricName(judge) === metric);
  if (custom?.alignment || gEval?.alignment)
    throw new AlignmentRefused(`${metric} is already an aligned version: align the original judge instead`);
  if (custom) return { kind: "custom", judge: custom };
  if (gEval) return { kind: "g_eval", judge: gEval };
  if (isAlignableBuiltIn(metric) && run.config.metrics.includes(metric)) return { kind: "built-in", metric };
  throw new AlignmentRefused(
    `${metric} is not a judge of this run that can be aligned: a built-in yes/no judge, a custom judge or a G-Eval judge`,
  );
}

/** The run's judges an alignment can start from, for the agreement panel's Align links. */
export function alignableMetrics(run: AlignableRun): Set<string> {
  return new Set(
    run.config.metrics.filter((metric) => {
      try {
        originalJudgeOf(run, metric);
        return true;
      } catch (error) {
        if (error instanceof AlignmentRefused) return false;
        throw error;
      }
    }),
  );
}
