import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setRunBudget } from "@/lib/db/runs/runBudget";
import { reopenRun } from "@/lib/db/runs/runLifecycle";
import { listResumableRuns } from "@/lib/db/runs/runLease";
import { createRun } from "@/lib/engine/createRun";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import { BUILT_IN_METRICS } from "@/lib/engine/runConfig";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import { fakeLlmConfig, readRun } from "../support/engineKit";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { fakeScoreResponder } from "../support/fakeScoreResponder";
import { spawnEval } from "../support/spawnEval";
import { syntheticRows } from "../support/syntheticRows";
import { openServedDataset, type ServedDataset } from "../support/servedDataset";

describe("run budgets", () => {
  let world: ServedDataset;
  beforeAll(async () => {
    world = await openServedDataset(syntheticRows(20, 2), {
      responder: fakeJudgeResponder,
      behaviour: { latencyMs: 10 },
    });
  });
  afterAll(async () => world.close());

  it("a run pauses at its call budget, stays paused, and resumes after the budget is raised with nothing judged twice", async () => {
    const { db, server, datasetId } = world;
    const runId = await createRun(
      db,
      { datasetId, metrics: BUILT_IN_METRICS, judge: { provider: "openai", model: "judge-budget" }, concurrency: 4 },
      { budget: { calls: 25, tokens: null, usd: null } },
    );
    const run = await readRun(db, runId);
    const before = server.stats.totalRequests;
    const outcome = await runEvaluation(run, createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }));
    expect(outcome.status).toBe("paused");
    expect(outcome.pause?.reason).toBe("budget");
    expect(server.stats.totalRequests - before).toBe(25);
    expect(await db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: "paused",
      pauseReason: "budget",
    });
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).errorMessage).toMatch(/budget of 25 LLM calls/);
    // What calls no model is computed anyway: only LLM judgments wait for the budget.
    const pendingByMetric = await db.judgmentItem.groupBy({
      by: ["metric"],
      where: { runId, status: "pending" },
      _count: { _all: true },
    });
    expect(pendingByMetric.map((group) => group.metric)).not.toContain("retrieval/ground_truth/document_recall");
    expect(
      await db.judgmentItem.count({
        where: { runId, metric: "retrieval/ground_truth/document_recall", status: "done" },
      }),
    ).toBe(20);
    // Not resumed by itself: it waits for a higher budget.
    expect(await listResumableRuns(db)).not.toContain(runId);

    await setRunBudget(db, runId, { calls: null });
    expect(await reopenRun(db, runId)).toBe(true);
    const resumed = await runEvaluation(
      await readRun(db, runId),
      createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }),
    );
    expect(resumed.status).toBe("completed");
    const llmJudged = await db.judgmentItem.count({ where: { runId, judgeProvider: { not: "deterministic" } } });
    expect(server.stats.totalRequests - before).toBe(llmJudged);
  });

  it("the CLI prints an estimate, pauses at --budget-calls, and resumes with a raised budget", async () => {
    const { db, url, server, datasetId } = world;
    const env = { DATABASE_URL: url, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-test-budget-0000" };
    const first = await spawnEval(
      [
        "--dataset-id",
        datasetId,
        "--judges",
        "correctness,safety",
        "--judge-model",
        "judge-cli",
        "--budget-calls",
        "10",
        "--quiet",
      ],
      { ...env, ASSAY_LLM_PRICES: JSON.stringify({ "judge-cli": { input: 1, output: 2 } }) },
    ).done;
    expect(first.stderr).toBe("");
    expect(first.stdout).toMatch(/Estimate: 40 LLM calls, about \d+ input and \d+ output tokens, about \$\d+\.\d\d\./);
    expect(first.stdout).toMatch(/budget of 10 LLM calls/);
    expect(first.code).toBe(3);
    const runId = /--resume (\S+)/.exec(first.stdout)?.[1] ?? "";
    expect(await db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } })).toEqual({
      status: "paused",
    });
    const second = await spawnEval(["--resume", runId, "--budget-calls", "1000", "--quiet"], env).done;
    expect(second.stderr).toBe("");
    expect(second.stdout).toMatch(/Estimate: 30 LLM calls/);
    expect(second.code).toBe(0);
    expect(await db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: "completed",
      budgetCalls: 1000,
    });
  }, 60_000);
});

describe("run budgets with a two-call metric", () => {
  let world: ServedDataset;
  beforeAll(async () => {
    world = await openServedDataset(syntheticRows(12, 1), {
      responder: fakeScoreResponder,
      behaviour: { latencyMs: 10 },
    });
  });
  afterAll(async () => world.close());

  it("counts a summarization in flight as two calls, so the run stops at its call budget, not past it", async () => {
    const { db, server, datasetId } = world;
    const runId = await createRun(
      db,
      {
        datasetId,
        metrics: ["summarization"],
        judge: { provider: "openai", model: "judge-two-calls" },
        concurrency: 4,
      },
      { budget: { calls: 6, tokens: null, usd: null } },
    );
    const run = await readRun(db, runId);
    const before = server.stats.totalRequests;
    const outcome = await runEvaluation(run, createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }));
    expect(outcome.status).toBe("paused");
    expect(server.stats.totalRequests - before).toBe(6);
    expect(await db.judgmentItem.count({ where: { runId, status: "done" } })).toBe(3);
  });

  it("never starts a two-call judgment with one call left: an odd budget stops one under it", async () => {
    const { db, server, datasetId } = world;
    const runId = await createRun(
      db,
      {
        datasetId,
        metrics: ["summarization"],
        judge: { provider: "openai", model: "judge-odd-budget" },
        concurrency: 4,
      },
      { budget: { calls: 5, tokens: null, usd: null } },
    );
    const run = await readRun(db, runId);
    const before = server.stats.totalRequests;
    const outcome = await runEvaluation(run, createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }));
    expect(outcome.status).toBe("paused");
    expect(server.stats.totalRequests - before).toBe(4);
  });

  it("completes, not pauses, when the budget is reached by the run's last LLM judgments", async () => {
    const { db, server, datasetId } = world;
    // 12 rows × 1 call uses the whole budget; document recall after it calls no model.
    const runId = await createRun(
      db,
      {
        datasetId,
        metrics: ["correctness", "document_recall"],
        judge: { provider: "openai", model: "judge-exact-budget" },
        concurrency: 4,
      },
      { budget: { calls: 12, tokens: null, usd: null } },
    );
    const run = await readRun(db, runId);
    const before = server.stats.totalRequests;
    const outcome = await runEvaluation(run, createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }));
    expect(server.stats.totalRequests - before).toBe(12);
    expect(outcome.status).toBe("completed");
    expect(await db.judgmentItem.count({ where: { runId, status: "pending" } })).toBe(0);
  });
});
