/**
 * Custom G-Eval judges: the public surface.
 *
 *   const geval = createGEvalJudge({ llm, cache, model });
 *   const definition = gEvalDefinitionSchema.parse({ name, criteria, evaluationParams, threshold });
 *   const steps = await geval.evaluationSteps(definition); // shown in the UI, one call per (criteria, model)
 *   const result = await geval.judge(definition, judgeInput); // a JudgeResult with score in [0, 1]
 */
export { withGEvalJudges } from "./gevalBackend";
export { createGEvalJudge, gEvalVerdict, TOP_LOGPROBS, type GEvalJudge, type GEvalSteps } from "./gevalJudge";
export {
  EVALUATION_PARAMS,
  gEvalDefinitionSchema,
  type EvaluationParam,
  type GEvalDefinition,
} from "@/lib/contract/gEvalDefinition";
export { normaliseScore } from "./scale";
export { SCORE_VERSION, STEPS_VERSION } from "./prompts";
export { probabilityWeightedScore, MIN_TOKEN_PROBABILITY } from "./weightedScore";
