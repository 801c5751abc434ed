import { describe, expect, it } from "vitest";
import { SCORE_METRIC_HEURISTICS } from "@/lib/judges/heuristic/scoreMetrics";
import { createHeuristicJudgeBackend } from "@/lib/judges/heuristicJudgeBackend";
import { scorePasses, thresholdFor } from "@/lib/contract/thresholds";
import { aggregateName, metricShape, toAggregate } from "@/lib/contract/aggregates";
import type { InputCoverage } from "@/lib/contract/inputSignatures";
import { metricAvailability } from "@/lib/metrics/availability";
import { findMetric, METRICS, scoreDirection, type RowInput } from "@/lib/contract/metricCatalog";
import { resolveMetricName } from "@/lib/metrics/metricNames";
import type { RowFlags } from "@/lib/contract/rowInputs";
import { skipReason } from "@/lib/metrics/rowEligibility";

const FAMILY: Record<string, string> = {
  "response/llm_judged/faithfulness": "deepeval",
  "response/llm_judged/answer_relevancy": "deepeval",
  "retrieval/llm_judged/contextual_precision": "deepeval",
  "retrieval/llm_judged/contextual_recall": "deepeval",
  "retrieval/llm_judged/contextual_relevancy": "deepeval",
  "response/llm_judged/hallucination": "deepeval",
  "response/llm_judged/toxicity": "deepeval",
  "response/llm_judged/bias": "deepeval",
  "response/llm_judged/summarization": "deepeval",
  "retrieval/llm_judged/context_relevance": "mastra",
  "response/statistical/bleu": "statistical",
  "response/statistical/rouge": "statistical",
  "response/statistical/meteor": "statistical",
  "response/statistical/levenshtein": "statistical",
};

describe("the score metric catalogue (DeepEval, Mastra)", () => {
  it("names every metric as the issue spells it, in its family, with threshold 0.5", () => {
    for (const [name, family] of Object.entries(FAMILY)) {
      const metric = findMetric(name);
      expect(metric?.family, name).toBe(family);
      expect(metric?.score?.defaultThreshold, name).toBe(0.5);
      expect(resolveMetricName(name.split("/").pop() ?? ""), name).toBe(name);
      expect(metricShape(name)).toBe("score");
      expect(aggregateName(name)).toBe(`${name}/score/average`);
    }
    expect(METRICS.filter((m) => m.family === "databricks")).toHaveLength(11);
    expect(metricShape("response/llm_judged/correctness")).toBe("rating");
  });

  it("marks hallucination, toxicity and bias lower-is-better, and success follows the direction", () => {
    const lower = METRICS.filter((m) => m.score?.direction === "lower").map((m) => m.name);
    expect(lower).toEqual([
      "response/llm_judged/hallucination",
      "response/llm_judged/toxicity",
      "response/llm_judged/bias",
    ]);
    expect(scorePasses("response/llm_judged/toxicity", 0.5, 0.5)).toBe(true);
    expect(scorePasses("response/llm_judged/toxicity", 0.6, 0.5)).toBe(false);
    expect(scorePasses("response/llm_judged/faithfulness", 0.4, 0.5)).toBe(false);
    expect(scorePasses("response/llm_judged/faithfulness", 0.5, 0.5)).toBe(true);
    expect(scoreDirection("response/llm_judged/correctness")).toBeNull();
    expect(thresholdFor("response/llm_judged/bias", { bias: 0.2 })).toBe(0.2);
  });

  it("computes the success percentage from the rows that met their threshold", () => {
    const aggregate = toAggregate({
      metric: "response/llm_judged/hallucination",
      yes: 0,
      no: 0,
      error: 1,
      skipped: 0,
      pending: 0,
      scored: 4,
      scoreSum: 1,
      passed: 3,
      failed: 1,
    });
    expect(aggregate.value).toBe(0.25);
    expect(aggregate.success).toEqual({
      name: "response/llm_judged/hallucination/success/percentage",
      value: 0.75,
      numerator: 3,
      denominator: 4,
    });
    expect(aggregate.errors).toBe(1);
  });

  it("skips rows by the inputs the catalogue names: expected_response for the statistical scorers, the ideal context for hallucination", () => {
    const row: RowFlags = {
      hasResponse: true,
      hasExpectedResponse: false,
      hasExpectedFacts: true,
      hasRetrievedContext: true,
      hasRetrievedContent: true,
      hasExpectedRetrievedContext: true,
      hasExpectedContextContent: false,
      totalTokenCount: null,
      latencySeconds: null,
    };
    const requires = (name: string) => findMetric(name)?.requires ?? [];
    expect(skipReason(row, requires("response/statistical/bleu"), false)).toBe("needs expected_response");
    expect(skipReason(row, requires("response/llm_judged/hallucination"), false)).toBe(
      "needs expected_retrieved_context[].content (the ideal context)",
    );
    expect(skipReason(row, requires("retrieval/llm_judged/contextual_recall"), false)).toBeNull();
    expect(
      skipReason({ ...row, hasExpectedContextContent: true }, requires("response/llm_judged/hallucination"), false),
    ).toBeNull();
  });
});

