import { z } from "zod";
import type { LlmConfig } from "@/lib/llm/llmConfig";
import { createLimiter, type Limiter } from "@/lib/llm/concurrencyLimiter";
import { createOpenAiLlmClient } from "@/lib/llm/openaiClient";
import type { LlmClient } from "@/lib/llm/types";

/** Shared fixtures for the tests/llm files: a recognisable fake key, a typical verdict schema, a recording sleep. */
export const FAKE_KEY = "sk-assay-test-KEY-9f8e7d6c5b4a3210zyxw";

export const verdictSchema = z.object({
  rating: z.enum(["yes", "no"]),
  rationale: z.string().min(1),
  score: z.number().min(0).max(1),
});
export type Verdict = z.infer<typeof verdictSchema>;

export const question = [
  { role: "system" as const, content: "You are a strict judge." },
  { role: "user" as const, content: "Is the answer 'Paris' correct for 'capital of France'?" },
];

export function openAiConfig(baseURL: string, overrides: Partial<LlmConfig> = {}): LlmConfig {
  return {
    endpoint: { kind: "openai", baseURL },
    apiKey: FAKE_KEY,
    model: "judge-model",
    timeoutMs: 5_000,
    maxAttempts: 5,
    structuredOutput: "json_schema",
    prices: {},
    maxOutputTokens: 2048,
    generationMaxTokens: 4096,
    maxInFlight: 32,
    ...overrides,
  };
}

export type Harness = { client: LlmClient; limiter: Limiter; waits: number[] };

/** A client whose backoff sleeps are recorded and skipped, with jitter pinned to the top of its range. */
export function makeClient(config: LlmConfig, options: { maxConcurrency?: number; realSleep?: boolean } = {}): Harness {
  const waits: number[] = [];
  const limiter = createLimiter(options.maxConcurrency ?? 4);
  const client = createOpenAiLlmClient({
    config,
    limiter,
    random: () => 0.5,
    ...(options.realSleep
      ? {}
      : {
          sleep: async (ms: number) => {
            waits.push(ms);
          },
        }),
  });
  return { client, limiter, waits };
}
