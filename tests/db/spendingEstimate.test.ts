// The run form's estimate (dataset text sizes, before planning) and the CLI's (a planned run's pending
// work) go through one formula (lib/metrics/spendingEstimate.ts): for the same dataset and judges they
// must say the same calls, tokens and cost.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDatasetTextProfiles } from "@/lib/db/datasets/datasetTextSizes";
import { estimateRunSpending } from "@/lib/engine/runEstimate";
import { gEvalStepWriters } from "@/lib/contract/gEvalMetric";
import { createRun } from "@/lib/engine/createRun";
import { estimateFormSpending, plannedJudges } from "@/lib/engine/plannedSpending";
import { METRICS } from "@/lib/contract/metricCatalog";
import { deepEvalSettings } from "@/lib/contract/deepEvalSettings";
import { estimateSpending, PROMPT_OVERHEAD_TOKENS } from "@/lib/metrics/spendingEstimate";
import type { Db } from "@/lib/db/client";
import { importRows } from "../support/engineKit";
import type { EvalObject } from "../support/evalFiles";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";

const PRICES = { "judge-est": { input: 0.4, output: 1.6 }, "gen-est": { input: 2, output: 8 } };
/** The judge model priced, batched chunks, no generation. */
const BATCHED = {
  judgeModel: "judge-est",
  generationModel: null,
  chunkMode: "batched",
  heuristic: false,
  prices: PRICES,
};

/** Rows that differ in what they carry, so each judge runs on a different subset with different text. */
function mixedRows(): EvalObject[] {
  const full = syntheticRows(6, 3);
  return [
    ...full,
    { request_id: "no-response", request: "What is a bucket?", expected_response: "A container for objects." },
    {
      request_id: "no-chunks",
      request: "How long is the retention?",
      response: "Thirty days, by default, for every object in the bucket.",
      expected_facts: ["30 days"],
    },
    {
      request_id: "empty-chunk",
      request: "Which regions are supported?",
      response: "All regions but one.",
      retrieved_context: [
        { content: "Regions: eu-west-1, us-east-1.", doc_uri: "doc-r1" },
        { content: "   ", doc_uri: "doc-r2" },
      ],
    },
    {
      request_id: "ideal-context",
      request: { messages: [{ role: "user", content: "Is egress free?" }] },
      response: "Egress to the CDN is free of charge.",
      expected_response: "Egress to the CDN is free.",
      retrieved_context: [{ content: "CDN egress is not billed. ".repeat(20), doc_uri: "doc-e" }],
      expected_retrieved_context: [{ content: "Egress to the CDN costs nothing.", doc_uri: "doc-e" }],
    },
  ];
}

const LLM_METRICS = METRICS.filter((metric) => metric.kind === "llm_judged").map((metric) => metric.name);
const CUSTOM = [
  { assessmentName: "polite", assessmentType: "ANSWER" as const, instructions: "Is the response polite?" },
  { assessmentName: "on_topic", assessmentType: "RETRIEVAL" as const, instructions: "Is the chunk on topic?" },
];
const G_EVAL = [
  {
    name: "coherence",
    criteria: "The answer reads as one clear argument.",
    evaluationParams: ["input", "actual_output", "retrieval_context"] as (
      "input" | "actual_output" | "retrieval_context"
    )[],
    threshold: 0.5,
  },
];

