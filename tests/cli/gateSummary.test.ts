import { describe, expect, it } from "vitest";
import { gateLines, gateSummaryMarkdown } from "@/lib/cli/gateSummary";
import { regressedMetrics, parseBaselineSpec, type ServedComparison } from "@/lib/cli/regressionGate";

const statistic = (
  metric: string,
  unit: "rate" | "score" | "seconds",
  verdict: "worse" | "better" | "noise" | "n/a",
) => ({
  metric,
  baseline_run_id: "base",
  candidate_run_id: "cand",
  unit,
  baseline_value: unit === "rate" ? 0.9 : 0.71,
  candidate_value: unit === "rate" ? 0.6 : 0.7,
  delta: unit === "rate" ? -0.3 : -0.01,
  delta_basis: "paired_rows" as const,
  overall_delta: null,
  interval_low: verdict === "n/a" ? null : -0.4,
  interval_high: verdict === "n/a" ? null : -0.2,
  p_value: unit === "rate" ? 0.001 : verdict === "n/a" ? null : 0.2,
  adjusted_p_value: unit === "rate" ? 0.003 : verdict === "n/a" ? null : 0.4,
  correction: "holm" as const,
  family_size: 3,
  test: verdict === "n/a" ? null : unit === "rate" ? ("exact_mcnemar" as const) : ("paired_bootstrap" as const),
  verdict,
  words: `${verdict} | words`,
  paired_rows: 30,
  unpaired_rows: 0,
  regressions: null,
  improvements: null,
  judged_differently: null,
});

const comparison: ServedComparison = {
  baselineId: "base",
  alpha: 0.01,
  correction: "holm",
  runs: [
    {
      id: "base",
      name: "main | nightly",
      datasetId: "d1",
      datasetName: "a",
      status: "completed",
      judge: { provider: "openai", model: "m" },
      metrics: [
        "response/llm_judged/correctness",
        "response/llm_judged/deepeval/faithfulness",
        "agent/latency_seconds",
      ],
      trials: 3,
      flakyRows: 2,
    },
    {
      id: "cand",
      name: "pr-7",
      datasetId: "d2",
      datasetName: "b",
      status: "completed",
      judge: { provider: "openai", model: "m" },
      metrics: [
        "response/llm_judged/correctness",
        "response/llm_judged/deepeval/faithfulness",
        "agent/latency_seconds",
      ],
      trials: 3,
      flakyRows: 5,
    },
  ],
  sameDataset: false,
  rowPairings: {
    cand: { paired: 30, only_baseline: 0, only_candidate: 2, same_id_different_request: 0, words: "30 rows paired" },
  },
  statistics: [
    statistic("response/llm_judged/correctness", "rate", "worse"),
    statistic("response/llm_judged/deepeval/faithfulness", "score", "noise"),
    statistic("agent/latency_seconds", "seconds", "better"),
    // Only the baseline ran safety: not this build's to pass or fail.
    statistic("response/llm_judged/safety", "rate", "n/a"),
  ],
  flips: [
    {
      candidate_run_id: "cand",
      request_id: "id|with`ticks",
      row_number: 4,
      metric: "response/llm_judged/correctness",
      kind: "verdict",
      direction: "regression",
      baseline: "yes",
      candidate: "no",
      baseline_score: null,
      candidate_score: null,
      url: "/compare/row?baseline=base&candidate=cand&row=r4",
    },
  ],
  flipTotals: { cand: { regressions: 12, improvements: 3 } },
  pairwise: [],
  url: "/compare?runs=base,cand",
};

