import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MetricComparisonTable } from "@/components/compare/MetricComparisonTable";
import type { Comparison } from "@/lib/compare/compareRuns";
import { wilsonInterval } from "@/lib/stats";
import { compareRun, scoreAggregate } from "../charts/fixtures";

const HALLUCINATION = "response/llm_judged/hallucination";

const score = (value: number, passed: number, denominator: number) =>
  scoreAggregate(HALLUCINATION, value, passed, denominator);

describe("MetricComparisonTable on a score metric", () => {
  it("shows each run's average score and, beside it, its success % with the Wilson interval and the paired test", () => {
    const comparison: Comparison = {
      runs: [compareRun("a", "Run a"), compareRun("b", "Run b")],
      baselineId: "a",
      sameDataset: true,
      correction: { method: "holm", alpha: 0.05, family: {} },
      metrics: [
        {
          metric: HALLUCINATION,
          shape: "score",
          cells: {
            a: { aggregate: score(0.2, 36, 50), interval: null, successInterval: wilsonInterval(36, 50) },
            b: { aggregate: score(0.35, 20, 40), interval: null, successInterval: wilsonInterval(20, 40) },
          },
          deltas: {
            b: {
              delta: 0.15,
              verdict: "worse",
              words: "Real regression: +0.15 (95% CI +0.05 to +0.25; lower is better)",
              pairs: 40,
              unpaired: 0,
            },
          },
        },
      ],
    };
    const html = renderToStaticMarkup(createElement(MetricComparisonTable, { comparison }));
    const text = html.replace(/<[^>]+>/g, "");
    expect(text).toContain("0.20 average");
    expect(text).toContain("0.35 average");
    expect(text).toContain("72.0% succeed (36/50)");
    // Wilson 36/50: [0.58334876, 0.82525829], through formatConfidenceInterval at one decimal.
    expect(text).toContain("95% CI 58.3–82.5%");
    expect(text).toContain("50.0% succeed (20/40)");
    expect(text).toContain("Real regression: +0.15 (95% CI +0.05 to +0.25; lower is better)");
    expect(text).toContain("↓ lower is better");
    expect((html.match(/data-testid="success-cell"/g) ?? []).length).toBe(2);
  });

  it("shows a delta whose bootstrap is still running as computing, with the words that say so", () => {
    const comparison: Comparison = {
      runs: [compareRun("a", "Run a"), compareRun("b", "Run b")],
      baselineId: "a",
      sameDataset: true,
      correction: { method: "holm", alpha: 0.05, family: {} },
      metrics: [
        {
          metric: HALLUCINATION,
          shape: "score",
          cells: {
            a: { aggregate: score(0.2, 36, 50), interval: null, successInterval: wilsonInterval(36, 50) },
            b: { aggregate: score(0.35, 20, 40), interval: null, successInterval: wilsonInterval(20, 40) },
          },
          deltas: {
            b: {
              delta: 0.15,
              verdict: "pending",
              words: "Significance still being computed (paired bootstrap); reload in a moment",
              pairs: 0,
              unpaired: 0,
            },
          },
        },
      ],
      pendingDeltas: 1,
    };
    const text = renderToStaticMarkup(createElement(MetricComparisonTable, { comparison })).replace(/<[^>]+>/g, "");
    expect(text).toContain("computing…");
    expect(text).toContain("Significance still being computed (paired bootstrap); reload in a moment");
  });
});
