/**
 * Custom G-Eval judges: the public surface. A judge's definition, its schema and
 * evaluation parameters are `lib/contract/gEvalDefinition.ts`'s (below the store).
 *
 *   const geval = createGEvalJudge({ llm, cache, model });
 *   const definition = gEvalDefinitionSchema.parse({ name, criteria, evaluationParams, threshold });
 *   const steps = await geval.evaluationSteps(definition); // shown in the UI, one call per (criteria, model)
 *   const result = await geval.judge(definition, judgeInput); // a JudgeResult with score in [0, 1]
 */
export { withGEvalJudges } from "./gevalBackend";
export { createGEvalJudge, gEvalVerdict, TOP_LOGPROBS, type GEvalJudge, type GEvalSteps } from "./gevalJudge";
export { normaliseScore } from "./scale";
export { SCORE_VERSION, STEPS_VERSION } from "./prompts";
export { probabilityWeightedScore, MIN_TOKEN_PROBABILITY } from "./weightedScore";