describe("the regression gate's summary", () => {
  it("fails on the regressed metric only, and words the Markdown at the level asked", () => {
    expect(regressedMetrics(comparison, "cand").map((s) => s.metric)).toEqual(["response/llm_judged/correctness"]);
    const markdown = gateSummaryMarkdown(comparison, "cand", "https://assay.example.com", ["x = 0.2 (threshold 0.5)"]);
    expect(markdown).toContain("## Assay: pr-7 against main \\| nightly");
    expect(markdown).toContain(
      "**Real regression on 1 metric** (α = 0.01, Holm's correction for 3 metrics): `response/llm_judged/correctness`.",
    );
    expect(markdown).toContain("**Thresholds missed:** x = 0.2 (threshold 0.5).");
    // Trials: how many, that the row is the unit, and the flaky rows of each run.
    expect(markdown).toContain(
      "Each row judged 3 times in both runs; every test compares each row's mean over its trials. Flaky rows (trials that disagree on some metric): 2 in the baseline, 5 in this run.",
    );
    // The flips: the first listed, out of how many.
    expect(markdown).toContain("### Flipped rows (first 1 of 15: 12 regressions, 3 improvements; trial 1 of each run)");
    expect(markdown).toContain(
      "| Metric | Baseline | This run | Δ (paired rows) | 99% interval | p | Adjusted p | Paired rows | Verdict |",
    );
    // The raw p beside the one the verdict is made on.
    expect(markdown).toContain(
      "| `response/llm_judged/correctness` | 90.0% | 60.0% | \u221230.0 pts | \u221240.0 pts to \u221220.0 pts | 0.001 | 0.003 | 30 | **worse \\| words** |",
    );
    expect(markdown).toContain("| `agent/latency_seconds` | 0.71 s | 0.70 s | \u22120.01 s |");
    // A cell cannot be ended, nor inline code closed, by what a dataset put in a request_id.
    expect(markdown).toContain("| 4 | `id\\|with'ticks` |");
    expect(markdown).toContain(
      "[side by side](https://assay.example.com/compare/row?baseline=base&candidate=cand&row=r4)",
    );
    expect(gateLines(comparison, "cand")[0]).toBe("Rows: 30 rows paired");
    expect(gateLines(comparison, "cand")[1]).toBe(
      "REGRESSION  response/llm_judged/correctness: 90.0% → 60.0%; worse | words [30 paired rows]",
    );
  });

  it("lists only the metrics this build asked for: one only the baseline ran is not 'not tested'", () => {
    const markdown = gateSummaryMarkdown(
      { ...comparison, statistics: comparison.statistics.filter((s) => s.verdict !== "worse") },
      "cand",
      "https://assay.example.com",
    );
    expect(markdown).toContain("1 improved, 1 likely noise, 0 not tested.");
    expect(markdown).not.toContain("response/llm_judged/safety");
    expect(gateLines(comparison, "cand").join("\n")).not.toContain("response/llm_judged/safety");
    expect(gateLines(comparison, "cand")).toHaveLength(4);
  });

  it("reads --baseline as a run id or latest:TAG", () => {
    expect(parseBaselineSpec("latest:branch=main")).toEqual({ latestTag: "branch=main" });
    expect(parseBaselineSpec("0193-abc")).toEqual({ runId: "0193-abc" });
    expect(parseBaselineSpec("latest:")).toBeNull();
    expect(parseBaselineSpec("two words")).toBeNull();
  });
});

describe("how rows paired, in words", () => {
  it("names only what was left out, and says when nothing paired", async () => {
    const { describeRowPairing } = await import("@/lib/compare/describeRowPairing");
    const counts = { paired: 60, onlyBaseline: 0, onlyCandidate: 0, sameIdDifferentRequest: 0 };
    expect(describeRowPairing(counts)).toBe("All 60 rows paired by request_id and request.");
    expect(describeRowPairing({ ...counts, paired: 1, onlyBaseline: 2 })).toBe(
      "1 row paired by request_id and request; 2 rows only in the baseline. Deltas, tests and flipped rows are on the paired rows.",
    );
    expect(describeRowPairing({ ...counts, paired: 0, onlyCandidate: 3, sameIdDifferentRequest: 1 })).toBe(
      "No row paired by request_id and request: compared on aggregates only (3 rows only in this run, 1 row with the same request_id but another request (not paired)).",
    );
  });
});