describe("the run form's estimate and the CLI's agree", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;
  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    datasetId = await importRows(db, mixedRows());
  });
  afterAll(async () => cleanup());

  const cases = [
    { title: "every LLM judge, custom and G-Eval judges, batched chunks", chunkMode: "batched", generate: false },
    { title: "the same, one call per chunk", chunkMode: "per_chunk", generate: false },
    { title: "generating responses first", chunkMode: "batched", generate: true },
  ] as const;

  for (const { title, chunkMode, generate } of cases) {
    it(title, async () => {
      const runId = await createRun(db, {
        datasetId,
        metrics: LLM_METRICS,
        customJudges: CUSTOM,
        gEvalJudges: G_EVAL,
        judge: { provider: "openai", model: "judge-est" },
        // Every LLM judge: MLflow's conversational guidelines among them, which runs only with guidelines.
        conversation: { guidelines: ["Answer in one sentence."] },
        chunkMode,
        ...(generate ? { generation: { model: "gen-est" } } : {}),
      });
      const options = {
        judgeModel: "judge-est",
        generationModel: generate ? "gen-est" : null,
        chunkMode,
        heuristic: false,
        prices: PRICES,
      };
      const cli = await estimateRunSpending(db, runId, { ...options, gEvalStepWriters: gEvalStepWriters(G_EVAL) });
      const { judges, gEvalMetrics } = plannedJudges({
        metrics: LLM_METRICS,
        customJudges: CUSTOM,
        gEvalJudges: G_EVAL,
      });
      const form = estimateFormSpending(
        { profiles: await getDatasetTextProfiles(db, datasetId), judges, gEvalMetrics },
        options,
      );
      expect(form.llmCalls).toBe(cli.llmCalls);
      expect(form.inputTokens).toBe(cli.inputTokens);
      expect(form.outputTokens).toBe(cli.outputTokens);
      expect(form.costUsd).toBeCloseTo(cli.costUsd ?? Number.NaN, 12);
      expect([...form.perMetric].sort((a, b) => a.metric.localeCompare(b.metric))).toEqual(
        [...cli.perMetric].sort((a, b) => a.metric.localeCompare(b.metric)),
      );
      // Each judge counted on the rows the plan gave it, not on every row.
      const planned = await db.judgmentItem.groupBy({
        by: ["metric"],
        where: { runId, status: "pending" },
        _count: { _all: true },
      });
      for (const { metric, _count } of planned)
        expect(form.judged.find((work) => work.metric === metric)?.items, metric).toBe(_count._all);
      expect(form.llmCalls).toBeGreaterThan(0);
    });
  }

  it("per chunk, chunk relevance and custom RETRIEVAL judges call once per chunk; the DeepEval retrieval scores once per row", async () => {
    const profiles = await getDatasetTextProfiles(db, datasetId);
    const { judges, gEvalMetrics } = plannedJudges({
      metrics: ["retrieval/llm_judged/chunk_relevance", "retrieval/llm_judged/contextual_precision"],
      customJudges: [CUSTOM[1]],
      gEvalJudges: [],
    });
    const perChunk = estimateFormSpending(
      { profiles, judges, gEvalMetrics },
      { judgeModel: "judge-est", generationModel: null, chunkMode: "per_chunk", heuristic: false, prices: PRICES },
    );
    // Chunk content on the six synthetic rows (3 chunks each) and the ideal-context row (1); the empty chunk's row is skipped.
    expect(perChunk.perMetric).toEqual([
      { metric: "retrieval/llm_judged/chunk_relevance", calls: 19 },
      { metric: "retrieval/llm_judged/contextual_precision", calls: 7 },
      { metric: "retrieval/llm_judged/on_topic", calls: 19 },
    ]);
  });

  it("counts G-Eval's steps once per judge, or once per row under DeepEval-exact, as DeepEval's evaluate() writes them", async () => {
    const profiles = await getDatasetTextProfiles(db, datasetId);
    const { judges, gEvalMetrics } = plannedJudges({ metrics: [], customJudges: [], gEvalJudges: G_EVAL });
    const base = BATCHED;
    const cached = estimateFormSpending({ profiles, judges, gEvalMetrics }, base);
    const rows = cached.judged.reduce((sum, work) => sum + work.items, 0);
    expect(rows).toBeGreaterThan(1);
    expect(cached.llmCalls).toBe(rows + 1);
    const exact = estimateFormSpending(
      { profiles, judges, gEvalMetrics },
      { ...base, deepEval: deepEvalSettings({ exact: true }) },
    );
    expect(exact.llmCalls).toBe(2 * rows);
  });

  it("counts no steps call for a G-Eval judge whose author wrote its steps, in the CLI's estimate as in the form's", async () => {
    const written = [{ ...G_EVAL[0], criteria: undefined, evaluationSteps: ["Check it is one argument."] }];
    const runId = await createRun(db, {
      datasetId,
      metrics: [],
      gEvalJudges: written,
      judge: { provider: "openai", model: "judge-est" },
      deepEval: { exact: true },
    });
    const options = BATCHED;
    const deepEval = deepEvalSettings({ exact: true });
    const cli = await estimateRunSpending(db, runId, {
      ...options,
      deepEval,
      gEvalStepWriters: gEvalStepWriters(written),
    });
    const { judges, gEvalMetrics } = plannedJudges({
      metrics: [],
      customJudges: [],
      gEvalJudges: written.map((judge) => ({ ...judge, writtenSteps: true })),
    });
    const form = estimateFormSpending(
      { profiles: await getDatasetTextProfiles(db, datasetId), judges, gEvalMetrics },
      { ...options, deepEval },
    );
    const rows = form.judged.reduce((sum, work) => sum + work.items, 0);
    expect(rows).toBeGreaterThan(1);
    expect(cli.llmCalls).toBe(rows);
    expect(form.llmCalls).toBe(rows);
  });

  it("is zero on the offline judge, and unknown (null) when the judge model has no price", async () => {
    const profiles = await getDatasetTextProfiles(db, datasetId);
    const { judges, gEvalMetrics } = plannedJudges({ metrics: LLM_METRICS, customJudges: CUSTOM, gEvalJudges: G_EVAL });
    const base = { generationModel: null, chunkMode: "batched", prices: PRICES };
    expect(
      estimateFormSpending({ profiles, judges, gEvalMetrics }, { ...base, judgeModel: "heuristic", heuristic: true }),
    ).toMatchObject({ llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });
    const unpriced = estimateFormSpending(
      { profiles, judges, gEvalMetrics },
      { ...base, judgeModel: "no-price-model", heuristic: false },
    );
    expect(unpriced.llmCalls).toBeGreaterThan(0);
    expect(unpriced.costUsd).toBeNull();
  });
});

