import { describe, expect, it } from "vitest";
import { prepareCompareBars } from "@/lib/charts/compareBars";
import { BASELINE_SERIES_COLOR, CANDIDATE_SERIES_COLORS } from "@/lib/charts/palette";
import type { Comparison } from "@/lib/compare/compareRuns";
import { wilsonInterval } from "@/lib/stats";
import { aggregate, compareRun as run, NO_DELTA as noDelta } from "./fixtures";

// Baseline "B" is listed second: the chart must still put it first.
const comparison: Comparison = {
  runs: [run("c1", "Candidate"), run("b1", "Baseline")],
  baselineId: "b1",
  sameDataset: true,
  correction: { method: "holm", alpha: 0.05, family: {} },
  metrics: [
    {
      metric: "response/llm_judged/correctness",
      shape: "rating",
      deltas: { c1: noDelta },
      cells: {
        b1: {
          aggregate: aggregate("response/llm_judged/correctness", { value: 36 / 50, numerator: 36, denominator: 50 }),
          interval: wilsonInterval(36, 50),
        },
        c1: {
          aggregate: aggregate("response/llm_judged/correctness", { value: 0.5, numerator: 1, denominator: 2 }),
          interval: wilsonInterval(1, 2),
        },
      },
    },
    {
      metric: "retrieval/llm_judged/chunk_relevance",
      shape: "precision",
      deltas: { c1: noDelta },
      cells: {
        b1: {
          aggregate: aggregate("retrieval/llm_judged/chunk_relevance", {
            kind: "average",
            value: 0.25,
            numerator: 1,
            denominator: 4,
          }),
          interval: null,
        },
        c1: { aggregate: null, interval: null },
      },
    },
    {
      metric: "agent/latency_seconds",
      shape: "value",
      deltas: { c1: noDelta },
      cells: {
        b1: {
          aggregate: aggregate("agent/latency_seconds", { kind: "average", value: 2, numerator: 4, denominator: 2 }),
          interval: null,
        },
        c1: { aggregate: null, interval: null },
      },
    },
    {
      metric: "response/llm_judged/safety",
      shape: "rating",
      deltas: { c1: noDelta },
      cells: {
        b1: { aggregate: null, interval: null },
        c1: { aggregate: aggregate("response/llm_judged/safety", { value: null, pending: 2 }), interval: null },
      },
    },
  ],
};

describe("prepareCompareBars", () => {
  it("puts the baseline series first, in slate, candidates in the series colours", () => {
    const { series } = prepareCompareBars(comparison);
    expect(series.map((s) => [s.runId, s.baseline, s.color, s.valueKey, s.errorKey])).toEqual([
      ["b1", true, BASELINE_SERIES_COLOR, "s0", "s0Error"],
      ["c1", false, CANDIDATE_SERIES_COLORS[0], "s1", "s1Error"],
    ]);
  });

  it("gives each proportion metric a row of percents with Wilson offsets, skipping agent metrics and metrics no run has", () => {
    const { rows, height } = prepareCompareBars(comparison);
    expect(rows.map((row) => row.metric)).toEqual([
      "response/llm_judged/correctness",
      "retrieval/llm_judged/chunk_relevance",
    ]);
    const [correctness, relevance] = rows;
    expect(correctness.label).toBe("Correctness");
    expect(correctness.s0).toBeCloseTo(72, 10);
    const [below, above] = correctness.s0Error as [number, number];
    expect(below).toBeCloseTo(13.665124, 5);
    expect(above).toBeCloseTo(10.525829, 5);
    expect(correctness.s0Text).toBe("72.0% yes (36/50) · 95% CI 58.3%–82.5%");
    // 1/2: d = 1 + 3.84145882/2 = 2.92072941, centre = (0.5 + 3.84145882/4)/d = 0.5 exactly,
    // half = 1.95996398·sqrt(0.125 + 3.84145882/16)/d = 1.95996398·0.60422776/2.92072941 = 0.40546879,
    // so both offsets are 40.546879 points.
    const [b1, a1] = correctness.s1Error as [number, number];
    expect(b1).toBeCloseTo(a1, 10);
    expect(b1).toBeCloseTo(40.546879, 4);
    // Averages have no interval; a run without the metric has a null bar.
    expect(relevance).toMatchObject({
      s0: 25,
      s0Error: null,
      s0Text: "25.0% mean over 4 rows",
      s1: null,
      s1Error: null,
      s1Text: "—",
    });
    expect(height).toBe(40 + 2 * (2 * 13 + 16));
  });

  it("takes a labeller", () => {
    expect(prepareCompareBars(comparison, (m) => m.toUpperCase()).rows[0].label).toBe(
      "RESPONSE/LLM_JUDGED/CORRECTNESS",
    );
  });
});
