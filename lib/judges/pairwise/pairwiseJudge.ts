import type { PairwiseCriterion } from "@/lib/contract/pairwise";
import type { TokenUsage } from "@/lib/contract/judgeResult";
import type { ShownResponse } from "../prompts/pairwiseTemplates";
import type { JudgeInput } from "../types";

/** One pairwise question: the row (its request and ground truth), a criterion, and the two responses as shown. */
export type PairwiseRequest = {
  input: JudgeInput;
  criterion: PairwiseCriterion;
  first: ShownResponse;
  second: ShownResponse;
};

/** A pairwise judgment in the shown positions (the caller maps them back to the runs), or why there is none. */
export type PairwiseJudgment = {
  shownWinner: "first" | "second" | "tie" | null;
  rationale: string | null;
  errorMessage: string | null;
  usage: TokenUsage | null;
  attempts: number;
  cacheHit: boolean;
  promptVersion: string;
  promptHash: string;
};

/** A source of pairwise verdicts: a model, or the offline approximation from the heuristic judge's rules. */
export interface PairwiseJudge {
  readonly provider: string;
  readonly model: string;
  judgePair(request: PairwiseRequest): Promise<PairwiseJudgment>;
}
