import { describe, expect, it } from "vitest";
import { deepEvalCallShape } from "@/lib/metrics/deepEvalCallCounts";
import { deepEvalSettings } from "@/lib/contract/deepEvalSettings";
import { estimateSpending, type JudgedWork } from "@/lib/metrics/spendingEstimate";

const options = { judgeModel: "m", generationModel: null, chunkMode: "batched", heuristic: false, prices: {} };
const work = (judged: JudgedWork[]) => ({ judged, gEvalStepCalls: 0, generation: null });
const rows = (metric: string, items: number, chunks = items) => ({ metric, items, chunks, chars: 4000 });

describe("the calls of each call structure, as the estimate counts them", () => {
  it("folded: one per row (two for summarization); DeepEval's: each metric's own sequence", () => {
    const judged = [
      rows("response/llm_judged/faithfulness", 10),
      rows("retrieval/llm_judged/contextual_relevancy", 10, 25),
      rows("response/llm_judged/summarization", 10),
      rows("response/llm_judged/correctness", 10),
    ];
    const folded = estimateSpending(work(judged), { ...options, deepEval: deepEvalSettings({}) });
    expect(folded.perMetric.map((m) => m.calls)).toEqual([10, 10, 20, 10]);
    const own = estimateSpending(work(judged), {
      ...options,
      deepEval: deepEvalSettings({ callStructure: "deepeval" }),
    });
    // faithfulness 4 a row; contextual relevancy one per chunk and a reason per row; summarization 7; Databricks' unchanged.
    expect(own.perMetric.map((m) => m.calls)).toEqual([40, 35, 70, 10]);
    expect(own.llmCalls).toBe(155);
    const lean = estimateSpending(work(judged), {
      ...options,
      deepEval: deepEvalSettings({ callStructure: "deepeval", includeReason: false, assessmentQuestions: ["Q?"] }),
    });
    expect(lean.perMetric.map((m) => m.calls)).toEqual([30, 25, 50, 10]);
  });

  it("names a shape only for DeepEval's metrics under its structure", () => {
    const own = deepEvalSettings({ callStructure: "deepeval" });
    expect(deepEvalCallShape("response/llm_judged/toxicity", own)).toEqual({ callsPerRow: 3, callsPerChunk: 0 });
    expect(deepEvalCallShape("response/llm_judged/toxicity", deepEvalSettings({}))).toBeNull();
    expect(deepEvalCallShape("retrieval/llm_judged/context_relevance", own)).toBeNull();
    expect(deepEvalCallShape("response/llm_judged/g_eval/x", own)).toBeNull();
  });
});
