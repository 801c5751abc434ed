import { createHash } from "node:crypto";
import { LlmCallError } from "@/lib/llm/llmErrors";
import type { LlmClient } from "@/lib/llm/types";
import type { JudgeBackend, JudgeCache, JudgeRequest } from "./judgeBackend";
import { renderPrompt } from "./prompts/promptTemplate";
import { chunkRelevanceSingle, precisionOf } from "./prompts/retrievalTemplates";
import { templateForMetric, type AnyTemplate } from "./prompts/templateForMetric";
import { errorVerdict, type ChunkVerdict, type JudgeInput, type JudgeResult, type JudgeVerdict, type TokenUsage } from "./types";

type CallOutcome = { verdict: JudgeVerdict; usage: TokenUsage; attempts: number; cacheHit: boolean; promptHash: string; promptVersion: string };

/**
 * LLM judges: render the versioned prompt, reuse a cached answer for the
 * identical (model, version, prompt), otherwise call the model through the
 * injected client. A failed call becomes an error verdict: never a crash,
 * never cached.
 */
export function createLlmJudgeBackend(deps: { llm: LlmClient; cache: JudgeCache; model?: string; readCache?: boolean }): JudgeBackend {
  const model = deps.model ?? deps.llm.model;

  async function callTemplate(template: AnyTemplate, input: JudgeInput, context: unknown): Promise<CallOutcome> {
    const rendered = renderPrompt(template, input, context);
    const schema = template.schema(input, context);
    const key = createHash("sha256").update(`${model}\u0000${template.version}\u0000${rendered.hash}`).digest("hex");
    const base = { promptHash: rendered.hash, promptVersion: template.version };
    const cached = deps.readCache === false ? null : await deps.cache.get(key);
    if (cached) {
      const parsed = schema.safeParse(JSON.parse(cached.response));
      if (parsed.success) {
        return { ...base, verdict: template.toVerdict(parsed.data, input, context), usage: { inputTokens: 0, outputTokens: 0 }, attempts: 0, cacheHit: true };
      }
    }
    try {
      const result = await deps.llm.callStructured({ messages: rendered.messages, schema, schemaName: template.schemaName, model });
      await deps.cache.put({ key, model, promptVersion: template.version, response: JSON.stringify(result.value), ...result.usage }, { replace: deps.readCache === false });
      return { ...base, verdict: template.toVerdict(result.value, input, context), usage: result.usage, attempts: result.attempts, cacheHit: false };
    } catch (error) {
      if (!(error instanceof LlmCallError)) throw error;
      const chunkCount = template.version.startsWith("chunk_relevance.batched") || template.version.startsWith("custom.retrieval") ? input.retrievedContext.length : 0;
      return { ...base, verdict: errorVerdict(error.message, chunkCount), usage: error.usage, attempts: error.attempts, cacheHit: false };
    }
  }

  return {
    provider: deps.llm.provider,
    model,
    async judge(request: JudgeRequest): Promise<JudgeResult> {
      const started = Date.now();
      const perChunk = request.chunkMode === "per_chunk" && request.metric === "retrieval/llm_judged/chunk_relevance" && !request.custom;
      const outcome = perChunk ? await judgeChunksOneByOne(request.input) : await judgeOnce(request);
      return {
        ...outcome.verdict,
        provider: deps.llm.provider,
        model,
        promptVersion: outcome.promptVersion,
        promptHash: outcome.promptHash,
        usage: outcome.usage,
        cacheHit: outcome.cacheHit,
        attempts: outcome.attempts,
        latencyMs: Date.now() - started,
      };
    },
  };

  async function judgeOnce(request: JudgeRequest): Promise<CallOutcome> {
    const chosen = templateForMetric(request.metric, request.input, request.custom);
    if (!chosen) {
      return { verdict: errorVerdict(`no LLM judge is defined for ${request.metric}`), usage: { inputTokens: 0, outputTokens: 0 }, attempts: 0, cacheHit: false, promptHash: "", promptVersion: "none" };
    }
    return callTemplate(chosen.template, request.input, chosen.context);
  }

  /** One call per chunk (the Databricks way); the row's prompt hash is the hash of the per-chunk hashes. */
  async function judgeChunksOneByOne(input: JudgeInput): Promise<CallOutcome> {
    const outcomes = await Promise.all(input.retrievedContext.map((_, position) => callTemplate(chunkRelevanceSingle, input, { position })));
    const chunks: ChunkVerdict[] = outcomes.map((o, position) => ({ position, rating: o.verdict.rating, rationale: o.verdict.rationale, errorMessage: o.verdict.errorMessage }));
    const allFailed = chunks.length > 0 && chunks.every((c) => c.errorMessage !== null);
    return {
      verdict: { rating: null, score: precisionOf(chunks.map((c) => c.rating)), rationale: null, errorMessage: allFailed ? chunks[0].errorMessage : null, chunks },
      usage: outcomes.reduce((sum, o) => ({ inputTokens: sum.inputTokens + o.usage.inputTokens, outputTokens: sum.outputTokens + o.usage.outputTokens }), { inputTokens: 0, outputTokens: 0 }),
      attempts: outcomes.reduce((sum, o) => sum + o.attempts, 0),
      cacheHit: outcomes.length > 0 && outcomes.every((o) => o.cacheHit),
      promptHash: createHash("sha256").update(outcomes.map((o) => o.promptHash).join(",")).digest("hex"),
      promptVersion: chunkRelevanceSingle.version,
    };
  }
}