describe("estimateSpending", () => {
  const options = BATCHED;
  it("reads calls per row from the catalogue: summarization two, the statistical scorers none", () => {
    const estimate = estimateSpending(
      {
        judged: [
          { metric: "response/llm_judged/summarization", items: 30, chunks: 0, chars: 4000 },
          { metric: "response/llm_judged/faithfulness", items: 40, chunks: 80, chars: 8000 },
          { metric: "response/statistical/bleu", items: 25, chunks: 0, chars: 1000 },
        ],
        gEvalStepCalls: 0,
        generation: null,
      },
      options,
    );
    const summarizationCalls = METRICS.find((m) => m.name === "response/llm_judged/summarization")?.callsPerRow ?? 1;
    expect(estimate.perMetric).toEqual([
      { metric: "response/llm_judged/summarization", calls: 30 * summarizationCalls },
      { metric: "response/llm_judged/faithfulness", calls: 40 },
    ]);
    expect(estimate.llmCalls).toBe(30 * summarizationCalls + 40);
  });

  it("adds one steps call per G-Eval judge", () => {
    const estimate = estimateSpending(
      {
        judged: [{ metric: "response/llm_judged/g_eval/coherence", items: 8, chunks: 0, chars: 0 }],
        gEvalStepCalls: 1,
        generation: null,
      },
      options,
    );
    expect(estimate.llmCalls).toBe(9);
    expect(estimate.inputTokens).toBe(9 * PROMPT_OVERHEAD_TOKENS);
  });
});
