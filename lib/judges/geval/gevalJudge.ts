import { createHash } from "node:crypto";
import { z } from "zod";
import { LlmCallError } from "@/lib/llm/llmErrors";
import type { TokenUsage, JudgeResult, JudgeVerdict } from "@/lib/contract/judgeResult";
import type { LlmClient } from "@/lib/llm/types";
import type { JudgeCache } from "@/lib/contract/judgeCache";
import { errorVerdict, type JudgeInput } from "../types";
import { rangeText, sortRubric, type GEvalDefinition } from "@/lib/contract/gEvalDefinition";
import { normaliseScore, scoreRange } from "./scale";
import {
  anyScoreAnswerSchema,
  hashPrompt,
  hashSteps,
  SCORE_VERSION,
  scoreAnswerSchema,
  scorePrompt,
  STEPS_VERSION,
  stepsAnswerSchema,
  stepsPrompt,
  STRICT_SCORE_VERSION,
  EXACT_SCORE_SUFFIX,
  alignedSuffix,
  type ScoreAnswer,
} from "./prompts";
import { deepEvalWeightedScore, probabilityWeightedScore, type WeightedScore } from "./weightedScore";

/**
 * Custom G-Eval judges. Two phases:
 * 1. evaluation steps by chain of thought, ONE call per (criteria, model):
 *    kept in the judge cache (so stored across runs and processes) and shared
 *    by every row, also by rows judged concurrently. Steps the author wrote
 *    are used as they are, with no call;
 * 2. form-filling per row: the reason, then a score on the judge's scale (1–5,
 *    0–10, or its rubric's span), asking for token log-probabilities; the
 *    probability-weighted score when the endpoint returns them, else the plain
 *    score. Both are kept in details.figures; the result's score is the
 *    weighted one (or the plain one) on [0, 1]. In strict mode (DeepEval's
 *    strict_mode) the score is 1 or 0 and nothing is weighted.
 * Every result names its steps: promptVersion carries the steps' hash.
 */
export const TOP_LOGPROBS = 20;
const SCHEMA_NAMES = { steps: "g_eval_steps", score: "g_eval_score" } as const;

export type GEvalSteps = {
  steps: string[];
  /** "author": written in the definition, no call made; "generated": from the criteria by the steps prompt. */
  source: "author" | "generated";
  /** sha256 of the steps: the version of the steps every score names. */
  stepsHash: string;
  /** The steps prompt's version and hash, and the model that wrote them. */
  version: string;
  promptHash: string;
  model: string;
  cacheHit: boolean;
  usage: TokenUsage;
  attempts: number;
};

export type GEvalJudge = {
  readonly model: string;
  /** The steps for a definition: generated once, then from the cache. Throws an LlmCallError when they cannot be generated. */
  evaluationSteps(definition: GEvalDefinition): Promise<GEvalSteps>;
  /** One row's G-Eval result; a failed call is an error result, never a throw. */
  judge(definition: GEvalDefinition, input: JudgeInput, options?: GEvalOptions): Promise<JudgeResult>;
};

/**
 * strict: DeepEval's strict_mode, a 1-or-0 score (its threshold is 1). exact: DeepEval-exact, G-Eval as
 * DeepEval's evaluate() runs it: the 0–10 scale (a rubric narrows it), steps written anew for every row (the
 * same prompt each time, so not shared), a score prompt without the criteria, and DeepEval's weighting.
 */
export type GEvalOptions = { strict?: boolean; exact?: boolean };

const cachedScoreSchema = z.strictObject({
  answer: anyScoreAnswerSchema,
  weighted: z.strictObject({ score: z.number(), probabilities: z.record(z.string(), z.number()) }).nullable(),
});

const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 };

