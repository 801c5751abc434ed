// The one number formatter every page and chart uses: en-US thousands, honest
// percentages at the edges, and intervals that never collapse to "100–100%".
import { describe, expect, it } from "vitest";
import {
  distinguishingTails,
  formatBytes,
  formatScore,
  formatConfidenceInterval,
  formatCount,
  formatCountOf,
  formatDuration,
  formatInteger,
  formatMetricValue,
  formatPercent,
  formatPercentInterval,
  formatSeconds,
  formatUsd,
  wrapLabel,
} from "@/lib/charts/format";
import { wilsonInterval } from "@/lib/stats";

describe("counts", () => {
  it("group thousands with commas, whatever the size", () => {
    expect(formatInteger(1000)).toBe("1,000");
    expect(formatInteger(7000)).toBe("7,000");
    expect(formatInteger(24951)).toBe("24,951");
    expect(formatInteger(999)).toBe("999");
    expect(formatInteger(1234567.4)).toBe("1,234,567");
    expect(`${formatInteger(1000)} of ${formatInteger(1000)}`).toBe("1,000 of 1,000");
  });

  it("show a missing count as a dash and pluralise the noun", () => {
    expect(formatCount(null)).toBe("—");
    expect(formatCount(undefined)).toBe("—");
    expect(formatCount(12000)).toBe("12,000");
    expect(formatCountOf(1, "row")).toBe("1 row");
    expect(formatCountOf(1000, "row")).toBe("1,000 rows");
    expect(formatCountOf(0, "run")).toBe("0 runs");
  });
});

describe("percentages", () => {
  it("round to the digits asked for", () => {
    expect(formatPercent(0.72)).toBe("72.0%");
    expect(formatPercent(0.725, 0)).toBe("73%");
    expect(formatPercent(1, 0)).toBe("100%");
    expect(formatPercent(0, 0)).toBe("0%");
  });

  it("never read 100% short of 1, nor 0% above 0", () => {
    expect(formatPercent(999 / 1000, 0)).toBe("99.9%");
    expect(formatPercent(9999 / 10000, 0)).toBe("99.99%");
    expect(formatPercent(1 / 1000, 0)).toBe("0.1%");
    expect(formatPercent(0.9996, 1)).toBe("99.96%");
    expect(formatPercent(1e-9, 0)).toBe("<0.001%");
    expect(formatPercent(1 - 1e-9, 0)).toBe(">99.999%");
  });
});

describe("intervals", () => {
  it("an interval at the edge shows its computed Wilson bound, never 100–100%", () => {
    const interval = wilsonInterval(1000, 1000);
    expect(interval?.high).toBe(1);
    expect(interval?.low).toBeCloseTo(0.99617, 4);
    expect(`${formatPercent(1, 0)}, ${formatConfidenceInterval(interval)}`).toBe("100%, 95% CI 99.6–100%");
    expect(formatConfidenceInterval(wilsonInterval(0, 1000))).toBe("95% CI 0–0.4%");
    // Many rows: the bound gets the decimals it needs.
    expect(formatConfidenceInterval(wilsonInterval(100000, 100000))).toBe("95% CI 99.996–100%");
  });

  it("an ordinary interval keeps the digits asked for", () => {
    expect(formatConfidenceInterval(wilsonInterval(36, 50))).toBe("95% CI 58–83%");
    expect(formatConfidenceInterval(wilsonInterval(36, 50), 1)).toBe("95% CI 58.3–82.5%");
    expect(formatConfidenceInterval(null)).toBe("");
  });

  it("a narrow interval that rounds to one value gets decimals until its ends differ", () => {
    expect(formatPercentInterval(0.5012, 0.5049)).toBe("50.1–50.5%");
    expect(formatPercentInterval(0.5, 0.5)).toBe("50%");
  });
});

