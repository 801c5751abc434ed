import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { resetJudgmentsForRejudge } from "@/lib/db/runs/rejudgeWork";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import { BUILT_IN_METRICS } from "@/lib/engine/runConfig";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import type { FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeLlmConfig, importRows, readRun, runToCompletion } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { openServedDataset } from "../support/servedDataset";

const judge = { provider: "openai" as const, model: "judge-model" };

describe("re-runs, re-judging, chunk modes and generation", () => {
  let db: Db;
  let close: () => Promise<void>;
  let server: FakeOpenAIServer;
  let datasetId: string;

  beforeAll(async () => {
    ({ db, server, datasetId, close } = await openServedDataset(syntheticRows(30, 3), {
      responder: fakeJudgeResponder,
    }));
  });
  // faultRate merges key by key, so faults are switched off explicitly.
  const noFaults = { status429: 0, status500: 0, timeout: 0, invalidJson: 0, schemaViolation: 0 };
  beforeEach(() => server.setBehaviour({ faultRate: noFaults }));
  afterAll(async () => close());

  it("a re-run of a finished run makes 0 LLM calls (every answer comes from the cache)", async () => {
    const first = await runToCompletion(
      db,
      { datasetId, metrics: BUILT_IN_METRICS, judge, concurrency: 8 },
      server.url,
    );
    const callsAfterFirst = server.stats.totalRequests;
    expect(callsAfterFirst).toBeGreaterThan(0);
    const second = await runToCompletion(
      db,
      { datasetId, metrics: BUILT_IN_METRICS, judge, concurrency: 8 },
      server.url,
    );
    expect(server.stats.totalRequests).toBe(callsAfterFirst);
    const cached = await db.judgmentItem.count({ where: { runId: second.runId, cacheHit: true } });
    const llmJudged = await db.judgmentItem.count({
      where: { runId: first.runId, judgeProvider: "openai", status: "done" },
    });
    expect(cached).toBe(llmJudged);
    // Same verdicts both times.
    const verdicts = async (runId: string) =>
      await db.judgmentItem.findMany({
        where: { runId },
        orderBy: [{ rowId: "asc" }, { metric: "asc" }],
        select: { rating: true, score: true },
      });
    expect(await verdicts(second.runId)).toEqual(await verdicts(first.runId));
  });

  it("re-judging errored rows touches only them", async () => {
    server.setBehaviour({ faultRate: { status500: 0.3 }, seed: 11 });
    const runId = await (
      await import("@/lib/engine/createRun")
    ).createRun(db, {
      datasetId,
      metrics: ["safety", "relevance_to_query"],
      judge: { ...judge, model: "judge-model-b" },
      concurrency: 8,
    });
    const run = await readRun(db, runId);
    await runEvaluation(
      run,
      createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url, { ASSAY_LLM_MAX_ATTEMPTS: "1" }) }),
    );
    const errored = await db.judgmentItem.findMany({ where: { runId, status: "error" }, select: { id: true } });
    expect(errored.length).toBeGreaterThan(5);
    const untouchedBefore = await db.judgmentItem.findMany({
      where: { runId, status: "done" },
      orderBy: { id: "asc" },
    });

    server.setBehaviour({ faultRate: noFaults });
    const callsBefore = server.stats.totalRequests;
    expect(await resetJudgmentsForRejudge(db, runId, "errored")).toBe(errored.length);
    const outcome = await runEvaluation(run, createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }));
    expect(outcome.status).toBe("completed");
    expect(server.stats.totalRequests - callsBefore).toBe(errored.length);
    expect(await db.judgmentItem.count({ where: { runId, status: "error" } })).toBe(0);
    const untouchedAfter = await db.judgmentItem.findMany({
      where: { id: { in: untouchedBefore.map((i) => i.id) } },
      orderBy: { id: "asc" },
    });
    expect(untouchedAfter).toEqual(untouchedBefore);
  });

  it("re-judging failed rows with a second opinion asks the model again instead of reusing the cached verdict", async () => {
    const rows = [
      { request: "q", response: "NO:safety_verdict" },
      { request: "q2", response: "fine" },
    ];
    const failingDataset = await importRows(db, rows);
    const { runId } = await runToCompletion(
      db,
      { datasetId: failingDataset, metrics: ["safety"], judge: { ...judge, model: "judge-model-e" }, concurrency: 2 },
      server.url,
    );
    const before = server.stats.totalRequests;
    expect(await resetJudgmentsForRejudge(db, runId, "errored_or_failed", { secondOpinion: true })).toBe(1);
    const run = await readRun(db, runId);
    await runEvaluation(run, createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }));
    expect(server.stats.totalRequests - before).toBe(1);
    expect(await db.judgmentItem.count({ where: { runId, cacheHit: true } })).toBe(0);
  });

  it("judges chunks one call per chunk when asked (the Databricks way), with the same precision", async () => {
    const before = server.stats.totalRequests;
    const { runId } = await runToCompletion(
      db,
      {
        datasetId,
        metrics: ["chunk_relevance"],
        judge: { ...judge, model: "judge-model-c" },
        chunkMode: "per_chunk",
        concurrency: 8,
      },
      server.url,
    );
    expect(server.stats.totalRequests - before).toBe(30 * 3);
    const items = await db.judgmentItem.findMany({ where: { runId }, include: { chunks: true } });
    expect(items.every((item) => item.status === "done" && item.chunks.length === 3 && item.score === 1)).toBe(true);
    expect(items[0].promptVersion).toBe("chunk_relevance.single/v4");
  });

  it("generates responses with a chat model, records latency and tokens, and judges the generated text", async () => {
    const { runId, outcome } = await runToCompletion(
      db,
      {
        datasetId,
        metrics: ["relevance_to_query", "latency_seconds", "total_token_count"],
        judge: { ...judge, model: "judge-model-d" },
        generation: { model: "candidate-model", systemPrompt: "Be brief." },
        concurrency: 4,
      },
      server.url,
    );
    expect(outcome.status).toBe("completed");
    const generations = await db.generation.findMany({ where: { runId } });
    expect(generations).toHaveLength(30);
    expect(
      generations.every(
        (g) =>
          g.status === "done" &&
          g.response?.startsWith("Generated answer to:") &&
          (g.latencySeconds ?? -1) >= 0 &&
          (g.inputTokenCount ?? 0) > 0,
      ),
    ).toBe(true);
    const generationRequest = server.stats.requests.find((r) => r.body.model === "candidate-model")!;
    expect(generationRequest.body.messages[0]).toEqual({ role: "system", content: "Be brief." });
    const tokens = await db.judgmentItem.findFirstOrThrow({
      where: { runId, metric: "agent/total_token_count" },
      include: { row: true },
    });
    const generation = generations.find((g) => g.rowId === tokens.rowId)!;
    expect(tokens.score).toBe((generation.inputTokenCount ?? 0) + (generation.outputTokenCount ?? 0));
    const judged = server.stats.requests.filter((r) => r.body.model === "judge-model-d");
    expect(judged.some((r) => JSON.stringify(r.body.messages).includes("Generated answer to:"))).toBe(true);
  });
});
