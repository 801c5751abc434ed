import { z } from "zod";
import type { LlmPrices } from "./pricing";
import { redactSecrets } from "./llmErrors";
import { modelNameProblem } from "./modelName";

/**
 * Where the judge model lives, read once from the environment. Every message
 * this module produces names the variable at fault and never quotes a value:
 * a key pasted into the wrong variable must not end up in a log or the UI.
 */
export type StructuredOutputMode = "json_schema" | "json_object" | "tool";

export type LlmEndpoint =
  /** OpenAI itself (baseURL null) or any OpenAI-compatible server: vLLM, Ollama, LiteLLM… */
  | { kind: "openai"; baseURL: string | null }
  /** Azure OpenAI: `endpoint` is the resource URL; the model name is used as the deployment name. */
  | { kind: "azure"; endpoint: string; apiVersion: string };

export type LlmConfig = {
  endpoint: LlmEndpoint;
  /** Null for keyless local servers; the client then sends a placeholder the server ignores. */
  apiKey: string | null;
  /** Default judge model (on Azure: deployment name). */
  model: string;
  timeoutMs: number;
  /** HTTP attempts per request, first try included. */
  maxAttempts: number;
  structuredOutput: StructuredOutputMode;
  prices: LlmPrices;
  /** max_tokens of a judge call unless the call sets its own: what one answer may cost at most. */
  maxOutputTokens: number;
  /** max_tokens of a generation call (an answer to evaluate is longer than a verdict). */
  generationMaxTokens: number;
  /** Calls in flight to this endpoint at most, across every run in the process (each run's own limit applies inside it). */
  maxInFlight: number;
};

export const DEFAULT_JUDGE_MODEL = "gpt-4.1-mini";
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_ATTEMPTS = 5;
/** A verdict with its rationale, or a batched per-chunk answer of a few dozen chunks, fits comfortably. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 2048;
export const DEFAULT_GENERATION_MAX_TOKENS = 4096;
export const DEFAULT_MAX_IN_FLIGHT = 64;
/** The GA Azure API version that supports json_schema structured outputs. */
export const DEFAULT_AZURE_API_VERSION = "2024-10-21";

type Env = Record<string, string | undefined>;

const httpUrl = z.url({ protocol: /^https?$/ });
const positiveInt = (max: number) => z.coerce.number().int().min(1).max(max);
const priceSchema = z.record(
  z.string().min(1),
  z.object({ input: z.number().min(0), output: z.number().min(0) }).strict(),
);

/**
 * Returns null when no endpoint is configured at all (the app then runs its
 * offline judge), else a validated config. Throws an Error naming the bad
 * variable; the message is additionally scrubbed of every key in `env`.
 */
