import type { Db } from "@/lib/db/client";
import { readPendingWorkSizes } from "@/lib/db/runs/pendingWorkSizes";
import {
  estimateSpending,
  gEvalStepCalls,
  type SpendingEstimate,
  type SpendingOptions,
} from "@/lib/metrics/spendingEstimate";

/** What a planned run will spend before it starts, from the size of what it sends. */
export type RunEstimate = SpendingEstimate;

/**
 * Estimates the LLM calls, tokens and cost of a run's pending work (lib/metrics/spendingEstimate.ts,
 * the formula the run form uses too): per metric, its pending rows with their text and chunk sizes,
 * counted in SQL (lib/db/runs/pendingWorkSizes.ts), every trial's; a generating run's pending generations. Deterministic
 * metrics and the offline judge cost nothing.
 */
export async function estimateRunSpending(
  db: Db,
  runId: string,
  options: SpendingOptions & {
    /** Text every call of a metric carries besides the row's (an aligned judge's examples), by metric. */
    promptChars?: ReadonlyMap<string, number>;
    /** The run's trials: each trial of a G-Eval judge writes its own steps (its calls are asked anew). */
    trials?: number;
    /** The run's G-Eval judges that write their steps (gEvalStepWriters); those given the author's make no steps call. */
    gEvalStepWriters: ReadonlySet<string>;
  },
): Promise<RunEstimate> {
  const { judged, generation } = await readPendingWorkSizes(db, runId, {
    generates: options.generationModel !== null,
  });
  return estimateSpending(
    {
      judged: judged.map((entry) => ({ ...entry, promptChars: options.promptChars?.get(entry.metric) ?? 0 })),
      // Before its first row (at most), or before each row under DeepEval-exact.
      gEvalStepCalls: gEvalStepCalls(
        judged.filter((entry) => options.gEvalStepWriters.has(entry.metric)),
        options.trials ?? 1,
        options.deepEval?.exact === true,
      ),
      generation,
    },
    options,
  );
}
