import type { RowTextProfile } from "@/lib/db/datasets/datasetTextSizes";
import { gEvalMetricName, gEvalRequirements } from "@/lib/contract/gEvalMetric";
import { findMetric, type RowInput } from "@/lib/contract/metricCatalog";
import { requirementsOf } from "@/lib/metrics/rowEligibility";
import {
  estimateSpending,
  gEvalStepCalls,
  type JudgedWork,
  type SpendingEstimate,
  type SpendingOptions,
} from "@/lib/metrics/spendingEstimate";
import { customMetricName } from "@/lib/contract/judgeDefinitions";
import { runRequirements } from "@/lib/contract/deepEvalExactInputs";

// The run form's estimate, before any run is planned: a dataset's rows grouped by the inputs they
// carry (lib/db/datasets/datasetTextSizes.ts), summed over the groups each chosen judge may run on, then
// through the same formula as the CLI's estimate of a planned run (lib/metrics/spendingEstimate.ts).

/** A judge the form has chosen: its metric name and the inputs a row needs for it. */
/** `promptChars`: text every call carries besides the row's (an aligned judge's examples and guidance). */
export type PlannedJudge = { metric: string; requires: readonly RowInput[]; promptChars?: number };

/**
 * The judges a run of this choice plans, with what each needs from a row, as lib/engine/createRun.ts
 * plans them: the chosen catalogue metrics, the custom judges (ANSWER needs a response, RETRIEVAL chunk
 * content), the G-Eval judges (what their evaluation parameters read; none on the offline judge).
 * `gEvalMetrics` names the G-Eval judges that generate their steps (one call each): a judge whose
 * author wrote the steps makes none.
 */
export function plannedJudges(choice: {
  metrics: readonly string[];
  /** `basedOn`: an aligned built-in judge, which needs what the built-in needs. */
  customJudges: readonly {
    assessmentName: string;
    assessmentType: "ANSWER" | "RETRIEVAL";
    basedOn?: string;
    promptChars?: number;
  }[];
  gEvalJudges: readonly {
    name: string;
    evaluationParams: readonly string[];
    writtenSteps?: boolean;
    promptChars?: number;
  }[];
  /** DeepEval-exact: DeepEval's metrics also judge rows whose response is empty (lib/contract/deepEvalExactInputs.ts). */
  deepEvalExact?: boolean;
}): { judges: PlannedJudge[]; gEvalMetrics: Set<string> } {
  const gEval = choice.gEvalJudges.map((definition) => ({
    metric: gEvalMetricName(definition),
    requires: gEvalRequirements(definition.evaluationParams),
    writtenSteps: definition.writtenSteps === true,
    promptChars: definition.promptChars ?? 0,
  }));
  const judges: PlannedJudge[] = [
    ...choice.metrics.map((metric) => ({ metric, requires: findMetric(metric)?.requires ?? [] })),
    ...choice.customJudges.map((custom) => ({
      metric: customMetricName(custom),
      requires: requirementsOf("", { ...custom, instructions: "" }),
      promptChars: custom.promptChars ?? 0,
    })),
    ...gEval.map(({ metric, requires, promptChars }) => ({ metric, requires, promptChars })),
  ];
  return {
    judges: judges.map((judge) => ({
      ...judge,
      requires: runRequirements(judge.metric, judge.requires, choice.deepEvalExact === true),
    })),
    gEvalMetrics: new Set(gEval.filter((judge) => !judge.writtenSteps).map((judge) => judge.metric)),
  };
}

/** A run that generates responses supplies these itself (as lib/metrics/availability.ts says). */
const SUPPLIED_BY_GENERATION: ReadonlySet<RowInput> = new Set([
  "response",
  "response_or_empty",
  "trace_tokens",
  "trace_latency",
]);

/** The rows a judge runs on, with their chunks and text, summed over the groups that carry what it needs. */
export function judgedWork(profiles: readonly RowTextProfile[], judge: PlannedJudge, generates: boolean): JudgedWork {
  const needs = judge.requires.filter((input) => !(generates && SUPPLIED_BY_GENERATION.has(input)));
  const work: JudgedWork = {
    metric: judge.metric,
    items: 0,
    chunks: 0,
    chars: 0,
    promptChars: judge.promptChars ?? 0,
    exchanges: 0,
  };
  for (const profile of profiles) {
    if (!needs.every((input) => profile.inputs.includes(input))) continue;
    work.items += profile.rows;
    work.chunks += profile.chunks;
    work.chars += profile.chars;
    work.exchanges = (work.exchanges ?? 0) + profile.exchanges;
  }
  return work;
}

/** A judge's work over every trial: each trial sends the same rows again. */
function timesTrials(work: JudgedWork, trials: number): JudgedWork {
  return {
    ...work,
    items: work.items * trials,
    chunks: work.chunks * trials,
    chars: work.chars * trials,
    exchanges: (work.exchanges ?? 0) * trials,
  };
}

export function estimateFormSpending(
  input: {
    profiles: readonly RowTextProfile[];
    judges: readonly PlannedJudge[];
    /** G-Eval judges among `judges`: one evaluation-steps call each, for those with a row to score. */
    gEvalMetrics: ReadonlySet<string>;
    /** Each row judged (and generated) this many times; each trial's calls are made anew. */
    trials?: number;
  },
  options: SpendingOptions,
): SpendingEstimate & { judged: JudgedWork[] } {
  const generates = options.generationModel !== null;
  const trials = input.trials ?? 1;
  const judged = input.judges.map((judge) => timesTrials(judgedWork(input.profiles, judge, generates), trials));
  const generation = generates
    ? {
        items: input.profiles.reduce((sum, profile) => sum + profile.rows, 0) * trials,
        chars: input.profiles.reduce((sum, profile) => sum + profile.requestChars, 0) * trials,
      }
    : null;
  const stepCalls = gEvalStepCalls(
    judged.filter((work) => input.gEvalMetrics.has(work.metric)),
    trials,
    options.deepEval?.exact === true,
  );
  return { ...estimateSpending({ judged, gEvalStepCalls: stepCalls, generation }, options), judged };
}
