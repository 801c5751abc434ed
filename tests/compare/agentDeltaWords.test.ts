// Latency and token deltas are worded in their unit, lower being better; a real change never prints as zero.
import { describe, expect, it } from "vitest";
import { describeScoreDelta } from "@/lib/compare/describeScoreDelta";

const TOKENS = "agent/total_output_token_count";
const LATENCY = "agent/latency_seconds";
const interval = (meanDiff: number, low: number, high: number, pValue: number) => ({ meanDiff, low, high, pValue });

describe("an agent metric's delta in words", () => {
  it("gives whole tokens and milliseconds where they read", () => {
    expect(describeScoreDelta(TOKENS, 12.4, interval(12.4, 3.2, 21.7, 0.01), 50, "paired_bootstrap").words).toBe(
      "Real regression: +12 tokens (95% CI +3 to +22 tokens; lower is better)",
    );
    expect(
      describeScoreDelta(LATENCY, -0.004, interval(-0.004, -0.006, -0.002, 0.001), 50, "paired_bootstrap"),
    ).toMatchObject({
      verdict: "better",
      words: "Real improvement: \u22124 ms (95% CI \u22126 to \u22122 ms; lower is better)",
    });
  });

  it("adds decimals to a real change that would round to zero, so it does not read '0 tokens (95% CI 0 to 0)'", () => {
    const delta = describeScoreDelta(TOKENS, 0.3, interval(0.3, 0.12, 0.46, 0.002), 100, "paired_bootstrap");
    expect(delta.verdict).toBe("worse");
    expect(delta.words).toBe("Real regression: +0.3 tokens (95% CI +0.1 to +0.5 tokens; lower is better)");
    // Likely noise keeps whole tokens: nothing is claimed.
    expect(describeScoreDelta(TOKENS, 0.3, interval(0.3, -0.2, 0.8, 0.3), 100, "paired_bootstrap").words).toBe(
      "Likely noise: 0 tokens (95% CI 0 to +1 tokens; lower is better)",
    );
  });
});
