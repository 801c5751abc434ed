// What workers share through the store, checked on each store with two
// workers' worth of limiters in one process (the multi-worker test runs real
// processes): the endpoint's in-flight limit, a run's call budget, and the
// return of what a gone worker held.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlOf, type Db } from "@/lib/db/client";
import { reclaimFromGoneWorkers } from "@/lib/db/work/claims";
import { readRunSpending, releaseBudgetCalls, reserveBudgetCalls } from "@/lib/db/work/runSpending";
import { registerWorker } from "@/lib/db/work/workers";
import { resetJudgmentsForRejudge } from "@/lib/db/runs/rejudgeWork";
import { saveJudgment } from "@/lib/db/work/judgmentResults";
import { createRun } from "@/lib/engine/createRun";
import { createStoreSlotLimiter } from "@/lib/engine/worker/storeSlotLimiter";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb, type TempDb } from "../support/tempDb";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("limits shared by workers through the store", () => {
  let store: TempDb;
  let db: Db;

  beforeAll(async () => {
    store = await createTempDb();
    db = store.db;
    for (const id of ["worker-a", "worker-b", "worker-gone"])
      await registerWorker(db, { id, kind: "worker", host: "test", pid: 1, version: "test" });
  });
  afterAll(async () => store?.cleanup());

  it("two workers' limiters on one endpoint never hold more than the limit together, and both get slots", async () => {
    const limit = 3;
    const limiters = ["worker-a", "worker-b"].map((holder) =>
      createStoreSlotLimiter({ db, endpoint: "endpoint-1", holder: Promise.resolve(holder), max: limit }),
    );
    let inFlight = 0;
    let most = 0;
    const served = [0, 0];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        limiters[i % 2].run(async () => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          await sleep(5);
          inFlight -= 1;
          served[i % 2] += 1;
        }),
      ),
    );
    expect(most).toBe(limit);
    expect(served).toEqual([20, 20]);
    // Every slot is back in the store once the calls are done.
    await sleep(20);
    const held = await sqlOf(db).get<{ n: number }>(
      `SELECT COUNT(*) AS "n" FROM "InFlightSlot" WHERE "endpoint" = 'endpoint-1' AND "holder" IS NOT NULL`,
    );
    expect(held?.n).toBe(0);
  });

  it("a run's call budget holds across workers: reservations past it are refused, and freed calls can be reserved again", async () => {
    const datasetId = await importRows(db, syntheticRows(4, 1));
    const runId = await createRun(
      db,
      {
        datasetId,
        metrics: ["response/llm_judged/safety"],
        judge: { provider: "openai", model: "judge-model" },
        concurrency: 4,
      },
      { budget: { calls: 10, tokens: null, usd: null } },
    );
    const granted = await Promise.all(
      Array.from({ length: 12 }, (_, i) => reserveBudgetCalls(db, runId, i % 2 ? "worker-a" : "worker-b", 1)),
    );
    expect(granted.filter(Boolean)).toHaveLength(10);
    expect(await reserveBudgetCalls(db, runId, "worker-a", 1)).toBe(false);
    await releaseBudgetCalls(db, runId, "worker-b", 2);
    expect(await reserveBudgetCalls(db, runId, "worker-a", 2)).toBe(true);
    expect(await reserveBudgetCalls(db, runId, "worker-a", 1)).toBe(false);
    expect(await readRunSpending(db, runId)).toEqual({ calls: 0, tokens: 0, usd: 0 });
  });

  it("what a gone worker held comes back: its claims, its slots and its budget holds", async () => {
    const datasetId = await importRows(db, syntheticRows(3, 1));
    const runId = await createRun(
      db,
      {
        datasetId,
        metrics: ["response/llm_judged/safety"],
        judge: { provider: "openai", model: "judge-model" },
        concurrency: 4,
      },
      { budget: { calls: 3, tokens: null, usd: null } },
    );
    const sql = sqlOf(db);
    await sql.run(`UPDATE "JudgmentItem" SET "status" = 'running', "claimedBy" = 'worker-gone' WHERE "runId" = ?`, [
      runId,
    ]);
    expect(await reserveBudgetCalls(db, runId, "worker-gone", 3)).toBe(true);
    const slots = createStoreSlotLimiter({
      db,
      endpoint: "endpoint-2",
      holder: Promise.resolve("worker-gone"),
      max: 1,
    });
    await slots.acquire(); // held, never released: the worker dies holding it
    // worker-gone stops heartbeating; the others keep beating.
    await sql.run(`UPDATE "Worker" SET "heartbeatAt" = ? WHERE "id" = 'worker-gone'`, [new Date(Date.now() - 60_000)]);
    const returned = await reclaimFromGoneWorkers(db, 30_000);
    expect(returned).toEqual({ items: 3, slots: 1 });
    expect(await db.judgmentItem.count({ where: { runId, status: "pending", claimedBy: null } })).toBe(3);
    expect(await reserveBudgetCalls(db, runId, "worker-a", 3)).toBe(true);
    const other = createStoreSlotLimiter({ db, endpoint: "endpoint-2", holder: Promise.resolve("worker-a"), max: 1 });
    const release = await Promise.race([other.acquire(), sleep(2_000).then(() => null)]);
    expect(release).not.toBeNull();
    release?.();
  });

  it("a run's spending is what its current results cost: a re-judge takes back what the results it resets cost", async () => {
    const datasetId = await importRows(db, syntheticRows(3, 1));
    const runId = await createRun(db, {
      datasetId,
      metrics: ["response/llm_judged/safety"],
      judge: { provider: "openai", model: "judge-model" },
      concurrency: 4,
    });
    const items = await db.judgmentItem.findMany({ where: { runId }, select: { id: true, rowId: true, metric: true } });
    for (const [i, item] of items.entries())
      await saveJudgment(
        db,
        { ...item, runId },
        {
          rating: "yes",
          score: null,
          rationale: "written by the test",
          errorMessage: i === 0 ? "the judge's answer did not parse" : null,
          provider: "openai",
          model: "judge-model",
          promptVersion: "test",
          promptHash: null,
          usage: { inputTokens: 10, outputTokens: 5 },
          cacheHit: false,
          attempts: 2,
          latencyMs: 0,
          threshold: null,
          passed: true,
          costUsd: 0.001,
        },
      );
    expect(await readRunSpending(db, runId)).toMatchObject({ calls: 6, tokens: 45 });
    await db.run.update({ where: { id: runId }, data: { status: "completed" } });
    expect(await resetJudgmentsForRejudge(db, runId, "errored")).toBe(1);
    expect(await readRunSpending(db, runId)).toMatchObject({ calls: 4, tokens: 30 });
  });
});
