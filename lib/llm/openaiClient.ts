import OpenAI, { AzureOpenAI } from "openai";
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import type { z } from "zod";
import type { TokenUsage } from "@/lib/contract/judgeResult";
import type {
  ChatCallRequest,
  ChatCallResult,
  LlmClient,
  StructuredCallRequest,
  StructuredCallResult,
  TokenLogprob,
} from "./types";
import { endpointIdentity, type LlmConfig } from "./llmConfig";
import type { Limiter } from "./concurrencyLimiter";
import { LlmCallError, redactSecrets, type LlmCallErrorKind } from "./llmErrors";
import { nodeHttpFetch } from "./nodeHttpFetch";
import { classifyFailure, defaultSleep, retryDelayMs, type FailureClass, type Random, type Sleep } from "./retryPolicy";
import {
  buildStructuredRequest,
  extractAnswer,
  parseAnswer,
  repairTurns,
  toMessageParams,
  toWireSchema,
  type JsonSchema,
} from "./structuredFormat";

/**
 * The real LlmClient: the official openai SDK (OpenAI or AzureOpenAI) with
 * our own retry loop around it. The SDK's retries are off (maxRetries 0) so
 * that attempts are counted, Retry-After is honoured, and the shared limiter
 * slot is given back while we wait out a backoff.
 */
export type OpenAiLlmClientOptions = {
  config: LlmConfig;
  /** Shared by every caller that should count against the same concurrency budget (usually one per run or per process). */
  limiter: Limiter;
  /** Injectable for tests: record the waits instead of sleeping. */
  sleep?: Sleep;
  /** Injectable for tests: makes backoff jitter deterministic. */
  random?: Random;
};

/** Sent to keyless local servers (Ollama, vLLM without --api-key): the SDK refuses to start without some key. */
const PLACEHOLDER_KEY = "no-key-configured";

/** lastAttemptMs: duration of the attempt that succeeded, without slot waits or backoff (what generation latency reports). */
type Tally = { attempts: number; usage: TokenUsage; lastAttemptMs?: number };

export function createOpenAiLlmClient(options: OpenAiLlmClientOptions): LlmClient {
  const { config, limiter } = options;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const sdk = createSdk(config);
  const secrets = [config.apiKey];
  // toJSONSchema walks the whole schema; judges reuse a handful of schemas thousands of times.
  const wireCache = new WeakMap<z.ZodType, { schema: JsonSchema; strict: boolean }>();
  // Reasoning models (o-series, gpt-5…) reject temperature 0 with a 400. Learned
  // per model on the first such 400, so one judge run pays for it once.
  const rejectsTemperature = new Set<string>();
  // Reasoning models refuse max_tokens and want max_completion_tokens (same cap). Learned the same way.
  const wantsMaxCompletionTokens = new Set<string>();

  function error(kind: LlmCallErrorKind, message: string, tally: Tally, status: number | null = null): LlmCallError {
    return new LlmCallError(kind, redactSecrets(message, secrets), {
      attempts: tally.attempts,
      usage: tally.usage,
      status,
    });
  }

  /** One logical request: up to maxAttempts HTTP attempts, the limiter slot held only during each attempt. */
  async function send(
    label: string,
    body: ChatCompletionCreateParamsNonStreaming,
    signal: AbortSignal | undefined,
    tally: Tally,
  ): Promise<ChatCompletion> {
    const aborted = () => error("aborted", `${label} was cancelled`, tally);
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw aborted();
      if (body.temperature !== undefined && rejectsTemperature.has(body.model)) body = withoutTemperature(body);
      if (body.max_tokens != null && wantsMaxCompletionTokens.has(body.model)) body = withMaxCompletionTokens(body);
      let release: () => void;
      try {
        release = await limiter.acquire(signal);
      } catch {
        throw aborted();
      }
      let failure: FailureClass;
      tally.attempts += 1;
      try {
        const attemptStarted = performance.now();
        const completion = await sdk.chat.completions.create(body, { signal });
        tally.lastAttemptMs = performance.now() - attemptStarted;
        addUsage(tally.usage, completion);
        return completion;
      } catch (caught) {
        failure = signal?.aborted ? { kind: "aborted" } : classifyFailure(caught, secrets);
      } finally {
        release();
      }
      if (failure.kind === "aborted") throw aborted();
      if (
        failure.kind === "fatal" &&
        failure.status === 400 &&
        body.temperature !== undefined &&
        /temperature/i.test(failure.summary)
      ) {
        rejectsTemperature.add(body.model);
        continue; // at once: nothing to wait for, the request itself was wrong
      }
      if (
        failure.kind === "fatal" &&
        failure.status === 400 &&
        body.max_tokens != null &&
        /max_tokens/i.test(failure.summary)
      ) {
        wantsMaxCompletionTokens.add(body.model);
        continue;
      }
      if (failure.kind === "fatal") throw error("fatal", `${label} failed: ${failure.summary}`, tally, failure.status);
      if (attempt >= config.maxAttempts) {
        const attempts = attempt === 1 ? "1 attempt" : `${attempt} attempts`;
        throw error(
          "retries_exhausted",
          `${label} failed after ${attempts}: ${failure.summary}`,
          tally,
          failure.status,
        );
      }
      try {
        await sleep(retryDelayMs(failure, attempt, random), signal);
      } catch {
        throw aborted();
      }
    }
  }

  async function callStructured<T>(request: StructuredCallRequest<T>): Promise<StructuredCallResult<T>> {
    const started = performance.now();
    const tally: Tally = { attempts: 0, usage: { inputTokens: 0, outputTokens: 0 } };
    const model = request.model ?? config.model;
    let wire = wireCache.get(request.schema);
    if (!wire) {
      wire = toWireSchema(request.schema);
      wireCache.set(request.schema, wire);
    }
    let messages = toMessageParams(request.messages);
    let problem = "";
    // Round 0 is the question, round 1 the single repair: a model that fails twice
    // on the same schema rarely succeeds on a third try, and each try costs tokens.
    for (let round = 0; round < 2; round++) {
      const body = {
        ...buildStructuredRequest({
          mode: config.structuredOutput,
          model,
          messages,
          schemaName: request.schemaName,
          wire,
        }),
        // Every call is capped: a runaway answer costs at most this many output tokens.
        max_tokens: request.maxTokens ?? config.maxOutputTokens,
        ...(request.seed === undefined ? {} : { seed: request.seed }),
      };
      const completion = await send("judge call", withLogprobs(body, request.topLogprobs), request.signal, tally);
      const answer = extractAnswer(completion, config.structuredOutput);
      const outcome =
        answer.raw === null
          ? { ok: false as const, problem: answer.problem ?? "no answer" }
          : parseAnswer(answer.raw, request.schema);
      if (outcome.ok) {
        return {
          value: outcome.value,
          ...(request.topLogprobs === undefined ? {} : { logprobs: tokenLogprobs(completion) }),
          usage: { ...tally.usage },
          attempts: tally.attempts,
          latencyMs: Math.round(performance.now() - started),
        };
      }
      problem = outcome.problem;
      messages = [...messages, ...repairTurns(answer.raw ?? "(no answer)", problem)];
    }
    throw error(
      "malformed_output",
      `judge answer for "${request.schemaName}" was malformed even after a repair attempt: ${problem}`,
      tally,
    );
  }

  async function chat(request: ChatCallRequest): Promise<ChatCallResult> {
    const started = performance.now();
    const tally: Tally = { attempts: 0, usage: { inputTokens: 0, outputTokens: 0 } };
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: request.model,
      messages: toMessageParams(request.messages),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.seed === undefined ? {} : { seed: request.seed }),
      max_tokens: request.maxTokens ?? config.generationMaxTokens,
    };
    const completion = await send("generation call", body, request.signal, tally);
    const text = completion.choices[0]?.message?.content ?? "";
    // The model's own latency: the successful attempt, not our queueing or retry waits.
    return {
      text,
      usage: { ...tally.usage },
      attempts: tally.attempts,
      latencyMs: Math.round(tally.lastAttemptMs ?? performance.now() - started),
    };
  }

  return {
    provider: config.endpoint.kind,
    endpoint: endpointIdentity(config.endpoint),
    model: config.model,
    callStructured,
    chat,
  };
}

