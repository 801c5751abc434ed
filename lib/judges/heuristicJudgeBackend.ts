import { createHash } from "node:crypto";
import { HEURISTIC_MODEL, HEURISTIC_PROMPT_VERSION, judgeHeuristically } from "./heuristic";
import type { JudgeBackend, JudgeRequest } from "./judgeBackend";
import type { JudgeResult } from "@/lib/contract/judgeResult";

/**
 * The built-in offline judge: deterministic lexical rules, no network. Results
 * are labelled provider "heuristic" so the UI can say so wherever they appear.
 * The "prompt hash" is a hash of the judged inputs, so identical inputs are
 * traceably identical here too.
 */
export function createHeuristicJudgeBackend(): JudgeBackend {
  return {
    provider: "heuristic",
    model: HEURISTIC_MODEL,
    async judge(request: JudgeRequest): Promise<JudgeResult> {
      const started = performance.now();
      const verdict = judgeHeuristically(request.metric, request.input, request.custom, request.settings);
      const hash = createHash("sha256")
        .update(HEURISTIC_PROMPT_VERSION)
        .update(
          JSON.stringify([request.metric, request.input, request.custom ?? null, request.settings?.deepEval ?? null]),
        )
        .digest("hex");
      return {
        ...verdict,
        provider: "heuristic",
        model: HEURISTIC_MODEL,
        promptVersion: HEURISTIC_PROMPT_VERSION,
        promptHash: hash,
        usage: null,
        cacheHit: false,
        attempts: 0,
        latencyMs: Math.round(performance.now() - started),
      };
    },
  };
}
