import { createHash } from "node:crypto";
import type { JudgeCache } from "@/lib/contract/judgeCache";
import type { TokenUsage } from "@/lib/contract/judgeResult";
import { LlmCallError, type LlmCallErrorKind } from "@/lib/llm/llmErrors";
import type { LlmClient } from "@/lib/llm/types";
import { renderPrompt, type PromptCall } from "./prompts/promptTemplate";
import type { JudgeInput } from "./types";

/** One call's result before it is a verdict: its answer, or why there is none. */
export type StepOutcome = {
  /** The parsed answer (null when there is none), the context of a follow-up call. */
  answer: unknown;
  usage: TokenUsage;
  attempts: number;
  cacheHit: boolean;
  promptHash: string;
  promptVersion: string;
  /** Why the call produced no answer, when it did not. */
  failure: LlmCallErrorKind | null;
  errorMessage: string | null;
  /** The judge-cache key of the call (empty for composed outcomes). */
  key: string;
};

/**
 * Cached under a batched prompt's key once its row was judged chunk by chunk
 * instead: a re-run goes straight to the (cached) per-chunk answers rather
 * than paying again for a batched answer known to come back malformed. It
 * fits no answer schema, so nothing else can mistake it for a verdict.
 */
export const FELL_BACK_TO_PER_CHUNK = JSON.stringify({ assay_fallback: "per_chunk" });

const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 };

/** What a cached call needs: the client, the cache, the model asked, and whether cached answers are read. */
export type CachedCallDeps = { llm: LlmClient; cache: JudgeCache; model: string; readCache?: boolean };

/**
 * The one way a judge calls a model: render the versioned prompt, reuse a cached answer for the identical
 * (provider, endpoint, model, version, prompt), otherwise call the model through the injected client and cache
 * its answer. Shared by the pointwise judges (llmJudgeBackend.ts) and the pairwise judge (pairwise/).
 */
export function createCachedCaller(deps: CachedCallDeps) {
  const model = deps.model;
  /**
   * One call: its answer from the cache when the identical (provider, endpoint, model, version, prompt) was
   * answered before, otherwise from the model. A failed call is an outcome with `failure`, never a throw.
   */
  async function callStep(
    step: PromptCall<unknown, unknown>,
    input: JudgeInput,
    context: unknown,
  ): Promise<StepOutcome> {
    const rendered = renderPrompt(step, input, context);
    const schema = step.schema(input, context);
    // Keyed by who answers (provider and endpoint) as well as what was asked: two servers may use one model name.
    const key = createHash("sha256")
      .update(`${deps.llm.provider}\u0000${deps.llm.endpoint}\u0000${model}\u0000${step.version}\u0000${rendered.hash}`)
      .digest("hex");
    const base = { promptHash: rendered.hash, promptVersion: step.version, key };
    const cached = deps.readCache === false ? null : await deps.cache.get(key);
    if (cached?.response === FELL_BACK_TO_PER_CHUNK)
      return {
        ...base,
        answer: null,
        usage: { ...NO_USAGE },
        attempts: 0,
        cacheHit: true,
        failure: "malformed_output",
        errorMessage: "the batched answer was malformed on an earlier run",
      };
    if (cached) {
      const parsed = schema.safeParse(JSON.parse(cached.response));
      if (parsed.success)
        return {
          ...base,
          answer: parsed.data,
          usage: { ...NO_USAGE },
          attempts: 0,
          cacheHit: true,
          failure: null,
          errorMessage: null,
        };
    }
    try {
      const result = await deps.llm.callStructured({
        messages: rendered.messages,
        schema,
        schemaName: step.schemaName,
        model,
      });
      await deps.cache.put(
        { key, model, promptVersion: step.version, response: JSON.stringify(result.value), ...result.usage },
        { replace: deps.readCache === false },
      );
      return {
        ...base,
        answer: result.value,
        usage: result.usage,
        attempts: result.attempts,
        cacheHit: false,
        failure: null,
        errorMessage: null,
      };
    } catch (error) {
      if (!(error instanceof LlmCallError)) throw error;
      return {
        ...base,
        answer: null,
        usage: error.usage,
        attempts: error.attempts,
        cacheHit: false,
        failure: error.kind,
        errorMessage: error.message,
      };
    }
  }

  return callStep;
}