export function createGEvalJudge(deps: {
  llm: LlmClient;
  cache: JudgeCache;
  model?: string;
  /** false: ask the model again for the row scores (a re-judge); the steps are always reused. */
  readCache?: boolean;
}): GEvalJudge {
  const model = deps.model ?? deps.llm.model;
  const cacheKey = (version: string, promptHash: string) =>
    createHash("sha256").update(`${model}\u0000${version}\u0000${promptHash}`).digest("hex");
  /** One promise per steps prompt: concurrent rows wait for the same call. `claimed`: its cost already reported by a row. */
  const stepsInFlight = new Map<string, { promise: Promise<GEvalSteps>; claimed: boolean }>();
  /** Models whose endpoint rejected logprobs with a 400: asked without them from then on. */
  const refusesLogprobs = new Set<string>();

  async function generateSteps(definition: GEvalDefinition, key: string, promptHash: string): Promise<GEvalSteps> {
    const base = { version: STEPS_VERSION, promptHash, model, source: "generated" as const };
    const cached = await deps.cache.get(key);
    if (cached) {
      const parsed = stepsAnswerSchema.safeParse(safeJson(cached.response));
      if (parsed.success)
        return {
          ...base,
          steps: parsed.data.steps,
          stepsHash: hashSteps(parsed.data.steps),
          cacheHit: true,
          usage: { ...NO_USAGE },
          attempts: 0,
        };
    }
    const result = await deps.llm.callStructured({
      messages: stepsPrompt(definition),
      schema: stepsAnswerSchema,
      schemaName: SCHEMA_NAMES.steps,
      model,
    });
    await deps.cache.put({
      key,
      model,
      promptVersion: STEPS_VERSION,
      response: JSON.stringify(result.value),
      ...result.usage,
    });
    const steps = result.value.steps;
    return {
      ...base,
      steps,
      stepsHash: hashSteps(steps),
      cacheHit: false,
      usage: result.usage,
      attempts: result.attempts,
    };
  }

  function stepsEntry(definition: GEvalDefinition, row?: JudgeInput) {
    if (definition.evaluationSteps) return authorSteps(definition.evaluationSteps);
    const promptHash = hashPrompt(STEPS_VERSION, stepsPrompt(definition));
    if (row) {
      // A row's own steps (DeepEval-exact): its own cache entry, so a resumed run does not write them again;
      // not kept in memory past the row.
      const rowKey = createHash("sha256").update(JSON.stringify(row)).digest("hex");
      return {
        promise: generateSteps(
          definition,
          cacheKey(`${STEPS_VERSION}/row`, `${promptHash}\u0000${rowKey}`),
          promptHash,
        ),
        claimed: false,
      };
    }
    const key = cacheKey(STEPS_VERSION, promptHash);
    let entry = stepsInFlight.get(key);
    if (!entry) {
      const promise = generateSteps(definition, key, promptHash);
      entry = { promise, claimed: false };
      stepsInFlight.set(key, entry);
      // A failure is not remembered: a later row may try again.
      void promise.catch(() => stepsInFlight.delete(key));
    }
    return entry;
  }

  async function scoreRow(messages: ReturnType<typeof scorePrompt>, range: ScoreRange, strict: boolean) {
    const ask = (withLogprobs: boolean) =>
      deps.llm.callStructured({
        messages,
        schema: scoreAnswerSchema(range),
        schemaName: SCHEMA_NAMES.score,
        model,
        ...(withLogprobs ? { topLogprobs: TOP_LOGPROBS } : {}),
      });
    // Strict scores are not weighted (DeepEval): no log-probabilities to pay for.
    if (strict || refusesLogprobs.has(model)) return ask(false);
    try {
      return await ask(true);
    } catch (error) {
      // Some OpenAI-compatible servers reject the parameter outright: learn it once, score without weighting.
      if (!(error instanceof LlmCallError) || error.kind !== "fatal" || !/logprob/i.test(error.message)) throw error;
      refusesLogprobs.add(model);
      return ask(false);
    }
  }

  return {
    model,
    evaluationSteps: (definition) => stepsEntry(definition).promise,
    async judge(given, input, options = {}) {
      const started = Date.now();
      const strict = options.strict === true;
      const exact = options.exact === true;
      // DeepEval's GEval has one scale, 0–10, which a rubric narrows.
      const definition: GEvalDefinition = exact ? { ...given, scale: "0-10" } : given;
      const range = strict ? STRICT_RANGE : scoreRange(definition);
      const version = `${strict ? STRICT_SCORE_VERSION : SCORE_VERSION}${exact ? EXACT_SCORE_SUFFIX : ""}`;
      const entry = stepsEntry(definition, exact ? input : undefined);
      let steps: GEvalSteps;
      try {
        steps = await entry.promise;
      } catch (error) {
        if (!(error instanceof LlmCallError)) throw error;
        return {
          ...errorVerdict(`G-Eval could not generate its evaluation steps: ${error.message}`),
          ...provenance(`${version} (steps failed)`, null, error.usage, false, error.attempts, started),
        };
      }
      // The row that waited for freshly generated steps reports their cost, once.
      const stepsCost = !steps.cacheHit && !entry.claimed ? steps : null;
      entry.claimed = true;
      const promptVersion = `${version}${alignedSuffix(definition)} steps:${steps.stepsHash.slice(0, 16)}`;
      const messages = scorePrompt(definition, steps.steps, input, { strict, withoutCriteria: exact });
      const promptHash = hashPrompt(version, messages);
      const key = cacheKey(version, promptHash);
      const cached = deps.readCache === false ? null : await deps.cache.get(key);
      const parsedCache = cached ? cachedScoreSchema.safeParse(safeJson(cached.response)) : null;
      if (parsedCache?.success && inRange(parsedCache.data.answer.score, range)) {
        const { answer, weighted } = parsedCache.data;
        return {
          ...gEvalVerdict(answer, weighted, steps, definition, range),
          ...provenance(
            promptVersion,
            promptHash,
            addUsage(NO_USAGE, stepsCost?.usage),
            true,
            stepsCost?.attempts ?? 0,
            started,
          ),
        };
      }
      try {
        const result = await scoreRow(messages, range, strict);
        const weighted = strict
          ? null
          : exact
            ? deepEvalWeightedScore(result.logprobs, result.value.score)
            : probabilityWeightedScore(result.logprobs, result.value.score, range);
        await deps.cache.put(
          { key, model, promptVersion, response: JSON.stringify({ answer: result.value, weighted }), ...result.usage },
          { replace: deps.readCache === false },
        );
        const attempts = result.attempts + (stepsCost?.attempts ?? 0);
        return {
          ...gEvalVerdict(result.value, weighted, steps, definition, range),
          ...provenance(promptVersion, promptHash, addUsage(result.usage, stepsCost?.usage), false, attempts, started),
        };
      } catch (error) {
        if (!(error instanceof LlmCallError)) throw error;
        return {
          ...errorVerdict(error.message),
          ...provenance(
            promptVersion,
            promptHash,
            addUsage(error.usage, stepsCost?.usage),
            false,
            error.attempts,
            started,
          ),
        };
      }
    },
  };

  function provenance(
    promptVersion: string,
    promptHash: string | null,
    usage: TokenUsage,
    cacheHit: boolean,
    attempts: number,
    started: number,
  ) {
    return {
      provider: deps.llm.provider,
      model,
      promptVersion,
      promptHash,
      usage,
      cacheHit,
      attempts,
      latencyMs: Date.now() - started,
    };
  }
}

