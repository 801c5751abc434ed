import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { cancelRun } from "@/lib/db/runs/runLifecycle";
import { claimRunLease } from "@/lib/db/runs/runLease";
import { resetJudgmentsForRejudge } from "@/lib/db/runs/rejudgeWork";
import { createRun, RunConfigError } from "@/lib/engine/createRun";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeLlmConfig, importRows, readRun } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

const judge = { provider: "openai" as const, model: "judge-lifecycle" };

describe("run lifecycle edge cases", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    server = await startFakeOpenAIServer({ responder: fakeJudgeResponder });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it("keeps its lease through judge calls longer than the lease, so no other process can take the run over", async () => {
    const datasetId = await importRows(db, [
      { request: "q1", response: "a1" },
      { request: "q2", response: "a2" },
    ]);
    const runId = await createRun(db, { datasetId, metrics: ["safety"], judge, concurrency: 1 });
    const run = await readRun(db, runId);
    server.setBehaviour({ latencyMs: 2500 });
    const running = runEvaluation(run, {
      ...createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url, { ASSAY_LLM_TIMEOUT_MS: "10000" }) }),
      leaseTtlMs: 1500,
    });
    await new Promise((resolve) => setTimeout(resolve, 2000)); // past the 1.5 s lease, mid-call
    expect(await claimRunLease(db, runId, "another-process", 1500)).toBe(false);
    const outcome = await running;
    server.setBehaviour({ latencyMs: 0 });
    expect(outcome.status).toBe("completed");
  }, 20_000);

  it("refuses to re-judge a cancelled run, which would resume its unfinished work", async () => {
    const datasetId = await importRows(db, [{ request: "q3", response: "a3" }]);
    const runId = await createRun(db, { datasetId, metrics: ["safety", "relevance_to_query"], judge, concurrency: 1 });
    await cancelRun(db, runId);
    expect(await resetJudgmentsForRejudge(db, runId, "errored_or_failed")).toBe(0);
    expect(await db.judgmentItem.count({ where: { runId, status: "pending" } })).toBe(2);
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("cancelled");
  });

  it("re-judging errored rows retries their failed generations", async () => {
    const datasetId = await importRows(db, [{ request: "q4" }, { request: "q5" }]);
    const runId = await createRun(db, {
      datasetId,
      metrics: ["safety"],
      judge,
      generation: { model: "gen-model" },
      concurrency: 1,
    });
    const run = await readRun(db, runId);
    server.enqueue("401", "401"); // both generation calls fail, fatally
    await runEvaluation(run, createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }));
    expect(await db.generation.count({ where: { runId, status: "error" } })).toBe(2);
    expect(await db.judgmentItem.count({ where: { runId, status: "error" } })).toBe(2);
    expect(await resetJudgmentsForRejudge(db, runId, "errored")).toBe(2);
    const outcome = await runEvaluation(run, createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }));
    expect(outcome.status).toBe("completed");
    expect(await db.generation.count({ where: { runId, status: "done" } })).toBe(2);
    expect(await db.judgmentItem.count({ where: { runId, status: "done" } })).toBe(2);
  });

  it("scores document recall 0 on a row whose retriever returned nothing, instead of skipping it", async () => {
    const datasetId = await importRows(db, [
      {
        request: "q6",
        retrieved_context: [{ content: "x", doc_uri: "d1" }],
        expected_retrieved_context: [{ doc_uri: "d1" }],
      },
      { request: "q7", retrieved_context: [], expected_retrieved_context: [{ doc_uri: "d2" }] },
    ]);
    const runId = await createRun(db, {
      datasetId,
      metrics: ["document_recall"],
      judge: { provider: "heuristic", model: "heuristic-v1" },
    });
    const run = await readRun(db, runId);
    await runEvaluation(run, createEngineDeps(db, run, { llmConfig: null }));
    const scores = await db.judgmentItem.findMany({
      where: { runId },
      orderBy: { row: { rowNumber: "asc" } },
      select: { status: true, score: true },
    });
    expect(scores).toEqual([
      { status: "done", score: 1 },
      { status: "done", score: 0 },
    ]);
  });

  it("records tokens on every judgment and their cost when prices are configured", async () => {
    const datasetId = await importRows(db, [{ request: "q9", response: "a9" }]);
    const runId = await createRun(db, {
      datasetId,
      metrics: ["safety"],
      judge: { provider: "openai", model: "priced-judge" },
    });
    const run = await readRun(db, runId);
    const prices = JSON.stringify({ "priced-judge": { input: 2, output: 8 } });
    await runEvaluation(
      run,
      createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url, { ASSAY_LLM_PRICES: prices }) }),
    );
    const item = await db.judgmentItem.findFirstOrThrow({ where: { runId } });
    expect(item.inputTokens).toBeGreaterThan(0);
    expect(item.outputTokens).toBeGreaterThan(0);
    // $2 per million input tokens, $8 per million output tokens.
    expect(item.costUsd).toBeCloseTo((item.inputTokens! * 2 + item.outputTokens! * 8) / 1e6, 12);
  });

  it("rejects a custom judge named like a built-in one, with a message", async () => {
    const datasetId = await importRows(db, [{ request: "q8", response: "a8" }]);
    await expect(
      createRun(db, {
        datasetId,
        metrics: ["safety"],
        customJudges: [
          { assessmentName: "safety", assessmentType: "ANSWER", instructions: "Is it safe for children?" },
        ],
        judge,
      }),
    ).rejects.toThrow(RunConfigError);
    await expect(
      createRun(db, {
        datasetId,
        metrics: [],
        customJudges: [
          {
            assessmentName: "context_sufficiency",
            assessmentType: "RETRIEVAL",
            instructions: "Is the chunk sufficient?",
          },
        ],
        judge,
      }),
    ).rejects.toThrow(/built-in judge/);
  });
});