export function readLlmConfig(env: Env = process.env): LlmConfig | null {
  const get = (name: string): string | undefined => {
    // `FOO=` in a .env file means "unset", not "the empty string".
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const secrets = [env.OPENAI_API_KEY, env.AZURE_OPENAI_API_KEY];
  const fail = (message: string): never => {
    throw new Error(redactSecrets(message, secrets));
  };

  const openAiKey = get("OPENAI_API_KEY");
  const baseUrl = get("OPENAI_BASE_URL");
  const azureEndpoint = get("AZURE_OPENAI_ENDPOINT");
  const azureKey = get("AZURE_OPENAI_API_KEY");
  if (!openAiKey && !baseUrl && !azureEndpoint && !azureKey) return null;

  let endpoint: LlmEndpoint;
  let apiKey: string | null;
  if (azureEndpoint || azureKey) {
    if (!azureEndpoint)
      return fail(
        "AZURE_OPENAI_ENDPOINT is required when AZURE_OPENAI_API_KEY is set (e.g. https://my-resource.openai.azure.com)",
      );
    if (!httpUrl.safeParse(azureEndpoint).success)
      return fail("AZURE_OPENAI_ENDPOINT must be an http(s) URL such as https://my-resource.openai.azure.com");
    apiKey = azureKey ?? openAiKey ?? null;
    if (!apiKey) return fail("AZURE_OPENAI_API_KEY is required when AZURE_OPENAI_ENDPOINT is set");
    const apiVersion = get("OPENAI_API_VERSION") ?? DEFAULT_AZURE_API_VERSION;
    if (!/^\d{4}-\d{2}-\d{2}(-preview)?$/.test(apiVersion))
      return fail("OPENAI_API_VERSION must look like 2024-10-21 or 2025-01-01-preview");
    endpoint = { kind: "azure", endpoint: azureEndpoint.replace(/\/+$/, ""), apiVersion };
  } else {
    if (baseUrl && !httpUrl.safeParse(baseUrl).success) {
      return fail("OPENAI_BASE_URL must be an http(s) URL such as http://localhost:11434/v1");
    }
    apiKey = openAiKey ?? null;
    endpoint = { kind: "openai", baseURL: baseUrl ? baseUrl.replace(/\/+$/, "") : null };
  }

  const model = get("ASSAY_JUDGE_MODEL") ?? DEFAULT_JUDGE_MODEL;
  const modelProblem = modelNameProblem(model);
  if (modelProblem) fail(`ASSAY_JUDGE_MODEL must be a model or deployment name: ${modelProblem}`);

  const timeoutMs = parseOr(get("ASSAY_LLM_TIMEOUT_MS"), positiveInt(3_600_000), DEFAULT_TIMEOUT_MS, () =>
    fail("ASSAY_LLM_TIMEOUT_MS must be a whole number of milliseconds between 1 and 3600000"),
  );
  const maxAttempts = parseOr(get("ASSAY_LLM_MAX_ATTEMPTS"), positiveInt(20), DEFAULT_MAX_ATTEMPTS, () =>
    fail("ASSAY_LLM_MAX_ATTEMPTS must be a whole number between 1 and 20"),
  );
  const structuredOutput = parseOr(
    get("ASSAY_STRUCTURED_OUTPUT"),
    z.enum(["json_schema", "json_object", "tool"]),
    "json_schema",
    () => fail('ASSAY_STRUCTURED_OUTPUT must be one of "json_schema", "json_object", "tool"'),
  );
  const prices = readPrices(get("ASSAY_LLM_PRICES"), fail);
  const maxOutputTokens = parseOr(get("ASSAY_LLM_MAX_TOKENS"), positiveInt(1_000_000), DEFAULT_MAX_OUTPUT_TOKENS, () =>
    fail("ASSAY_LLM_MAX_TOKENS must be a whole number of tokens between 1 and 1000000"),
  );
  const generationMaxTokens = parseOr(
    get("ASSAY_GENERATION_MAX_TOKENS"),
    positiveInt(1_000_000),
    DEFAULT_GENERATION_MAX_TOKENS,
    () => fail("ASSAY_GENERATION_MAX_TOKENS must be a whole number of tokens between 1 and 1000000"),
  );
  const maxInFlight = parseOr(get("ASSAY_LLM_MAX_IN_FLIGHT"), positiveInt(4096), DEFAULT_MAX_IN_FLIGHT, () =>
    fail("ASSAY_LLM_MAX_IN_FLIGHT must be a whole number between 1 and 4096"),
  );

  return {
    endpoint,
    apiKey,
    model,
    timeoutMs,
    maxAttempts,
    structuredOutput,
    prices,
    maxOutputTokens,
    generationMaxTokens,
    maxInFlight,
  };
}

function parseOr<T>(raw: string | undefined, schema: z.ZodType<T>, fallback: T, onError: () => never): T {
  if (raw === undefined) return fallback;
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : onError();
}

function readPrices(raw: string | undefined, fail: (message: string) => never): LlmPrices {
  if (raw === undefined) return {};
  const example = '{"gpt-4.1-mini": {"input": 0.4, "output": 1.6}}';
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return fail(`ASSAY_LLM_PRICES is not valid JSON; expected e.g. ${example} (USD per 1M tokens)`);
  }
  const parsed = priceSchema.safeParse(json);
  if (!parsed.success) {
    // Paths are our own structure plus model names; no values are quoted.
    const where = parsed.error.issues.map((issue) => issue.path.join(".") || "(root)").join(", ");
    return fail(
      `ASSAY_LLM_PRICES must map model names to {"input": number, "output": number} in USD per 1M tokens (problem at ${where}); e.g. ${example}`,
    );
  }
  return parsed.data;
}

/** A one-line description for logs and the settings page: never includes the key. */
/** Which endpoint a config talks to, as one string: the shared limiter and the judge cache are keyed by it. */
export function endpointIdentity(endpoint: LlmEndpoint): string {
  return endpoint.kind === "azure"
    ? `azure ${endpoint.endpoint} ${endpoint.apiVersion}`
    : `openai ${endpoint.baseURL ?? "https://api.openai.com/v1"}`;
}

export function describeLlmConfig(config: LlmConfig): string {
  const where =
    config.endpoint.kind === "azure"
      ? `Azure OpenAI at ${withoutCredentials(config.endpoint.endpoint)} (api-version ${config.endpoint.apiVersion})`
      : config.endpoint.baseURL
        ? `OpenAI-compatible endpoint ${withoutCredentials(config.endpoint.baseURL)}`
        : "OpenAI";
  return `${where}, model ${config.model}, ${config.apiKey ? "API key set" : "no API key"}, structured output ${config.structuredOutput}`;
}

/** Proxies are sometimes configured as https://user:password@host; that password is a secret too. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "(invalid URL)";
  }
}
