import { describe, expect, it } from "vitest";
import { costUsd } from "@/lib/llm/pricing";

const prices = { "gpt-4.1": { input: 2, output: 8 }, "gpt-4.1-mini": { input: 0.4, output: 1.6 } };

describe("costUsd", () => {
  it("prices tokens per million", () => {
    expect(costUsd("gpt-4.1-mini", { inputTokens: 1_000_000, outputTokens: 500_000 }, prices)).toBeCloseTo(1.2, 10);
  });

  it("prices a dated snapshot by its longest family name", () => {
    expect(costUsd("gpt-4.1-mini-2025-04-14", { inputTokens: 1_000_000, outputTokens: 0 }, prices)).toBeCloseTo(
      0.4,
      10,
    );
    expect(costUsd("gpt-4.1-2025-04-14", { inputTokens: 1_000_000, outputTokens: 0 }, prices)).toBeCloseTo(2, 10);
  });

  it("is null, not zero, when the price or usage is unknown", () => {
    expect(costUsd("llama3", { inputTokens: 10, outputTokens: 10 }, prices)).toBeNull();
    expect(costUsd("gpt-4.1", null, prices)).toBeNull();
    expect(costUsd("constructor", { inputTokens: 1, outputTokens: 1 }, prices)).toBeNull();
  });
});
