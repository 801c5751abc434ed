import { describe, expect, it } from "vitest";
import { describeDelta, exactMcNemar, NO_CHANGE } from "@/lib/stats";

describe("describeDelta: binary (McNemar)", () => {
  it("words a significant improvement", () => {
    expect(describeDelta({ kind: "binary", pValue: 0.003, delta: 8 })).toEqual({
      verdict: "better",
      words: "Real improvement: +8.0 points (McNemar p = 0.003)",
    });
  });

  it("words noise with a typographic minus", () => {
    expect(describeDelta({ kind: "binary", pValue: 0.62, delta: -1.2 })).toEqual({
      verdict: "noise",
      words: "Likely noise: \u22121.2 points (p = 0.62)",
    });
  });

  it("words a significant regression and tiny p", () => {
    expect(describeDelta({ kind: "binary", pValue: 0.012, delta: -5 }).words).toBe(
      "Real regression: \u22125.0 points (McNemar p = 0.012)",
    );
    expect(describeDelta({ kind: "binary", pValue: 1e-9, delta: 12.34 }).words).toBe(
      "Real improvement: +12.3 points (McNemar p < 0.001)",
    );
  });

  it("uses p < alpha strictly, and honours a custom alpha", () => {
    expect(describeDelta({ kind: "binary", pValue: 0.05, delta: 3 }).verdict).toBe("noise");
    expect(describeDelta({ kind: "binary", pValue: 0.0499, delta: 3 }).verdict).toBe("better");
    expect(describeDelta({ kind: "binary", pValue: 0.0499, delta: 3 }, 0.01).verdict).toBe("noise");
    expect(describeDelta({ kind: "binary", pValue: 0.08, delta: -3 }, 0.1).verdict).toBe("worse");
  });

  it("never calls a zero delta real, and never prints −0.0", () => {
    expect(describeDelta({ kind: "binary", pValue: 0.001, delta: 0 }).verdict).toBe("noise");
    // Exactly zero is said as such, not as noise to be doubted.
    expect(describeDelta({ kind: "binary", pValue: 1, delta: 0 }).words).toBe("No net change: 0.0 points (p = 1)");
    expect(describeDelta({ kind: "score", low: 0, high: 0, delta: 0 })).toEqual({ verdict: "noise", words: NO_CHANGE });
    expect(describeDelta({ kind: "score", low: -0.1, high: 0.1, delta: 0 }).words).toBe(
      "Likely noise: 0.00 (95% CI −0.10 to 0.10)",
    );
    expect(describeDelta({ kind: "binary", pValue: 0.9, delta: -0.04 }).words).toBe(
      "Likely noise: 0.0 points (p = 0.90)",
    );
  });

  it("works end to end from discordant counts", () => {
    // 100 rows, b = 0, c = 6: yes-rate up 6 points; p = 2/64 = 0.03125 → "0.031".
    const { pValue } = exactMcNemar(0, 6);
    expect(describeDelta({ kind: "binary", pValue, delta: 6 }).words).toBe(
      "Real improvement: +6.0 points (McNemar p = 0.031)",
    );
  });
});

describe("describeDelta: score (interval)", () => {
  it("words a regression whose interval excludes 0", () => {
    expect(describeDelta({ kind: "score", low: -0.1, high: -0.02, delta: -0.06 })).toEqual({
      verdict: "worse",
      words: "Real regression: \u22120.06 (95% CI \u22120.10 to \u22120.02)",
    });
  });

  it("words an improvement and noise", () => {
    expect(describeDelta({ kind: "score", low: 0.02, high: 0.1, delta: 0.06 }).words).toBe(
      "Real improvement: +0.06 (95% CI 0.02 to 0.10)",
    );
    expect(describeDelta({ kind: "score", low: -0.03, high: 0.05, delta: 0.01 })).toEqual({
      verdict: "noise",
      words: "Likely noise: +0.01 (95% CI \u22120.03 to 0.05)",
    });
  });

  it("treats an interval touching 0 as noise", () => {
    expect(describeDelta({ kind: "score", low: 0, high: 0.2, delta: 0.1 }).verdict).toBe("noise");
    expect(describeDelta({ kind: "score", low: -0.2, high: 0, delta: -0.1 }).verdict).toBe("noise");
  });

  it("labels the interval with 1 − alpha", () => {
    expect(describeDelta({ kind: "score", low: 0.1, high: 0.3, delta: 0.2 }, 0.1).words).toBe(
      "Real improvement: +0.20 (90% CI 0.10 to 0.30)",
    );
    expect(describeDelta({ kind: "score", low: 0.1, high: 0.3, delta: 0.2 }, 0.001).words).toContain("99.9% CI");
  });

  it("adds decimals rather than print a real bound as 0.00", () => {
    expect(describeDelta({ kind: "score", low: 0.0012, high: 0.0041, delta: 0.0026 }).words).toBe(
      "Real improvement: +0.003 (95% CI 0.001 to 0.004)",
    );
  });

  it("rejects nonsense input", () => {
    expect(() => describeDelta({ kind: "binary", pValue: 1.2, delta: 1 })).toThrow(RangeError);
    expect(() => describeDelta({ kind: "binary", pValue: Number.NaN, delta: 1 })).toThrow(RangeError);
    expect(() => describeDelta({ kind: "score", low: 0.3, high: 0.1, delta: 0.2 })).toThrow(RangeError);
    expect(() => describeDelta({ kind: "score", low: 0.1, high: 0.3, delta: Number.NaN })).toThrow(RangeError);
    expect(() => describeDelta({ kind: "binary", pValue: 0.5, delta: 1 }, 0)).toThrow(RangeError);
  });
});
