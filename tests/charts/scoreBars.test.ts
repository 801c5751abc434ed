// Score metrics (DeepEval, Mastra) on the percentage bar charts: drawn as their success
// percentage with its Wilson interval, never as their average score on a 0–100 % axis,
// and lower-is-better ones marked.
import { describe, expect, it } from "vitest";
import { prepareCompareBars } from "@/lib/charts/compareBars";
import { preparePassRateChart } from "@/lib/charts/passRate";
import type { Comparison } from "@/lib/compare/compareRuns";
import { aggregate, compareRun, NO_DELTA, scoreAggregate } from "./fixtures";

const FAITHFULNESS = "response/llm_judged/faithfulness";
const HALLUCINATION = "response/llm_judged/hallucination";
const CORRECTNESS = "response/llm_judged/correctness";

const score = scoreAggregate;

describe("preparePassRateChart on score metrics", () => {
  // Average 0.30 (a poor-looking 30% if drawn as a rate) but 36 of 50 rows succeed: the bar is 72%.
  const faithfulness = score(FAITHFULNESS, 0.3, 36, 50);
  // Lower is better: average 0.20, 45 of 50 rows at or below the pass mark.
  const hallucination = score(HALLUCINATION, 0.2, 45, 50);

  it("draws a score as its success percentage with the Wilson interval, not its average", () => {
    const [bar] = preparePassRateChart([faithfulness]).bars;
    expect(bar.kind).toBe("success");
    expect(bar.percent).toBeCloseTo(72, 10);
    // Wilson 36/50 (tests/stats/wilson.test.ts): [0.58334876, 0.82525829].
    expect(bar.error![0]).toBeCloseTo(13.665124, 5);
    expect(bar.error![1]).toBeCloseTo(10.525829, 5);
    expect(bar.label).toBe("Faithfulness · success");
    expect(bar.valueText).toBe("72.0% succeed");
    expect(bar.basisText).toBe("36 of 50 scored rows");
    expect(bar.intervalText).toBe("95% CI 58.3%–82.5%");
    expect(bar.scoreText).toBe("average score 0.30");
  });

  it("marks lower-is-better scores on the axis label, the tooltip and the caption", () => {
    const data = preparePassRateChart([faithfulness, hallucination]);
    const bar = data.bars[1];
    expect(bar.lowerIsBetter).toBe(true);
    expect(bar.label).toBe("Hallucination ↓ · success");
    expect(bar.percent).toBeCloseTo(90, 10);
    expect(bar.scoreText).toBe("average score 0.20 (lower is better)");
    expect(data.caption).toContain("↓ lower is better, so at or below it");
    expect(data.title).toBe("Success rate by metric");
    expect(data.subtitle).toBe("% of rows meeting the pass mark for scores");
  });

  it("keeps the pass-rate title when yes/no judges share the chart, and names both kinds", () => {
    const data = preparePassRateChart([
      aggregate(CORRECTNESS, { value: 0.5, numerator: 5, denominator: 10 }),
      faithfulness,
    ]);
    expect(data.title).toBe("Pass rate by metric");
    expect(data.subtitle).toBe("% yes for yes/no judges, % of rows meeting the pass mark for scores");
    expect(data.bars.map((bar) => bar.label)).toEqual(["Correctness", "Faithfulness · success"]);
    expect(data.caption).toMatch(/^Yes\/no judges: % yes; scores: % of rows that succeed/);
  });

  it("sizes the chart to the bars: a floor for one, a row each for fourteen", () => {
    expect(preparePassRateChart([faithfulness]).height).toBe(150);
    const many = Array.from({ length: 14 }, (_, i) => score(`${FAITHFULNESS}${i}`, 0.5, 5, 10));
    // Unknown names are not score metrics to the catalogue, but their success field still makes them success bars.
    expect(preparePassRateChart(many).height).toBe(40 + 14 * 34);
    expect(preparePassRateChart(many).barSize).toBe(18);
  });

  it("leaves out a score no row has succeeded or failed yet", () => {
    const pending = aggregate(FAITHFULNESS, {
      kind: "average",
      value: null,
      pending: 4,
      success: { name: `${FAITHFULNESS}/success/percentage`, value: null, numerator: 0, denominator: 0 },
    });
    expect(preparePassRateChart([pending]).bars).toEqual([]);
  });
});

describe("prepareCompareBars on score metrics", () => {
  const comparison: Comparison = {
    runs: [compareRun("base"), compareRun("cand")],
    baselineId: "base",
    sameDataset: true,
    correction: { method: "holm", alpha: 0.05, family: {} },
    metrics: [
      {
        metric: HALLUCINATION,
        shape: "score",
        deltas: { cand: NO_DELTA },
        cells: {
          base: { aggregate: score(HALLUCINATION, 0.2, 45, 50), interval: null },
          cand: { aggregate: score(HALLUCINATION, 0.6, 1, 2), interval: null },
        },
      },
    ],
  };

  it("draws each run's success percentage with its Wilson whiskers and marks lower-is-better", () => {
    const { rows, caption } = prepareCompareBars(comparison);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row.label).toBe("Hallucination ↓ · success");
    expect(row.s0).toBeCloseTo(90, 10);
    expect(row.s1).toBeCloseTo(50, 10);
    // 1/2 (worked in compareBars.test.ts): both offsets 40.546879 points.
    const [below, above] = row.s1Error as [number, number];
    expect(below).toBeCloseTo(40.546879, 4);
    expect(above).toBeCloseTo(40.546879, 4);
    expect(row.s0Text).toMatch(/^90\.0% succeed \(45\/50\) · 95% CI \d+\.\d%–\d+\.\d%$/);
    expect(row.s1Text).toBe("50.0% succeed (1/2) · 95% CI 9.5%–90.5%");
    expect(caption).toMatch(/scores: % of rows that succeed .*↓ lower is better/i);
    expect(caption).not.toMatch(/Yes\/no/);
  });
});
