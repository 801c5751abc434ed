import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { failRun, renameRun } from "@/lib/db/runs/runLifecycle";
import { listResumableRuns, claimRunLease } from "@/lib/db/runs/runLease";
import { createRun } from "@/lib/engine/createRun";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import { BUILT_IN_METRICS } from "@/lib/engine/runConfig";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import { fakeLlmConfig, readRun } from "../support/engineKit";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import type { FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { holdWriteLock } from "../support/holdWriteLock";
import { spawnEval } from "../support/spawnEval";
import { syntheticRows } from "../support/syntheticRows";
import { openServedDataset } from "../support/servedDataset";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function statusCounts(db: Db, runId: string) {
  const groups = await db.judgmentItem.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } });
  return Object.fromEntries(groups.map((g) => [g.status, g._count._all]));
}

describe("runs survive a busy database", () => {
  let db: Db;
  let url: string;
  let close: () => Promise<void>;
  let server: FakeOpenAIServer;
  let datasetId: string;

  beforeAll(async () => {
    ({ db, url, server, datasetId, close } = await openServedDataset(syntheticRows(60, 3), {
      responder: fakeJudgeResponder,
      behaviour: { latencyMs: 15 },
    }));
  });
  afterAll(async () => close());
  afterEach(() => {
    delete process.env.ASSAY_STORE_RETRY_MS;
  });

  async function newRun(concurrency = 4) {
    return createRun(db, {
      datasetId,
      metrics: BUILT_IN_METRICS,
      judge: { provider: "openai", model: `judge-${Math.random().toString(36).slice(2, 8)}` },
      concurrency,
    });
  }

  it("another process holding the write lock for 6 s mid-run: the run completes, every item judged exactly once", async () => {
    const runId = await newRun();
    const planned = await db.judgmentItem.count({ where: { runId, status: "pending" } });
    const run = await readRun(db, runId);
    const requestsBefore = server.stats.totalRequests;
    const running = runEvaluation(run, createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }));

    while ((await db.judgmentItem.count({ where: { runId, status: { in: ["done", "error"] } } })) < planned * 0.2)
      await sleep(20);
    const lock = await holdWriteLock(url, 6_000);
    await lock.released;
    // The lock really stopped the run part-way: work was still pending when it was released.
    const pendingAtRelease = (await statusCounts(db, runId)).pending ?? 0;
    expect(pendingAtRelease).toBeGreaterThan(0);

    const outcome = await running;
    expect(outcome.status).toBe("completed");
    expect(await statusCounts(db, runId)).toEqual({ done: planned, skipped: expect.any(Number) });
    const stored = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } });
    expect(stored.status).toBe("completed");
    // One call per LLM-judged item, none repeated (fresh model name: no cache hits).
    const llmJudged = await db.judgmentItem.count({ where: { runId, judgeProvider: { not: "deterministic" } } });
    expect(await db.judgmentItem.count({ where: { runId, cacheHit: true } })).toBe(0);
    expect(server.stats.totalRequests - requestsBefore).toBe(llmJudged);
    expect(await db.chunkJudgment.count({ where: { runId } })).toBe(60 * 3);
  }, 90_000);

  it("a write waiting on a 3 s lock leaves the event loop free (timers fire, HTTP is served)", async () => {
    const runId = await newRun();
    const lock = await holdWriteLock(url, 3_000);
    let written = false;
    const renaming = renameRun(db, runId, "renamed while locked", []).then(() => {
      written = true;
    });
    // Order, not time: a write that waited on the lock synchronously (the driver's busy timeout) would hold the
    // event loop until it was written, so no timer could fire and no HTTP round trip finish before it. One that
    // waits asynchronously lets all of them through while it is still waiting.
    try {
      for (let turn = 0; turn < 5; turn++) {
        await sleep(10);
        // Any answer will do (the fake LLM server has no route here): what counts is that one came back.
        await (await fetch(`${server.origin}/health`)).arrayBuffer();
        expect(written).toBe(false);
      }
    } finally {
      await renaming;
      await lock.released;
    }
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).name).toBe("renamed while locked");
  }, 30_000);

  it("a lock that outlasts the retry window pauses the run, which resumes by itself with nothing lost", async () => {
    process.env.ASSAY_STORE_RETRY_MS = "800";
    const runId = await newRun(2);
    const planned = await db.judgmentItem.count({ where: { runId, status: "pending" } });
    const run = await readRun(db, runId);
    const requestsBefore = server.stats.totalRequests;
    const deps = createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) });
    const running = runEvaluation(run, { ...deps, leaseTtlMs: 1_000 });
    while ((await db.judgmentItem.count({ where: { runId, status: { in: ["done", "error"] } } })) < planned * 0.2)
      await sleep(20);
    const lock = await holdWriteLock(url, 4_000);
    const outcome = await running;
    expect(outcome.status).toBe("paused");
    await lock.released;
    delete process.env.ASSAY_STORE_RETRY_MS;
    await sleep(1_100); // if the pause itself could not be written, the lease lapses instead
    const stored = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(["paused", "running"]).toContain(stored.status);
    expect(await listResumableRuns(db)).toContain(runId);

    const resumed = await runEvaluation(
      await readRun(db, runId),
      createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }),
    );
    expect(resumed.status).toBe("completed");
    expect(await statusCounts(db, runId)).toEqual({ done: planned, skipped: expect.any(Number) });
    const llmJudged = await db.judgmentItem.count({ where: { runId, judgeProvider: { not: "deterministic" } } });
    const hits = await db.judgmentItem.count({ where: { runId, cacheHit: true } });
    // Finished results are never judged again (they come back from the store or the judge cache). Only the
    // calls in flight when the run paused, whose answers could be stored nowhere, are made again: one per lane at most.
    const calls = server.stats.totalRequests - requestsBefore;
    expect(calls).toBeGreaterThanOrEqual(llmJudged - hits);
    expect(calls).toBeLessThanOrEqual(llmJudged - hits + 2 * 2);
  }, 60_000);

  it("a failed run resumes from the CLI (--resume), keeping what it had finished", async () => {
    const runId = await newRun();
    const run = await readRun(db, runId);
    expect(await claimRunLease(db, runId, "dead-worker", 60_000)).toBe(true);
    await failRun(db, runId, "dead-worker", "The run stopped because of an internal error (ref test).");
    const result = await spawnEval(["--resume", runId, "--quiet"], {
      DATABASE_URL: url,
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: "sk-test-resume-0000",
    }).done;
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const stored = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(stored).toMatchObject({ status: "completed", errorMessage: null });
    expect((await statusCounts(db, run.id)).pending).toBeUndefined();
  }, 60_000);
});
