import type { Db } from "@/lib/db/client";
import { groupedJudgeCache } from "./groupedJudgeCache";
import { gatheredLanes } from "./groupedWrites";
import type { RunRecord } from "@/lib/db/runs/runQueries";
import { createGEvalJudge, withGEvalJudges } from "@/lib/judges/geval";
import { gEvalMetricName } from "@/lib/contract/gEvalMetric";
import { createHeuristicJudgeBackend } from "@/lib/judges/heuristicJudgeBackend";
import type { JudgeBackend } from "@/lib/judges/judgeBackend";
import { createLlmJudgeBackend } from "@/lib/judges/llmJudgeBackend";
import { cacheForTrial, judgeByTrial, llmForTrial } from "@/lib/judges/trialJudgeBackend";
import { createLimiter, type Limiter } from "@/lib/llm/concurrencyLimiter";
import { readLlmConfig, type LlmConfig } from "@/lib/llm/llmConfig";
import { createOpenAiLlmClient } from "@/lib/llm/openaiClient";
import { nestLimiters } from "@/lib/llm/nestLimiters";
import { costUsd } from "@/lib/llm/pricing";
import type { LlmClient } from "@/lib/llm/types";
import type { EngineDeps } from "./engineDepsType";
import { sharedEndpointLimiter } from "./worker/sharedEndpointLimiter";

export class JudgeUnavailableError extends Error {}

/**
 * The configured endpoint's client (null without one), its calls limited to `concurrency` inside the endpoint's
 * limit, which every run, pairwise comparison and worker on the store shares (sharedEndpointLimiter.ts).
 */
export function createLimitedLlm(
  db: Db,
  concurrency: number,
  options: {
    env?: Record<string, string | undefined>;
    llmConfig?: LlmConfig | null;
    workerKind: NonNullable<EngineDeps["workerKind"]>;
  },
): { config: LlmConfig | null; limiter: Limiter | null; llm: LlmClient | null } {
  const config = options.llmConfig !== undefined ? options.llmConfig : readLlmConfig(options.env ?? process.env);
  const limiter = config
    ? nestLimiters(createLimiter(concurrency), sharedEndpointLimiter(db, config, options.workerKind))
    : null;
  const llm = config && limiter ? createOpenAiLlmClient({ config, limiter }) : null;
  return { config, limiter, llm };
}

/**
 * The production wiring for one run: its own concurrency limiter (the run's
 * setting) nested in the endpoint's limiter, shared through the store by every
 * run of every worker, the configured OpenAI-compatible endpoint when there is one, the
 * judge cache in the database, and the offline judge for heuristic runs.
 * Tests build EngineDeps the same way with a fake server's URL in `env`.
 */
export function createEngineDeps(
  db: Db,
  run: Pick<RunRecord, "judgeProvider" | "judgeModel" | "concurrency" | "config">,
  options: {
    env?: Record<string, string | undefined>;
    llmConfig?: LlmConfig | null;
    onProgress?: EngineDeps["onProgress"];
    onResumed?: EngineDeps["onResumed"];
    workerKind?: EngineDeps["workerKind"];
  } = {},
): EngineDeps {
  const workerKind = options.workerKind ?? "web";
  const { config, limiter, llm } = createLimitedLlm(db, run.concurrency, { ...options, workerKind });
  let judge: JudgeBackend;
  if (run.judgeProvider === "heuristic") {
    judge = createHeuristicJudgeBackend();
  } else if (llm) {
    const storeCache = groupedJudgeCache(db, { flushAt: gatheredLanes(run.concurrency) });
    const readCache = run.config.refreshCache !== true;
    const gEvalJudges = run.config.gEvalJudges ?? [];
    // Each trial asks with its own seed and caches under its own keys (lib/judges/trialJudgeBackend.ts).
    judge = judgeByTrial((trial) => {
      const trialLlm = llmForTrial(llm, trial);
      const cache = cacheForTrial(storeCache, trial);
      const base = createLlmJudgeBackend({ llm: trialLlm, cache, model: run.judgeModel, readCache });
      // A run's G-Eval metrics go to G-Eval (steps cached per criteria and model), everything else to the LLM judge.
      return gEvalJudges.length > 0
        ? withGEvalJudges(
            base,
            createGEvalJudge({ llm: trialLlm, cache, model: run.judgeModel, readCache }),
            new Map(gEvalJudges.map((definition) => [gEvalMetricName(definition), definition])),
          )
        : base;
    });
  } else {
    throw new JudgeUnavailableError(
      "this run uses an LLM judge, but no model endpoint is configured (set OPENAI_API_KEY or OPENAI_BASE_URL)",
    );
  }
  return {
    db,
    judge,
    llm,
    costOf: (model, usage) => costUsd(model, usage, config?.prices ?? {}),
    onProgress: options.onProgress,
    onResumed: options.onResumed,
    workerKind,
    limiter,
  };
}
