import { createHash } from "node:crypto";
import type { TokenUsage, ChunkVerdict, JudgeResult, JudgeVerdict } from "@/lib/contract/judgeResult";
import type { LlmClient } from "@/lib/llm/types";
import { rowVerdictFromChunks } from "./chunkPrecision";
import type { JudgeCache } from "@/lib/contract/judgeCache";
import type { JudgeBackend, JudgeRequest } from "./judgeBackend";
import { alignTemplate } from "./prompts/alignedTemplate";
import type { PromptCall } from "./prompts/promptTemplate";
import { createCachedCaller, FELL_BACK_TO_PER_CHUNK, type StepOutcome } from "./cachedCall";
import { CallFailed, type CallPlan, type StepRunner } from "./deepEvalCalls/callPlan";
import { DEEPEVAL_CALL_PLANS } from "./deepEvalCalls/plans";
import { AGENT_CALL_PLANS } from "./agentCalls/agentPlans";
import { CONVERSATION_CALL_PLANS } from "./conversationCalls";
import { deepEvalSettings } from "@/lib/contract/deepEvalSettings";
import type { DeepEvalSettings } from "@/lib/contract/deepEvalSettings";
import { templateForMetric, type AnyTemplate } from "./prompts/templateForMetric";
import { errorVerdict, type JudgeInput } from "./types";
import { findMetric } from "@/lib/contract/metricCatalog";

/** Whose calls a plan makes, for its error messages. */
function upstreamOf(metric: string): string {
  return findMetric(metric)?.upstream === "mlflow" ? "MLflow's judge" : "DeepEval's call structure";
}

/** The prompt version a row judged with DeepEval's call structure names, with the metric and its number of calls. */
export const DEEPEVAL_CALLS_VERSION = "deepeval_calls/v1";
/** The same for MLflow's judges that make several calls (a session's knowledge retention: one per turn). */
export const MLFLOW_CALLS_VERSION = "mlflow_calls/v1";

/** A call (or a composition of calls) made a verdict. */
type CallOutcome = Omit<StepOutcome, "errorMessage"> & { verdict: JudgeVerdict };

const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 };

/** Never stored: judgeOnce always replaces it with the follow-up call's verdict (or its error). */
const AWAITING_FOLLOW_UP = errorVerdict("the follow-up call was not made");

/**
 * LLM judges: render the versioned prompt, reuse a cached answer for the
 * identical (provider, endpoint, model, version, prompt), otherwise call the model through the
 * injected client. A failed call becomes an error verdict: never a crash,
 * never cached.
 */
