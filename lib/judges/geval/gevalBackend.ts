import type { JudgeBackend } from "../judgeBackend";
import type { GEvalDefinition } from "@/lib/contract/gEvalDefinition";
import type { GEvalJudge } from "./gevalJudge";

/**
 * The engine's judge with a run's custom G-Eval judges added: a request for
 * one of their metric names goes to G-Eval, any other to the base backend.
 * The engine needs no other change: G-Eval results are ordinary JudgeResults
 * (score, rationale, details, provenance).
 */
export function withGEvalJudges(
  base: JudgeBackend,
  geval: GEvalJudge,
  judgesByMetric: ReadonlyMap<string, GEvalDefinition>,
): JudgeBackend {
  return {
    provider: base.provider,
    model: base.model,
    judge(request) {
      const stored = judgesByMetric.get(request.metric);
      // An alignment being measured is the request's; an adopted one is already in the definition.
      const definition =
        stored && request.alignment
          ? { ...stored, alignment: { ...request.alignment, examples: [...request.alignment.examples] } }
          : stored;
      return definition
        ? geval.judge(definition, request.input, {
            strict: request.settings?.deepEval?.strictMode === true,
            exact: request.settings?.deepEval?.exact === true,
          })
        : base.judge(request);
    },
  };
}