/**
 * Every option is passed explicitly so the SDK's own environment fallbacks
 * (OPENAI_BASE_URL, AZURE_OPENAI_ENDPOINT…) can never disagree with the
 * validated config, e.g. both set would make AzureOpenAI throw.
 */
function createSdk(config: LlmConfig): OpenAI {
  // nodeHttpFetch: keep-alive node:http instead of the built-in fetch; see that file for the measurements.
  const common = {
    apiKey: config.apiKey ?? PLACEHOLDER_KEY,
    timeout: config.timeoutMs,
    maxRetries: 0,
    fetch: nodeHttpFetch,
  };
  if (config.endpoint.kind === "azure") {
    // No `deployment`: AzureOpenAI then routes each request to /deployments/<model>,
    // so the per-request model (judge vs generator) picks the deployment.
    return new AzureOpenAI({
      ...common,
      baseURL: `${config.endpoint.endpoint}/openai`,
      apiVersion: config.endpoint.apiVersion,
    });
  }
  return new OpenAI({ ...common, baseURL: config.endpoint.baseURL ?? "https://api.openai.com/v1" });
}

function withoutTemperature(body: ChatCompletionCreateParamsNonStreaming): ChatCompletionCreateParamsNonStreaming {
  const { temperature: _dropped, ...rest } = body;
  return rest;
}

function withLogprobs(
  body: ChatCompletionCreateParamsNonStreaming,
  topLogprobs: number | undefined,
): ChatCompletionCreateParamsNonStreaming {
  return topLogprobs === undefined ? body : { ...body, logprobs: true, top_logprobs: topLogprobs };
}

/** The answer's token log-probabilities; null when the server sent none (many local servers, tool-call answers). */
function tokenLogprobs(completion: ChatCompletion): TokenLogprob[] | null {
  const content = completion.choices[0]?.logprobs?.content;
  if (!content || content.length === 0) return null;
  return content.map((t) => ({
    token: t.token,
    logprob: t.logprob,
    top: (t.top_logprobs ?? []).map((alt) => ({ token: alt.token, logprob: alt.logprob })),
  }));
}

function withMaxCompletionTokens(body: ChatCompletionCreateParamsNonStreaming): ChatCompletionCreateParamsNonStreaming {
  const { max_tokens: cap, ...rest } = body;
  return { ...rest, max_completion_tokens: cap };
}

function addUsage(usage: TokenUsage, completion: ChatCompletion): void {
  // Some local servers omit usage; counting 0 beats failing a valid answer.
  usage.inputTokens += completion.usage?.prompt_tokens ?? 0;
  usage.outputTokens += completion.usage?.completion_tokens ?? 0;
}
