import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { estimateRejudge } from "@/lib/engine/rejudgeEstimate";
import { resetJudgmentsForRejudge } from "@/lib/db/runs/rejudgeWork";
import { createRun } from "@/lib/engine/createRun";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";

const CORRECTNESS = "response/llm_judged/correctness";
const CHUNKS = "retrieval/llm_judged/chunk_relevance";
const RECALL = "retrieval/ground_truth/document_recall";
const PRICE = { input: 0.4, output: 1.6 };

type Seed = {
  status: "done" | "error";
  rating?: "yes" | "no";
  passed?: boolean;
  tokens?: [number, number];
  cacheHit?: boolean;
};

describe("the re-judge estimate, from the run's own stored usage", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    // Four rows, two retrieved chunks each.
    datasetId = await importRows(db, syntheticRows(4, 2));
  });
  afterAll(async () => cleanup());

  /** Writes a finished run whose judgments carry the given statuses and usage, row by row (rows 1–4). */
  async function seededRun(judge: { provider: "openai" | "heuristic"; model: string }, seeds: Record<string, Seed[]>) {
    const runId = await createRun(db, {
      datasetId,
      metrics: ["correctness", "chunk_relevance", "document_recall"],
      judge,
      chunkMode: "per_chunk",
      concurrency: 2,
    });
    for (const [metric, rows] of Object.entries(seeds)) {
      for (const [index, seed] of rows.entries()) {
        await db.judgmentItem.updateMany({
          where: { runId, metric, row: { rowNumber: index + 1 } },
          data: {
            status: seed.status,
            rating: seed.rating ?? null,
            passed: seed.passed ?? (seed.rating ? seed.rating === "yes" : null),
            inputTokens: seed.tokens?.[0] ?? null,
            outputTokens: seed.tokens?.[1] ?? null,
            cacheHit: seed.cacheHit ?? false,
            errorMessage: seed.status === "error" ? "HTTP 500" : null,
          },
        });
      }
    }
    await db.run.update({ where: { id: runId }, data: { status: "completed", finishedAt: new Date() } });
    return runId;
  }

  const llmSeeds: Record<string, Seed[]> = {
    // Uncached averages: (100 + 200 + 300) / 3 = 200 in, (20 + 40 + 60) / 3 = 40 out.
    [CORRECTNESS]: [
      { status: "done", rating: "yes", tokens: [100, 20] },
      { status: "done", rating: "yes", tokens: [200, 40] },
      { status: "done", rating: "no", tokens: [300, 60] },
      { status: "error" },
    ],
    // Uncached average: 500 in, 100 out (row 4 was a cache hit with no usage, so it is not averaged).
    [CHUNKS]: [
      { status: "done", passed: true, tokens: [500, 100] },
      { status: "error" },
      { status: "error" },
      { status: "done", passed: false, tokens: [0, 0], cacheHit: true },
    ],
    // A deterministic metric that failed on one row: recomputed without a call.
    [RECALL]: [
      { status: "done", passed: true },
      { status: "done", passed: false },
      { status: "done", passed: true },
      { status: "done", passed: true },
    ],
  };

  it("errored only: one call per errored row, one per chunk for the per-chunk judge, priced from average usage", async () => {
    const runId = await seededRun({ provider: "openai", model: "judge-model" }, llmSeeds);
    const estimate = await estimateRejudge(db, runId, "errored", { secondOpinion: false, price: PRICE });
    // correctness: 1 errored row → 1 call, 200 in / 40 out.
    // chunk_relevance: 2 errored rows × 2 chunks → 4 calls; 2 judgments × 500 in / 100 out.
    expect(estimate).toMatchObject({
      judgments: 3,
      errored: 3,
      failed: 0,
      llmCalls: 5,
      inputTokens: 1200,
      outputTokens: 240,
      fromCache: 0,
      withoutCalls: 0,
      callsWithoutUsage: 0,
    });
    // (1200 × 0.4 + 240 × 1.6) / 1e6
    expect(estimate?.costUsd).toBeCloseTo(0.000864, 12);
  });

  it("errored and failed: failed answers come from the cache unless a second opinion is asked for", async () => {
    const runId = await seededRun({ provider: "openai", model: "judge-model" }, llmSeeds);
    const reused = await estimateRejudge(db, runId, "errored_or_failed", { secondOpinion: false, price: PRICE });
    // 3 errored + correctness row 3 + chunk_relevance row 4 + document_recall row 2.
    expect(reused).toMatchObject({
      judgments: 6,
      errored: 3,
      failed: 3,
      fromCache: 2,
      withoutCalls: 1,
      llmCalls: 5,
      inputTokens: 1200,
      outputTokens: 240,
    });
    const fresh = await estimateRejudge(db, runId, "errored_or_failed", { secondOpinion: true, price: PRICE });
    // Plus correctness row 3 (1 call, 200/40) and chunk_relevance row 4 (2 chunks → 2 calls, 500/100).
    expect(fresh).toMatchObject({ judgments: 6, fromCache: 0, llmCalls: 8, inputTokens: 1900, outputTokens: 380 });
    expect(fresh?.costUsd).toBeCloseTo((1900 * 0.4 + 380 * 1.6) / 1e6, 12);
    // No configured price: the cost is unknown, never $0.
    expect((await estimateRejudge(db, runId, "errored", { secondOpinion: false, price: null }))?.costUsd).toBeNull();
    // The estimate counts exactly the judgments the re-judge then resets.
    expect(await resetJudgmentsForRejudge(db, runId, "errored_or_failed")).toBe(6);
  });

  it("the offline heuristic judge costs no calls", async () => {
    const runId = await seededRun({ provider: "heuristic", model: "heuristic" }, llmSeeds);
    const estimate = await estimateRejudge(db, runId, "errored_or_failed", { secondOpinion: true, price: PRICE });
    expect(estimate).toMatchObject({ judgments: 6, llmCalls: 0, inputTokens: 0, outputTokens: 0, heuristic: true });
    expect(estimate?.costUsd).toBeNull();
  });

  it("a two-call metric (summarization) costs two calls per re-judged row", async () => {
    const runId = await createRun(db, {
      datasetId,
      metrics: ["summarization"],
      judge: { provider: "openai", model: "judge-model" },
      chunkMode: "batched",
      concurrency: 2,
    });
    await db.judgmentItem.updateMany({
      where: { runId, row: { rowNumber: { in: [1, 2] } } },
      data: { status: "error", errorMessage: "HTTP 500" },
    });
    await db.judgmentItem.updateMany({
      where: { runId, row: { rowNumber: { in: [3, 4] } } },
      data: { status: "done", score: 0.5, passed: true, inputTokens: 300, outputTokens: 50 },
    });
    await db.run.update({ where: { id: runId }, data: { status: "completed", finishedAt: new Date() } });
    const estimate = await estimateRejudge(db, runId, "errored", { secondOpinion: false, price: PRICE });
    // 2 errored rows × 2 calls; tokens from the stored per-judgment usage, which sums both calls.
    expect(estimate).toMatchObject({ judgments: 2, llmCalls: 4, inputTokens: 600, outputTokens: 100 });
  });
});