describe("durations, money, sizes, metric values", () => {
  it("durations", () => {
    expect(formatSeconds(0.05)).toBe("50 ms");
    expect(formatSeconds(1.234)).toBe("1.23 s");
    expect(formatSeconds(null)).toBe("—");
    expect(formatDuration(42)).toBe("42 s");
    expect(formatDuration(725)).toBe("12 min 5 s");
    expect(formatDuration(3 * 3600 + 240)).toBe("3 h 4 min");
  });

  it("dollars, never $0.0000 for a cost above zero", () => {
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(0.0032)).toBe("$0.0032");
    expect(formatUsd(0.000023)).toBe("$0.000023");
    expect(formatUsd(1234.5)).toBe("$1,234.50");
  });

  it("sizes", () => {
    expect(formatBytes(812)).toBe("812 B");
    expect(formatBytes(3500)).toBe("3.4 KB");
    expect(formatBytes(1024 * 1024)).toBe("1.0 MB");
    expect(formatBytes(1536 * 1024 * 1024)).toBe("1,536.0 MB");
  });

  it("metric values in their unit", () => {
    expect(formatMetricValue("agent/latency_seconds", 0.05)).toBe("50 ms");
    expect(formatMetricValue("agent/total_token_count", 12345.2, { tokenUnit: true })).toBe("12,345 tokens");
    expect(formatMetricValue("retrieval/llm_judged/chunk_relevance", 0.999)).toBe("99.9%");
    expect(formatMetricValue("retrieval/llm_judged/chunk_relevance", 0.5, { percentDigits: 1 })).toBe("50.0%");
  });
});

describe("long labels", () => {
  it("fit as they are when they fit", () => {
    expect(wrapLabel("Correctness", 20)).toEqual({ lines: ["Correctness"], abbreviated: false });
  });

  it("wrap after a space, slash or underscore, never inside a word", () => {
    expect(wrapLabel("answer_tone_and_politeness (custom)", 20)).toEqual({
      lines: ["answer_tone_and_", "politeness (custom)"],
      abbreviated: false,
    });
  });

  it("end in an ellipsis at a boundary when they do not fit, and say so", () => {
    const wrapped = wrapLabel("response/llm_judged/groundedness/rating/percentage", 16, 2);
    expect(wrapped.abbreviated).toBe(true);
    expect(wrapped.lines).toEqual(["response/llm_", "judged…"]);
    for (const line of wrapped.lines) expect(line.length).toBeLessThanOrEqual(16);
  });

  it("cut a single word only when it is longer than a whole line", () => {
    expect(wrapLabel("supercalifragilistic", 10, 1)).toEqual({ lines: ["supercali…"], abbreviated: true });
  });
});

describe("formatScore", () => {
  it("prints A DeepEval or Mastra score with two decimals, never rounding onto 0 or 1", () => {
    expect(formatScore(0.64)).toBe("0.64");
    expect(formatScore(1)).toBe("1.00");
    expect(formatScore(0)).toBe("0.00");
    expect(formatScore(0.9996)).toBe("0.9996");
    expect(formatScore(0.001)).toBe("0.001");
    expect(formatScore(7.5)).toBe("7.50");
    expect(formatMetricValue("response/llm_judged/faithfulness", 0.64)).toBe("0.64");
  });
});

describe("distinguishingTails", () => {
  it("drops the beginning every id shares, back to a separator, so labels differ", () => {
    expect(distinguishingTails(["northwind-support-0009", "northwind-support-0010", "northwind-support-0011"])).toEqual(
      ["…0009", "…0010", "…0011"],
    );
    expect(distinguishingTails(["q-09", "q-10"])).toEqual(["…09", "…10"]);
    expect(distinguishingTails(["run/a/1", "run/b/1"])).toEqual(["…a/1", "…b/1"]);
  });

  it("keeps ids whole when they share nothing up to a separator, or stand alone", () => {
    expect(distinguishingTails(["abc1", "abc2"])).toEqual(["abc1", "abc2"]);
    expect(distinguishingTails(["northwind-support-0009"])).toEqual(["northwind-support-0009"]);
    expect(distinguishingTails([])).toEqual([]);
    // An id that is all shared prefix is kept as it is.
    expect(distinguishingTails(["q-", "q-1"])).toEqual(["q-", "…1"]);
  });
});
