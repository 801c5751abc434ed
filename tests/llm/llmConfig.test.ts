import { describe, expect, it } from "vitest";
import { describeLlmConfig, readLlmConfig } from "@/lib/llm/llmConfig";

const KEY = "sk-config-test-SECRET-1234567890abcdef";
const AZURE_KEY = "0123456789abcdef0123456789abcdef";

function errorOf(env: Record<string, string>): string {
  try {
    readLlmConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected readLlmConfig to throw");
}

describe("readLlmConfig", () => {
  it("returns null when nothing is configured (the offline judge is used)", () => {
    expect(readLlmConfig({})).toBeNull();
    expect(readLlmConfig({ OPENAI_API_KEY: "", OPENAI_BASE_URL: "  ", ASSAY_JUDGE_MODEL: "x" })).toBeNull();
  });

  it("reads an OpenAI key with defaults", () => {
    expect(readLlmConfig({ OPENAI_API_KEY: KEY })).toEqual({
      endpoint: { kind: "openai", baseURL: null },
      apiKey: KEY,
      model: "gpt-4.1-mini",
      timeoutMs: 60_000,
      maxAttempts: 5,
      structuredOutput: "json_schema",
      prices: {},
      maxOutputTokens: 2048,
      generationMaxTokens: 4096,
      maxInFlight: 64,
    });
  });

  it("accepts a keyless OpenAI-compatible server", () => {
    const config = readLlmConfig({
      OPENAI_BASE_URL: "http://localhost:11434/v1/",
      ASSAY_JUDGE_MODEL: "llama3.1:8b",
      ASSAY_STRUCTURED_OUTPUT: "json_object",
    });
    expect(config?.endpoint).toEqual({ kind: "openai", baseURL: "http://localhost:11434/v1" });
    expect(config?.apiKey).toBeNull();
    expect(config?.model).toBe("llama3.1:8b");
    expect(config?.structuredOutput).toBe("json_object");
  });

  it("reads Azure, with the deployment as the model", () => {
    const config = readLlmConfig({
      AZURE_OPENAI_ENDPOINT: "https://res.openai.azure.com/",
      AZURE_OPENAI_API_KEY: AZURE_KEY,
      ASSAY_JUDGE_MODEL: "judge-deploy",
    });
    expect(config?.endpoint).toEqual({
      kind: "azure",
      endpoint: "https://res.openai.azure.com",
      apiVersion: "2024-10-21",
    });
    expect(config?.apiKey).toBe(AZURE_KEY);
    expect(config?.model).toBe("judge-deploy");
  });

  it("reads numbers, mode and prices", () => {
    const config = readLlmConfig({
      OPENAI_API_KEY: KEY,
      ASSAY_LLM_TIMEOUT_MS: "1500",
      ASSAY_LLM_MAX_ATTEMPTS: "2",
      ASSAY_STRUCTURED_OUTPUT: "tool",
      ASSAY_LLM_PRICES: '{"gpt-4.1-mini": {"input": 0.4, "output": 1.6}}',
    });
    expect(config).toMatchObject({
      timeoutMs: 1500,
      maxAttempts: 2,
      structuredOutput: "tool",
      prices: { "gpt-4.1-mini": { input: 0.4, output: 1.6 } },
    });
  });

  it.each([
    [{ OPENAI_BASE_URL: "not a url" }, /^OPENAI_BASE_URL must be an http\(s\) URL/],
    [{ OPENAI_BASE_URL: "ftp://example.com" }, /^OPENAI_BASE_URL/],
    [{ OPENAI_API_KEY: KEY, ASSAY_LLM_TIMEOUT_MS: "soon" }, /^ASSAY_LLM_TIMEOUT_MS/],
    [{ OPENAI_API_KEY: KEY, ASSAY_LLM_TIMEOUT_MS: "-5" }, /^ASSAY_LLM_TIMEOUT_MS/],
    [{ OPENAI_API_KEY: KEY, ASSAY_LLM_MAX_ATTEMPTS: "0" }, /^ASSAY_LLM_MAX_ATTEMPTS/],
    [{ OPENAI_API_KEY: KEY, ASSAY_STRUCTURED_OUTPUT: "xml" }, /^ASSAY_STRUCTURED_OUTPUT/],
    [{ OPENAI_API_KEY: KEY, ASSAY_LLM_PRICES: "{not json" }, /^ASSAY_LLM_PRICES is not valid JSON/],
    [{ OPENAI_API_KEY: KEY, ASSAY_LLM_PRICES: '{"m": {"input": "cheap"}}' }, /^ASSAY_LLM_PRICES .*problem at m\.input/],
    [{ OPENAI_API_KEY: KEY, ASSAY_JUDGE_MODEL: "gpt 4" }, /^ASSAY_JUDGE_MODEL/],
    [{ AZURE_OPENAI_API_KEY: AZURE_KEY }, /^AZURE_OPENAI_ENDPOINT is required/],
    [{ AZURE_OPENAI_ENDPOINT: "https://res.openai.azure.com" }, /^AZURE_OPENAI_API_KEY is required/],
    [
      { AZURE_OPENAI_ENDPOINT: "res.openai.azure.com", AZURE_OPENAI_API_KEY: AZURE_KEY },
      /^AZURE_OPENAI_ENDPOINT must be/,
    ],
    [
      {
        AZURE_OPENAI_ENDPOINT: "https://r.openai.azure.com",
        AZURE_OPENAI_API_KEY: AZURE_KEY,
        OPENAI_API_VERSION: "latest",
      },
      /^OPENAI_API_VERSION/,
    ],
  ])("names the bad variable: %j", (env, pattern) => {
    expect(errorOf(env)).toMatch(pattern);
  });

  it("never puts a key in a message, even one pasted into the wrong variable", () => {
    const messages = [
      errorOf({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: KEY }),
      errorOf({ OPENAI_API_KEY: KEY, ASSAY_LLM_TIMEOUT_MS: KEY }),
      errorOf({ OPENAI_API_KEY: KEY, ASSAY_LLM_PRICES: `{"${KEY}": 1}` }),
      errorOf({ AZURE_OPENAI_ENDPOINT: AZURE_KEY, AZURE_OPENAI_API_KEY: AZURE_KEY }),
    ];
    for (const message of messages) {
      expect(message).not.toContain(KEY);
      expect(message).not.toContain(AZURE_KEY);
    }
    expect(messages[2]).toMatch(/\[redacted\]/);
  });

  it("describes a config without its key", () => {
    const config = readLlmConfig({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: "https://user:pw@proxy.example/v1" })!;
    const text = describeLlmConfig(config);
    expect(text).toMatch(/proxy\.example/);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain("pw@");
  });
});
