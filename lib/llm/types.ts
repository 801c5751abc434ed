import type { z } from "zod";
import type { TokenUsage } from "@/lib/contract/judgeResult";

/**
 * The engine reaches a model only through this interface, so tests, the CLI
 * and the app can hand it a real OpenAI-compatible client (lib/llm/openaiClient.ts),
 * pointed at OpenAI, Azure, vLLM, Ollama, or the tests' fake server.
 */

export type ChatTurn = { role: "system" | "user" | "assistant"; content: string };

export type StructuredCallRequest<T> = {
  messages: ChatTurn[];
  /** The answer must fit this schema; it is sent as a JSON-schema response_format and validated on return. */
  schema: z.ZodType<T>;
  /** A short identifier for the schema, e.g. "correctness_verdict". */
  schemaName: string;
  /** Defaults to the client's configured judge model. */
  model?: string;
  /** This call's cap on output tokens; the configured default otherwise. Every call carries one. */
  maxTokens?: number;
  signal?: AbortSignal;
  /** Ask for each answer token's log-probability and this many alternatives (`logprobs`, `top_logprobs`; OpenAI allows up to 20). */
  topLogprobs?: number;
  /** OpenAI's `seed`: sent for a run's trials after the first, so that a deterministic server answers each trial anew. */
  seed?: number;
};

/** One answer token with its log-probability and the most likely alternatives at its position. */
export type TokenLogprob = { token: string; logprob: number; top: { token: string; logprob: number }[] };

export type StructuredCallResult<T> = {
  value: T;
  /** The answer's tokens, when topLogprobs was asked for and the server returned them; null otherwise. */
  logprobs?: TokenLogprob[] | null;
  usage: TokenUsage;
  /** HTTP attempts made, including retries and the repair attempt. */
  attempts: number;
  latencyMs: number;
};

export type ChatCallRequest = {
  model: string;
  messages: ChatTurn[];
  temperature?: number;
  /** OpenAI's `seed`: sent for a run's trials after the first, so that a deterministic server answers each trial anew. */
  seed?: number;
  /** This call's cap on output tokens; the configured generation default otherwise. */
  maxTokens?: number;
  signal?: AbortSignal;
};
export type ChatCallResult = { text: string; usage: TokenUsage; attempts: number; latencyMs: number };

export interface LlmClient {
  readonly provider: "openai" | "azure";
  /** Which endpoint answers (kind and URL): two servers may serve different models under one name. */
  readonly endpoint: string;
  /** The default judge model. */
  readonly model: string;
  /** Throws an LlmCallError when the call cannot produce a valid answer after retries and one repair attempt. */
  callStructured<T>(request: StructuredCallRequest<T>): Promise<StructuredCallResult<T>>;
  /** Plain chat completion, for generating responses to evaluate. */
  chat(request: ChatCallRequest): Promise<ChatCallResult>;
}
