import { HEURISTIC_MODEL } from "@/lib/contract/offlineJudge";
import { readLlmConfig, type LlmConfig } from "@/lib/llm/llmConfig";

/**
 * What the UI may know about the judge endpoint: provider, default model and
 * host. Built from the one validated LLM configuration (lib/llm/llmConfig.ts),
 * so OpenAI, OpenAI-compatible servers and Azure are all seen; never the key.
 */
export type JudgeProviderInfo =
  | { provider: "heuristic"; model: typeof HEURISTIC_MODEL; label: string }
  | { provider: "openai" | "azure"; model: string; endpoint: string; label: string };

export function describeJudgeProvider(config: LlmConfig | null = safeReadLlmConfig()): JudgeProviderInfo {
  if (!config)
    return { provider: "heuristic", model: HEURISTIC_MODEL, label: "Offline heuristic judge (no API key set)" };
  const url =
    config.endpoint.kind === "azure" ? config.endpoint.endpoint : (config.endpoint.baseURL ?? "https://api.openai.com");
  const endpoint = hostOf(url);
  return { provider: config.endpoint.kind, model: config.model, endpoint, label: `${config.model} via ${endpoint}` };
}

/** A misconfigured environment shows as "no judge configured" in the UI; the server log says what is wrong. */
function safeReadLlmConfig(): LlmConfig | null {
  try {
    return readLlmConfig();
  } catch (error) {
    console.error(`[assay] ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the configured endpoint";
  }
}