export function createLlmJudgeBackend(deps: {
  llm: LlmClient;
  cache: JudgeCache;
  model?: string;
  readCache?: boolean;
}): JudgeBackend {
  const model = deps.model ?? deps.llm.model;

  const callStep = createCachedCaller({ ...deps, model });

  /** One call of a template: its answer made a verdict (or, for a two-call judge's first, kept for the follow-up). */
  async function callTemplate(
    template: AnyTemplate,
    input: JudgeInput,
    context: unknown,
    chunkCount = 0,
  ): Promise<CallOutcome> {
    const step = await callStep(template, input, context);
    const { errorMessage, ...outcome } = step;
    if (step.failure !== null)
      return { ...outcome, verdict: errorVerdict(errorMessage ?? "the call failed", chunkCount) };
    // A two-call judge's first answer is no verdict yet: judgeOnce replaces it with the follow-up's.
    const verdict = template.followUp ? AWAITING_FOLLOW_UP : template.toVerdict(step.answer, input, context);
    return { ...outcome, verdict };
  }

  /**
   * A metric judged with DeepEval's own call structure (lib/judges/deepEvalCalls): every call the plan
   * makes is cached and accounted for; the row's prompt version names the plan and its number of calls,
   * and its hash combines the calls' hashes in the order they were made.
   */
  async function judgeByPlan(
    plan: CallPlan,
    metric: string,
    input: JudgeInput,
    settings: DeepEvalSettings,
    run?: JudgeRequest["settings"],
  ): Promise<CallOutcome> {
    const made: StepOutcome[] = [];
    const call: StepRunner = async (step, context) => {
      const outcome = await callStep(step as PromptCall<unknown, unknown>, input, context);
      made.push(outcome);
      if (outcome.failure !== null) throw new CallFailed(step.version, outcome.errorMessage ?? "the call failed");
      return outcome.answer as never;
    };
    let verdict: JudgeVerdict;
    try {
      verdict = await plan({ input, settings, call, ...(run ? { run } : {}) });
    } catch (error) {
      if (!(error instanceof CallFailed)) throw error;
      verdict = errorVerdict(`${upstreamOf(metric)}: the ${error.step} call failed: ${error.message}`);
    }
    return {
      verdict,
      usage: made.reduce((sum, o) => addUsage(sum, o.usage), { ...NO_USAGE }),
      attempts: made.reduce((sum, o) => sum + o.attempts, 0),
      cacheHit: made.length > 0 && made.every((o) => o.cacheHit),
      promptHash: createHash("sha256")
        .update(made.map((o) => o.promptHash).join(","))
        .digest("hex"),
      // Whose calls they were: MLflow's and DeepEval's knowledge_retention must not read alike.
      promptVersion: `${findMetric(metric)?.upstream === "mlflow" ? MLFLOW_CALLS_VERSION : DEEPEVAL_CALLS_VERSION} ${metric.split("/").pop()} (${made.length} ${made.length === 1 ? "call" : "calls"})`,
      failure: made.find((o) => o.failure !== null)?.failure ?? null,
      key: "",
      answer: null,
    };
  }

  return {
    provider: deps.llm.provider,
    model,
    async judge(request: JudgeRequest): Promise<JudgeResult> {
      const started = Date.now();
      const found = templateForMetric(request.metric, request.input, request.custom);
      const chosen =
        found && request.alignment ? { ...found, template: alignTemplate(found.template, request.alignment) } : found;
      const deepEval = request.settings?.deepEval;
      // DeepEval's agent metrics have only DeepEval's own calls; its other metrics, when the run asks for them.
      const plan =
        AGENT_CALL_PLANS[request.metric] ??
        CONVERSATION_CALL_PLANS[request.metric] ??
        (deepEval?.callStructure === "deepeval" ? DEEPEVAL_CALL_PLANS[request.metric] : undefined);
      const outcome = plan
        ? await judgeByPlan(plan, request.metric, request.input, deepEval ?? deepEvalSettings(), request.settings)
        : !chosen
          ? noJudgeFor(request.metric)
          : chosen.template.perChunk && request.chunkMode === "per_chunk"
            ? await judgeChunksOneByOne(chosen.template.singleChunk, request.input)
            : await judgeOnce(
                chosen.template,
                chosen.context ?? request.settings,
                request.input,
                request.allowMoreCalls,
              );
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

  /**
   * One call for the row. A per-chunk judge's batched answer that stays
   * malformed after its repair attempt (wrong chunk numbers or count, not
   * JSON) falls back to one call per chunk for that row, so one bad answer
   * does not error every chunk. Transport failures do not: N more calls to a
   * failing server would only multiply the cost. Nor does a fallback the
   * run's budget has no room for: the row is an error that says so.
   */
  async function judgeOnce(
    template: AnyTemplate,
    context: unknown,
    input: JudgeInput,
    allowMoreCalls: JudgeRequest["allowMoreCalls"],
  ): Promise<CallOutcome> {
    const chunkCount = template.perChunk ? input.retrievedContext.length : 0;
    const batched = await callTemplate(template, input, context, chunkCount);
    if (template.followUp)
      return batched.failure === null ? followUp(template.followUp, batched, input, context) : batched;
    if (!template.perChunk || batched.failure !== "malformed_output" || chunkCount === 0) return batched;
    const single = template.singleChunk;
    // A cached fallback marker costs nothing to follow when the per-chunk answers are cached too, but the budget
    // cannot know that in advance: it is asked for the worst case.
    if (allowMoreCalls && !allowMoreCalls(batched.attempts, chunkCount)) {
      const stopped = `The batched answer for all ${chunkCount} chunks was malformed even after a repair attempt, and judging each chunk in its own call (${chunkCount} more LLM calls) would pass the run's budget, so the chunks were not judged. Raise the budget, then re-judge the errored judgments. Batched call: ${batched.verdict.errorMessage}`;
      return { ...batched, verdict: errorVerdict(stopped, chunkCount) };
    }
    const perChunk = await judgeChunksOneByOne(single, input);
    // Only a fallback that judged every chunk is remembered: errors are never cached.
    if (perChunk.failure === null && !batched.cacheHit) {
      await deps.cache.put(
        {
          key: batched.key,
          model,
          promptVersion: template.version,
          response: FELL_BACK_TO_PER_CHUNK,
          ...batched.usage,
        },
        { replace: deps.readCache === false },
      );
    }
    const note = `The batched answer for all ${chunkCount} chunks was malformed even after a repair attempt, so each chunk was judged in its own call (${single.version}). Batched call: ${batched.verdict.errorMessage}`;
    return {
      ...perChunk,
      verdict: { ...perChunk.verdict, rationale: note },
      usage: addUsage(batched.usage, perChunk.usage),
      attempts: batched.attempts + perChunk.attempts,
      cacheHit: batched.cacheHit && perChunk.cacheHit,
      promptVersion: `${single.version} (fallback from ${template.version})`,
    };
  }

  /**
   * The second call of a two-call judge, given the first answer as its
   * context. Usage and attempts are the sum of both; the row's prompt version
   * names both versions and its hash combines both hashes, so the rating
   * traces to the exact words of each call.
   */
  async function followUp(
    template: AnyTemplate,
    first: CallOutcome,
    input: JudgeInput,
    settings: unknown,
  ): Promise<CallOutcome> {
    const second = await callTemplate(template, input, { first: first.answer, settings });
    return {
      ...second,
      verdict:
        second.failure === null
          ? second.verdict
          : errorVerdict(`the follow-up call (${template.version}) failed: ${second.verdict.errorMessage ?? ""}`),
      usage: addUsage(first.usage, second.usage),
      attempts: first.attempts + second.attempts,
      cacheHit: first.cacheHit && second.cacheHit,
      promptHash: createHash("sha256").update(`${first.promptHash},${second.promptHash}`).digest("hex"),
      promptVersion: `${first.promptVersion} + ${second.promptVersion}`,
      key: "",
    };
  }

  /** One call per chunk (the Databricks way); the row's prompt hash is the hash of the per-chunk hashes. */
  async function judgeChunksOneByOne(single: AnyTemplate, input: JudgeInput): Promise<CallOutcome> {
    const outcomes = await Promise.all(
      input.retrievedContext.map((_, position) => callTemplate(single, input, { position })),
    );
    const chunks: ChunkVerdict[] = outcomes.map((o, position) => ({
      position,
      rating: o.verdict.rating,
      rationale: o.verdict.rationale,
      errorMessage: o.verdict.errorMessage,
    }));
    return {
      verdict: rowVerdictFromChunks(chunks),
      usage: outcomes.reduce((sum, o) => addUsage(sum, o.usage), { ...NO_USAGE }),
      attempts: outcomes.reduce((sum, o) => sum + o.attempts, 0),
      cacheHit: outcomes.length > 0 && outcomes.every((o) => o.cacheHit),
      promptHash: createHash("sha256")
        .update(outcomes.map((o) => o.promptHash).join(","))
        .digest("hex"),
      promptVersion: single.version,
      failure: outcomes.find((o) => o.failure !== null)?.failure ?? null,
      key: "",
      answer: null,
    };
  }
}

function noJudgeFor(metric: string): CallOutcome {
  return {
    verdict: errorVerdict(`no LLM judge is defined for ${metric}`),
    usage: { ...NO_USAGE },
    attempts: 0,
    cacheHit: false,
    promptHash: "",
    promptVersion: "none",
    failure: "fatal",
    key: "",
    answer: null,
  };
}

function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}
