import { describe, expect, it } from "vitest";
import { preparePassRateChart, valueBand } from "@/lib/charts/passRate";
import { CHART_COLORS } from "@/lib/charts/palette";
import { aggregate } from "./fixtures";

// Wilson 36/50 at 95% (worked by hand in tests/stats/wilson.test.ts): [0.58334876, 0.82525829].
// As ErrorBar offsets around 72%: [72 − 58.334876, 82.525829 − 72] = [13.665124, 10.525829].
const correctness = aggregate("response/llm_judged/correctness", {
  kind: "percentage",
  value: 36 / 50,
  numerator: 36,
  denominator: 50,
  errors: 2,
});

describe("preparePassRateChart", () => {
  it("turns a yes-rate into percent with Wilson error offsets, a band colour and exact tooltip numbers", () => {
    const { bars } = preparePassRateChart([correctness], (metric) => `label of ${metric}`);
    expect(bars).toHaveLength(1);
    const [bar] = bars;
    expect(bar.label).toBe("label of response/llm_judged/correctness");
    expect(bar.percent).toBeCloseTo(72, 10);
    expect(bar.error![0]).toBeCloseTo(13.665124, 5);
    expect(bar.error![1]).toBeCloseTo(10.525829, 5);
    expect(bar.band).toBe("fair");
    expect(bar.fill).toBe(CHART_COLORS.fair);
    expect(bar.valueText).toBe("72.0% yes");
    expect(bar.basisText).toBe("36 of 50 judged rows");
    expect(bar.intervalText).toBe("95% CI 58.3%–82.5%");
    expect(bar.errorsText).toBe("2 errors not counted");
  });

  it("gives averages (precision, recall) a bar without an error bar", () => {
    const precision = aggregate("retrieval/llm_judged/chunk_relevance", {
      kind: "average",
      value: 0.55,
      numerator: 5.5,
      denominator: 10,
    });
    const [bar] = preparePassRateChart([precision]).bars;
    expect(bar.percent).toBeCloseTo(55, 10);
    expect(bar).toMatchObject({
      error: null,
      band: "poor",
      fill: CHART_COLORS.poor,
      valueText: "55.0% mean",
      basisText: "averaged over 10 rows",
      intervalText: null,
      errorsText: null,
    });
    expect(bar.label).toBe("Chunk relevance");
  });

  it("skips agent metrics and metrics with no value, keeping the given order", () => {
    const data = preparePassRateChart([
      aggregate("agent/latency_seconds", { kind: "average", value: 1.2, numerator: 12, denominator: 10 }),
      aggregate("response/llm_judged/safety", { value: 1, numerator: 4, denominator: 4 }),
      aggregate("response/llm_judged/groundedness", { value: null, pending: 3 }),
      aggregate("retrieval/ground_truth/document_recall", {
        kind: "average",
        value: 0.8,
        numerator: 8,
        denominator: 10,
      }),
    ]);
    expect(data.bars.map((bar) => bar.metric)).toEqual([
      "response/llm_judged/safety",
      "retrieval/ground_truth/document_recall",
    ]);
    // 4/4: the Wilson interval is [0.5101…, 1], so the upper offset is exactly 0.
    expect(data.bars[0].error![1]).toBe(0);
    expect(data.bars[0].error![0]).toBeGreaterThan(40);
    // Two bars (40 + 2 × 34 = 108 px) get the 150 px floor, so they do not sit in a sliver of their card.
    expect(data.height).toBe(150);
    expect(data.barSize).toBe(28);
    // Longest label "Document recall" (15 characters) at the 12 px axis font: 15 × 7 + 16 = 121 px.
    expect(data.labelWidth).toBe(121);
  });

  it("puts the band edges at exactly 80% and 60%", () => {
    expect(valueBand(0.8).band).toBe("good");
    expect(valueBand(0.7999).band).toBe("fair");
    expect(valueBand(0.6).band).toBe("fair");
    expect(valueBand(0.5999).band).toBe("poor");
    expect(valueBand(0).band).toBe("poor");
  });

  it("has no bars and no height when nothing has a value", () => {
    const data = preparePassRateChart([aggregate("response/llm_judged/correctness", { value: null })]);
    expect(data.bars).toEqual([]);
    expect(data.height).toBe(0);
    expect(data.description).toBe("");
  });
});
