// The run form's expected LLM calls (lib/engine/plannedSpending.ts over lib/metrics/spendingEstimate.ts):
// eligible rows × calls per row for the chosen judges only, custom and G-Eval judges on the rows they
// may judge, G-Eval's steps once per definition, nothing on the offline judge.
import { describe, expect, it } from "vitest";
import type { RowTextProfile } from "@/lib/db/datasets/datasetTextSizes";
import { estimateFormSpending, plannedJudges } from "@/lib/engine/plannedSpending";
import { SCORE_METRICS } from "@/lib/contract/scoreMetricCatalog";

const profiles: RowTextProfile[] = [
  {
    inputs: ["response", "retrieved_context_content", "expected_response", "expected_response_or_facts"],
    rows: 25,
    chars: 25_000,
    chunks: 75,
    requestChars: 2_500,
    exchanges: 0,
  },
  {
    inputs: ["response", "retrieved_context_content"],
    rows: 15,
    chars: 12_000,
    chunks: 30,
    requestChars: 1_500,
    exchanges: 0,
  },
  { inputs: ["response"], rows: 10, chars: 3_000, chunks: 0, requestChars: 1_000, exchanges: 0 },
];
const options = { judgeModel: "judge", generationModel: null, chunkMode: "batched", heuristic: false, prices: {} };
const summarizationCalls = SCORE_METRICS.find((m) => m.name.endsWith("/summarization"))?.callsPerRow ?? 1;

function estimate(choice: Partial<Parameters<typeof plannedJudges>[0]>, overrides: Partial<typeof options> = {}) {
  const { judges, gEvalMetrics } = plannedJudges({ metrics: [], customJudges: [], gEvalJudges: [], ...choice });
  return estimateFormSpending({ profiles, judges, gEvalMetrics }, { ...options, ...overrides });
}

describe("the run form's expected LLM calls", () => {
  it("sums eligible rows × calls per row over the chosen metrics only", () => {
    const calls = estimate({
      metrics: ["response/llm_judged/faithfulness", "response/llm_judged/summarization", "response/statistical/bleu"],
    });
    expect(calls.llmCalls).toBe(40 + 50 * summarizationCalls);
    expect(calls.perMetric).toEqual([
      { metric: "response/llm_judged/faithfulness", calls: 40 },
      { metric: "response/llm_judged/summarization", calls: 50 * summarizationCalls },
    ]);
  });

  it("counts an aligned judge on the rows its built-in needs, its examples in every call's tokens", () => {
    const judge = { assessmentName: "correctness_aligned_v1", assessmentType: "ANSWER" as const };
    const plain = estimate({ customJudges: [judge] });
    const aligned = estimate({
      customJudges: [{ ...judge, basedOn: "response/llm_judged/correctness", promptChars: 4_000 }],
    });
    // Based on correctness: only the 25 rows with an expected response, where a custom judge takes every response.
    expect([plain.llmCalls, aligned.llmCalls]).toEqual([50, 25]);
    const onTheSameRows = estimate({
      customJudges: [{ ...judge, basedOn: "response/llm_judged/correctness" }],
    });
    // 4,000 characters of examples at 4 a token, in each of the 25 calls.
    expect(aligned.inputTokens - onTheSameRows.inputTokens).toBe(25 * 1_000);
  });

  it("counts custom and G-Eval judges on the rows they may judge, and G-Eval's steps once per definition", () => {
    const calls = estimate({
      customJudges: [
        { assessmentName: "polite", assessmentType: "ANSWER" },
        { assessmentName: "on_topic", assessmentType: "RETRIEVAL" },
      ],
      gEvalJudges: [{ name: "coherence", evaluationParams: ["input", "actual_output", "expected_output"] }],
    });
    // polite: every row with a response (50); on_topic: rows with chunk content (40), batched; coherence: 25 rows + 1 steps call.
    expect(calls.llmCalls).toBe(50 + 40 + 25 + 1);
    expect(calls.judged.map((work) => [work.metric, work.items])).toEqual([
      ["response/llm_judged/polite", 50],
      ["retrieval/llm_judged/on_topic", 40],
      ["response/llm_judged/g_eval/coherence", 25],
    ]);
  });

  it("counts one call per chunk for chunk relevance when chunks are judged one by one", () => {
    const metrics = ["retrieval/llm_judged/chunk_relevance"];
    expect(estimate({ metrics }).llmCalls).toBe(40);
    expect(estimate({ metrics }, { chunkMode: "per_chunk" }).llmCalls).toBe(105);
  });

  it("is zero with the offline judge", () => {
    const calls = estimate(
      {
        metrics: ["response/llm_judged/faithfulness"],
        customJudges: [{ assessmentName: "polite", assessmentType: "ANSWER" }],
      },
      { heuristic: true },
    );
    expect(calls).toMatchObject({ llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });
  });

  it("reads the catalogue: summarization costs 2 per row, the statistical scorers none", () => {
    const byName = new Map(SCORE_METRICS.map((m) => [m.name.split("/").pop(), m.callsPerRow]));
    expect(byName.get("summarization")).toBe(2);
    expect(byName.get("bleu")).toBe(0);
    expect(estimate({ metrics: ["response/statistical/bleu"] }).llmCalls).toBe(0);
  });
});
