import type { Db } from "@/lib/db/client";
import { createJudgeCache } from "@/lib/db/judgeCache/judgeCacheRepository";
import type { StoredPairwiseComparison } from "@/lib/db/pairwise/pairwiseComparisons";
import type { WorkerKind } from "@/lib/db/work/workers";
import { createHeuristicPairwiseJudge } from "@/lib/judges/pairwise/heuristicPairwiseJudge";
import { createLlmPairwiseJudge } from "@/lib/judges/pairwise/llmPairwiseJudge";
import type { LlmConfig } from "@/lib/llm/llmConfig";
import { costUsd } from "@/lib/llm/pricing";
import { createLimitedLlm, JudgeUnavailableError } from "../engineDeps";
import { workerPresence } from "../worker/workerPresence";
import type { JudgePairwiseDeps } from "./judgePairwise";

/**
 * The production wiring of a pairwise comparison: the offline approximation, or the configured endpoint's model
 * with the comparison's own in-flight limit inside the endpoint's shared one, the judge cache in the store, and
 * the process's worker id as the comparison's owner. Throws JudgeUnavailableError when the comparison needs a
 * model this process has no endpoint for.
 */
export async function createPairwiseDeps(
  db: Db,
  comparison: Pick<StoredPairwiseComparison, "judgeProvider" | "judgeModel" | "concurrency">,
  options: {
    workerKind: WorkerKind;
    env?: Record<string, string | undefined>;
    llmConfig?: LlmConfig | null;
    maxUsd?: number | null;
    stopRequested?: () => boolean;
    onProgress?: JudgePairwiseDeps["onProgress"];
  },
): Promise<JudgePairwiseDeps> {
  const ownerId = (await workerPresence(db, options.workerKind)).id;
  const common = {
    ownerId,
    maxUsd: options.maxUsd,
    stopRequested: options.stopRequested,
    onProgress: options.onProgress,
  };
  if (comparison.judgeProvider === "heuristic") return { ...common, judge: createHeuristicPairwiseJudge() };
  const { config, llm } = createLimitedLlm(db, comparison.concurrency, options);
  if (!llm)
    throw new JudgeUnavailableError(
      "this pairwise comparison uses an LLM judge, but no model endpoint is configured (set OPENAI_API_KEY or OPENAI_BASE_URL)",
    );
  return {
    ...common,
    judge: createLlmPairwiseJudge({ llm, cache: createJudgeCache(db), model: comparison.judgeModel }),
    costOf: (model, usage) => costUsd(model, usage, config?.prices ?? {}),
  };
}
