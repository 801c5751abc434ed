import { describe, expect, it } from "vitest";
import { expectedLlmCalls } from "@/lib/metrics/expectedCalls";
import { SCORE_METRICS } from "@/lib/metrics/scoreMetricCatalog";

const options = [
  { name: "response/llm_judged/faithfulness", rows: 40, callsPerRow: 1 },
  { name: "response/llm_judged/summarization", rows: 30, callsPerRow: 2 },
  { name: "response/statistical/bleu", rows: 25, callsPerRow: 0 },
  { name: "response/llm_judged/correctness", rows: 50, callsPerRow: 1 },
];

describe("expectedLlmCalls", () => {
  it("sums eligible rows × calls per row over the chosen metrics only", () => {
    const calls = expectedLlmCalls({
      options,
      selected: new Set([
        "response/llm_judged/faithfulness",
        "response/llm_judged/summarization",
        "response/statistical/bleu",
      ]),
      offline: false,
      rowCount: 50,
      customJudges: 0,
    });
    expect(calls.total).toBe(40 + 60);
    expect(calls.perMetric).toEqual([
      { name: "response/llm_judged/faithfulness", calls: 40 },
      { name: "response/llm_judged/summarization", calls: 60 },
    ]);
  });

  it("counts custom judges on every row and G-Eval's steps once per definition", () => {
    const calls = expectedLlmCalls({
      options,
      selected: new Set(),
      offline: false,
      rowCount: 50,
      customJudges: 2,
      gEvalJudges: 1,
    });
    expect(calls.total).toBe(2 * 50 + 51);
  });

  it("is zero with the offline judge", () => {
    const calls = expectedLlmCalls({
      options,
      selected: new Set(options.map((o) => o.name)),
      offline: true,
      rowCount: 50,
      customJudges: 3,
    });
    expect(calls.total).toBe(0);
  });

  it("reads the catalogue: summarization costs 2 per row, the statistical scorers none", () => {
    const byName = new Map(SCORE_METRICS.map((m) => [m.name.split("/").pop(), m.callsPerRow]));
    expect(byName.get("summarization")).toBe(2);
    expect(byName.get("bleu")).toBe(0);
  });
});