describe("offline availability", () => {
  const coverage = (rowCount: number): InputCoverage => {
    const inputs = Object.fromEntries(
      (
        [
          "response",
          "expected_response_or_facts",
          "expected_response",
          "retrieved_context_content",
          "retrieved_context_doc_uri",
          "expected_retrieved_context",
          "expected_context_content",
          "trace_tokens",
          "trace_latency",
        ] as RowInput[]
      ).map((input) => [input, rowCount]),
    ) as Record<RowInput, number>;
    return { rowCount, inputs, metrics: Object.fromEntries(METRICS.map((m) => [m.name, rowCount])) };
  };

  it("shows an LLM-only score metric unavailable offline, with why; the statistical ones stay available", () => {
    const offline = metricAvailability(coverage(5), { offline: true });
    const relevancy = offline.find((a) => a.metric.name === "response/llm_judged/answer_relevancy");
    expect(relevancy).toMatchObject({ rows: 0, status: "none" });
    expect(relevancy?.unavailableOffline).toBe(
      "answer_relevancy needs an LLM judge: the offline heuristic judge has no honest lexical rule for it",
    );
    expect(offline.find((a) => a.metric.name === "response/statistical/bleu")).toMatchObject({
      rows: 5,
      status: "all",
    });
    expect(offline.find((a) => a.metric.name === "response/llm_judged/correctness")).toMatchObject({ rows: 5 });
    // faithfulness has an offline rule (claim support), so it is available offline.
    expect(offline.find((a) => a.metric.name === "response/llm_judged/faithfulness")).toMatchObject({ rows: 5 });
    const online = metricAvailability(coverage(5));
    expect(online.find((a) => a.metric.name === "response/llm_judged/answer_relevancy")).toMatchObject({ rows: 5 });
    expect(online.find((a) => a.metric.name === "response/llm_judged/faithfulness")).toMatchObject({ rows: 5 });
  });

  it("the offline judge answers a score metric without a rule with an error that says why, never a score", async () => {
    const result = await createHeuristicJudgeBackend().judge({
      metric: "retrieval/llm_judged/context_relevance",
      input: {
        messages: [{ role: "user", content: "q" }],
        request: "q",
        response: "a",
        expectedResponse: null,
        expectedFacts: null,
        retrievedContext: [{ content: "c", docUri: "d" }],
      },
      chunkMode: "batched",
    });
    expect(result.score).toBeNull();
    expect(result.errorMessage).toBe(
      "context_relevance needs an LLM judge: the offline heuristic judge has no honest lexical rule for it",
    );
  });

  it("dispatches to an offline rule once SCORE_METRIC_HEURISTICS has one, and the metric becomes available offline", async () => {
    // A metric with no offline rule, whose table entry is put back afterwards: the module is shared with the
    // files that run after this one in the same process.
    const metric = "response/llm_judged/answer_relevancy";
    const before = SCORE_METRIC_HEURISTICS[metric];
    expect(before).toBeUndefined();
    expect(metricAvailability(coverage(3), { offline: true }).find((a) => a.metric.name === metric)).toMatchObject({
      rows: 0,
    });
    SCORE_METRIC_HEURISTICS[metric] = () => ({
      rating: null,
      score: 0.25,
      rationale: "lexical rule",
      errorMessage: null,
    });
    try {
      const result = await createHeuristicJudgeBackend().judge({
        metric,
        input: {
          messages: [],
          request: "q",
          response: "a",
          expectedResponse: null,
          expectedFacts: null,
          retrievedContext: [],
        },
        chunkMode: "batched",
      });
      expect(result).toMatchObject({ score: 0.25, rationale: "lexical rule", provider: "heuristic" });
      expect(metricAvailability(coverage(3), { offline: true }).find((a) => a.metric.name === metric)).toMatchObject({
        rows: 3,
      });
    } finally {
      delete SCORE_METRIC_HEURISTICS[metric];
    }
    expect(SCORE_METRIC_HEURISTICS[metric]).toBeUndefined();
  });
});
