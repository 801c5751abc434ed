import { createHash } from "node:crypto";
import { HEURISTIC_MODEL, HEURISTIC_PROMPT_VERSION, judgeHeuristically } from "../heuristic";
import type { JudgeInput } from "../types";
import type { ShownResponse } from "../prompts/pairwiseTemplates";
import type { PairwiseJudge, PairwiseJudgment, PairwiseRequest } from "./pairwiseJudge";

/** Names the approximation in every verdict it gives, so no page mistakes it for a model's comparison. */
export const HEURISTIC_PAIRWISE_VERSION = `pairwise.heuristic/v1 (${HEURISTIC_PROMPT_VERSION})`;

/** The offline judge's pointwise checks a response is scored on: what it can tell about an answer without a model. */
const CHECKS = [
  "response/llm_judged/correctness",
  "response/llm_judged/relevance_to_query",
  "response/llm_judged/groundedness",
  "response/llm_judged/safety",
] as const;

/**
 * The offline judge has no pairwise judgment of its own: this is an approximation from its pointwise rules, and
 * says so. Each response is put through the lexical checks the row allows (correctness against the ground truth,
 * relevance to the request, groundedness in its own retrieved context, safety); the one passing more of them wins,
 * equal counts are a tie. It never sees the order, so it is position-consistent by construction, and its custom
 * criteria are judged by the same checks (it cannot read instructions).
 */
export function createHeuristicPairwiseJudge(): PairwiseJudge {
  return {
    provider: "heuristic",
    model: HEURISTIC_MODEL,
    async judgePair(request: PairwiseRequest): Promise<PairwiseJudgment> {
      const first = passedChecks(request.input, request.first);
      const second = passedChecks(request.input, request.second);
      const shownWinner =
        first.passed.length === second.passed.length
          ? "tie"
          : first.passed.length > second.passed.length
            ? "first"
            : "second";
      const describe = (name: string, side: { passed: string[]; checked: number }) =>
        `${name} passes ${side.passed.length} of ${side.checked} checks${side.passed.length > 0 ? ` (${side.passed.join(", ")})` : ""}`;
      return {
        shownWinner,
        rationale: `Offline approximation from the heuristic judge's pointwise rules, not a model's comparison: ${describe("A", first)}; ${describe("B", second)}.`,
        errorMessage: null,
        usage: null,
        attempts: 0,
        cacheHit: false,
        promptVersion: HEURISTIC_PAIRWISE_VERSION,
        promptHash: createHash("sha256")
          .update(HEURISTIC_PAIRWISE_VERSION)
          .update(JSON.stringify([request.input.request, request.first.response, request.second.response]))
          .digest("hex"),
      };
    },
  };
}

function passedChecks(input: JudgeInput, side: ShownResponse): { passed: string[]; checked: number } {
  const judged: JudgeInput = { ...input, response: side.response, retrievedContext: side.retrievedContext };
  const passed: string[] = [];
  let checked = 0;
  for (const metric of CHECKS) {
    const hasGroundTruth = (input.expectedFacts?.length ?? 0) > 0 || Boolean(input.expectedResponse);
    if (metric.endsWith("/correctness") && !hasGroundTruth) continue;
    if (metric.endsWith("/groundedness") && side.retrievedContext.length === 0) continue;
    checked++;
    if (judgeHeuristically(metric, judged).rating === "yes") passed.push(metric.split("/").pop() ?? metric);
  }
  return { passed, checked };
}
