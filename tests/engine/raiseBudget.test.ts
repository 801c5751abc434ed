// What the run page's "Raise budget and resume" does (app/actions/raiseRunBudget.ts): the budget fields
// parsed with its schema, the budget raised and the run reopened (lib/db/runs/runBudget.ts), then executed by
// the web server's scheduler, against a real SQLite file and the fake OpenAI server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunBudgetState, raiseBudgetAndReopen } from "@/lib/db/runs/runBudget";
import { budgetFieldsSchema } from "@/lib/server/runForm/budgetFormFields";
import { createRun } from "@/lib/engine/createRun";
import { executeRunInBackground, isRunActiveHere } from "@/lib/server/runScheduler";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { openServedDataset, type ServedDataset } from "../support/servedDataset";
import { syntheticRows } from "../support/syntheticRows";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function settle(runId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (isRunActiveHere(runId) && Date.now() < deadline) await sleep(50);
}

describe("raising a paused run's budget from the run page", () => {
  let world: ServedDataset;
  const saved = { ...process.env };
  beforeAll(async () => {
    world = await openServedDataset(syntheticRows(10, 2), {
      responder: fakeJudgeResponder,
      behaviour: { latencyMs: 5 },
    });
    // The scheduler runs as the web server does: its database and model endpoint from the environment.
    process.env.DATABASE_URL = world.url;
    process.env.OPENAI_BASE_URL = world.server.url;
    process.env.OPENAI_API_KEY = "sk-test-raise-budget-0000";
    process.env.ASSAY_LLM_TIMEOUT_MS = "2000";
  });
  afterAll(async () => {
    process.env = saved;
    await world.close();
  });

  it("reads the budget fields: empty is no limit, anything else a positive number", () => {
    expect(budgetFieldsSchema.parse({ budgetCalls: "1000", budgetTokens: "", budgetUsd: null })).toEqual({
      calls: 1000,
      tokens: null,
      usd: null,
    });
    expect(budgetFieldsSchema.parse({ budgetCalls: " ", budgetTokens: "50000", budgetUsd: "2.5" })).toEqual({
      calls: null,
      tokens: 50_000,
      usd: 2.5,
    });
    const refused = (fields: Record<string, string>) =>
      budgetFieldsSchema.safeParse({ budgetCalls: "", budgetTokens: "", budgetUsd: "", ...fields }).error?.issues[0]
        ?.message;
    expect(refused({ budgetCalls: "0" })).toBe("The call budget must be more than 0");
    expect(refused({ budgetCalls: "-3" })).toBe("The call budget must be more than 0");
    expect(refused({ budgetTokens: "2.5" })).toBe("The token budget must be a whole number");
    expect(refused({ budgetUsd: "abc" })).toBe("The cost budget (USD) must be a number");
    expect(refused({ budgetCalls: "3000000000" })).toBe("The call budget must be at most 2,000,000,000");
  });

  it("a run paused at 6 calls says so, refuses a budget it has already spent, and finishes once raised", async () => {
    const { db, server, datasetId } = world;
    const before = server.stats.totalRequests;
    const runId = await createRun(
      db,
      {
        datasetId,
        metrics: ["correctness", "safety"],
        judge: { provider: "openai", model: "judge-raise" },
        concurrency: 2,
      },
      { budget: { calls: 6, tokens: null, usd: null } },
    );
    executeRunInBackground(runId);
    await settle(runId);
    const paused = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(paused).toMatchObject({ status: "paused", pauseReason: "budget" });
    expect(paused.errorMessage).toBe(
      "Paused: budget of 6 LLM calls reached (6 made). Raise or remove the budget to resume; finished judgments are kept.",
    );
    expect(server.stats.totalRequests - before).toBe(6);
    expect(await getRunBudgetState(db, runId)).toMatchObject({
      pausedByBudget: true,
      budget: { calls: 6, tokens: null, usd: null },
      spent: { calls: 6 },
    });

    // A limit the run has already reached would pause it again at once: refused, nothing changed.
    const same = await raiseBudgetAndReopen(db, runId, budgetFieldsSchema.parse({ budgetCalls: "6" }));
    expect(same).toEqual({
      ok: false,
      message: "The run has already spent 6 LLM calls: set the call budget above that, or leave it empty for no limit.",
    });
    expect(await db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: "paused",
      budgetCalls: 6,
    });

    const raised = await raiseBudgetAndReopen(
      db,
      runId,
      budgetFieldsSchema.parse({ budgetCalls: "1000", budgetTokens: "", budgetUsd: "" }),
    );
    expect(raised).toEqual({ ok: true });
    executeRunInBackground(runId);
    await settle(runId);
    expect(await db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: "completed",
      budgetCalls: 1000,
      pauseReason: null,
      errorMessage: null,
    });
    // Nothing judged twice: one request per LLM judgment over both passes.
    const judged = await db.judgmentItem.count({ where: { runId, status: "done" } });
    expect(judged).toBe(20);
    expect(server.stats.totalRequests - before).toBe(judged);
  }, 60_000);

  it("refuses to resume a run that is not paused or failed", async () => {
    const { db, datasetId } = world;
    const runId = await createRun(db, {
      datasetId,
      metrics: ["safety"],
      judge: { provider: "openai", model: "judge-raise" },
    });
    expect(await raiseBudgetAndReopen(db, runId, { calls: 10, tokens: null, usd: null })).toEqual({
      ok: false,
      message: "The run is pending; only a paused or failed run can be resumed.",
    });
  });
});