/** The row's verdict: the weighted score when there is one, else the plain score, on [0, 1]; both kept. */
export function gEvalVerdict(
  answer: ScoreAnswer,
  weighted: WeightedScore | null,
  steps: GEvalSteps,
  definition: Pick<GEvalDefinition, "rubric">,
  range: ScoreRange,
): JudgeVerdict {
  const probabilities: Record<string, number | null> = {};
  for (let s = range.min; s <= range.max; s++)
    probabilities[`p_${s}`] = weighted ? (weighted.probabilities[s] ?? 0) : null;
  const stepsTag = `steps ${steps.stepsHash.slice(0, 16)}`;
  return {
    rating: null,
    score: normaliseScore(weighted?.score ?? answer.score, range),
    rationale: answer.reason,
    errorMessage: null,
    details: {
      groups: [
        {
          title: steps.source === "author" ? "Evaluation steps (written by the judge's author)" : "Evaluation steps",
          items: steps.steps.map((step, i) => ({ text: step, verdict: `step ${i + 1}`, tags: [stepsTag] })),
        },
        ...(definition.rubric && range !== STRICT_RANGE
          ? [
              {
                title: "Rubric",
                items: sortRubric(definition.rubric).map((entry) => ({
                  text: entry.expectedOutcome,
                  verdict: rangeText(entry),
                  tags: inRange(answer.score, { min: entry.scoreRange[0], max: entry.scoreRange[1] }) ? ["given"] : [],
                })),
              },
            ]
          : []),
      ],
      // Strict scores are never weighted: no weighted score or probabilities to show.
      figures: {
        raw_score: answer.score,
        ...(range === STRICT_RANGE ? {} : { weighted_score: weighted?.score ?? null }),
        range_low: range.min,
        range_high: range.max,
        ...(range === STRICT_RANGE ? {} : probabilities),
      },
    },
  };
}

type ScoreRange = { min: number; max: number };
const STRICT_RANGE: ScoreRange = { min: 0, max: 1 };

function inRange(score: number, range: ScoreRange): boolean {
  return score >= range.min && score <= range.max;
}

/** Steps the author wrote: no call, nothing cached; the same object per definition's steps. */
const authorStepsCache = new Map<string, { promise: Promise<GEvalSteps>; claimed: boolean }>();
function authorSteps(steps: string[]) {
  const stepsHash = hashSteps(steps);
  let entry = authorStepsCache.get(stepsHash);
  if (!entry) {
    const value: GEvalSteps = {
      steps,
      source: "author",
      stepsHash,
      version: "author",
      promptHash: "",
      model: "",
      cacheHit: true,
      usage: { ...NO_USAGE },
      attempts: 0,
    };
    entry = { promise: Promise.resolve(value), claimed: true };
    if (authorStepsCache.size > 1000) authorStepsCache.clear();
    authorStepsCache.set(stepsHash, entry);
  }
  return entry;
}

function addUsage(a: TokenUsage, b: TokenUsage | undefined): TokenUsage {
  return { inputTokens: a.inputTokens + (b?.inputTokens ?? 0), outputTokens: a.outputTokens + (b?.outputTokens ?? 0) };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
