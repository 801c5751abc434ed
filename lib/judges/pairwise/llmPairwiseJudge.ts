import { createCachedCaller, type CachedCallDeps } from "../cachedCall";
import { pairwiseJudge, type PairwiseAnswer, type PairwiseContext } from "../prompts/pairwiseTemplates";
import type { PromptCall } from "../prompts/promptTemplate";
import type { PairwiseJudge, PairwiseJudgment, PairwiseRequest } from "./pairwiseJudge";

const SHOWN = { A: "first", B: "second", tie: "tie" } as const;

/**
 * The pairwise judge of a model: one call per judgment (pairwiseTemplates.ts), answered from the judge cache when
 * the identical prompt was asked before, so a stopped comparison resumed redoes no call that had returned. The two
 * orders of a pair are two prompts, so two cache entries: a judge that ignores position answers both alike.
 */
export function createLlmPairwiseJudge(deps: CachedCallDeps): PairwiseJudge {
  const call = createCachedCaller(deps);
  return {
    provider: deps.llm.provider,
    model: deps.model,
    async judgePair(request: PairwiseRequest): Promise<PairwiseJudgment> {
      const context: PairwiseContext = { criterion: request.criterion, first: request.first, second: request.second };
      const outcome = await call(pairwiseJudge as PromptCall<unknown, unknown>, request.input, context);
      const answer = outcome.failure === null ? (outcome.answer as PairwiseAnswer) : null;
      return {
        shownWinner: answer ? SHOWN[answer.winner] : null,
        rationale: answer?.rationale ?? null,
        errorMessage: answer ? null : (outcome.errorMessage ?? "the call failed"),
        usage: outcome.usage,
        attempts: outcome.attempts,
        cacheHit: outcome.cacheHit,
        promptVersion: outcome.promptVersion,
        promptHash: outcome.promptHash,
      };
    },
  };
}
