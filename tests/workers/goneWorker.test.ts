// What a killed worker leaves, on each store, in one process: a run it coordinated (its lease no longer
// renewed) while another worker helps, and in-flight slots it held. The helper takes over coordination while
// work is left, so the resume says what was pending and the working time counts the helper's judging; the
// slots go to the others once it has been silent for the slot timeout, and the workers table says who holds
// them until then. (tests/workers/multiWorker.test.ts kills real worker processes, on PostgreSQL.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlOf, type Db } from "@/lib/db/client";
import { listRunEvents } from "@/lib/db/runs/runEvents";
import { claimRunLease } from "@/lib/db/runs/runLifecycle";
import { releaseSlotsOfSilentHolders } from "@/lib/db/work/inFlightSlots";
import { heartbeatWorker, listRecentWorkers, registerWorker } from "@/lib/db/work/workers";
import { createRun } from "@/lib/engine/createRun";
import { createStoreSlotLimiter } from "@/lib/engine/worker/storeSlotLimiter";
import { startWorkerLoop } from "@/lib/engine/worker/workerLoop";
import { slotTimeoutMs, workerTimeoutMs } from "@/lib/engine/worker/workerSettings";
import type { Release } from "@/lib/llm/concurrencyLimiter";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb, type TempDb } from "../support/tempDb";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let tries = 0; ; tries += 1) {
    const value = await read();
    if (done(value)) return value;
    if (tries > 600) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(value)}`);
    await sleep(50);
  }
}

const dead = (id: string) => ({ id, kind: "worker" as const, host: "gone-host", pid: 4242, version: "test" });

describe("what a killed worker leaves behind", () => {
  let store: TempDb;
  let db: Db;
  let server: FakeOpenAIServer;

  beforeAll(async () => {
    store = await createTempDb();
    db = store.db;
    server = await startFakeOpenAIServer({ responder: fakeJudgeResponder, behaviour: { latencyMs: 40 } });
  });
  afterAll(async () => {
    await server?.close();
    await store?.cleanup();
  });

  it("a worker helping a run whose coordinator died takes over while work is left, and its judging counts as working time", async () => {
    const datasetId = await importRows(db, syntheticRows(80, 1));
    const runId = await createRun(db, {
      datasetId,
      metrics: ["safety"],
      judge: { provider: "openai", model: "judge-model-takeover" },
      concurrency: 2,
    });
    // The coordinator: alive when the other worker looks, so that worker helps rather than coordinates.
    await registerWorker(db, dead("worker-killed-coordinator"));
    expect(await claimRunLease(db, runId, "worker-killed-coordinator", workerTimeoutMs())).toBe(true);
    const logged: string[] = [];
    const helper = startWorkerLoop({
      db,
      kind: "worker",
      pollMs: 200,
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-test-takeover-0000" },
      log: (line) => logged.push(line),
    });
    try {
      await waitFor(
        "the helper's first results",
        () => db.judgmentItem.count({ where: { runId, status: "done" } }),
        (done) => done >= 5,
      );
      // The coordinator was killed: its lease is not renewed and lapses.
      await db.run.update({ where: { id: runId }, data: { leaseExpiresAt: new Date(Date.now() - 1_000) } });
      await waitFor(
        "the run to complete",
        () => db.run.findUniqueOrThrow({ where: { id: runId } }),
        (run) => run.status === "completed",
      );
    } finally {
      await helper.stop();
    }
    const events = await listRunEvents(db, runId);
    expect(events.map((event) => event.kind)).toEqual(["started", "resumed", "finished"]);
    const resumed = events[1];
    expect(resumed.worker).not.toBe("worker-killed-coordinator");
    // Taken over with work left, and said so: not "0 judgments were pending" once the helper had done it all.
    expect(resumed.pendingJudgments).toBeGreaterThan(0);
    expect(resumed.pendingJudgments).toBeLessThan(80);
    expect(logged).toContain(
      `resumed run ${runId} after an interruption; ${resumed.pendingJudgments} judgments were pending`,
    );
    // Every result was written by the helper (it never had a coordinator counting time for it before the
    // takeover): the working time covers the span from its first result to the end, and never the wall clock.
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    const first = await db.judgmentItem.findFirstOrThrow({ where: { runId }, orderBy: { finishedAt: "asc" } });
    if (!run.startedAt || !run.finishedAt || !first.finishedAt) throw new Error("a finished run has its times");
    expect(run.workingMs).toBeGreaterThanOrEqual(run.finishedAt.getTime() - first.finishedAt.getTime());
    expect(run.workingMs).toBeLessThanOrEqual(run.finishedAt.getTime() - run.startedAt.getTime());
  }, 60_000);

  it("a silent worker's in-flight slots go to the others after the slot timeout, and the workers table shows them until then", async () => {
    const endpoint = "endpoint-gone-worker";
    await registerWorker(db, dead("worker-killed-holder"));
    await registerWorker(db, dead("worker-live-holder"));
    const killed = createStoreSlotLimiter({ db, endpoint, holder: Promise.resolve("worker-killed-holder"), max: 6 });
    const live = createStoreSlotLimiter({ db, endpoint, holder: Promise.resolve("worker-live-holder"), max: 6 });
    const killedReleases = await Promise.all(Array.from({ length: 4 }, () => killed.acquire()));
    const liveReleases = await Promise.all(Array.from({ length: 2 }, () => live.acquire()));
    // worker-killed-holder was last heard of a slot timeout and a second ago; worker-live-holder just now.
    const silence = slotTimeoutMs() + 1_000;
    await sqlOf(db).run(`UPDATE "Worker" SET "heartbeatAt" = ? WHERE "id" = 'worker-killed-holder'`, [
      new Date(Date.now() - silence),
    ]);
    await heartbeatWorker(db, "worker-live-holder", { runId: null, inFlight: 2, completed: 0 });

    const shown = await listRecentWorkers(db, { timeoutMs: workerTimeoutMs(), windowMs: 60 * 60 * 1000 });
    const silentRow = shown.find((worker) => worker.id === "worker-killed-holder");
    expect(silentRow?.slotsHeld).toBe(4);
    expect(silentRow?.heartbeatAgeMs).toBeGreaterThanOrEqual(silence - 1_000);
    expect(shown.find((worker) => worker.id === "worker-live-holder")?.slotsHeld).toBe(2);

    // What any live worker's heartbeat does: the silent one's slots are freed, the live one's kept.
    expect(await releaseSlotsOfSilentHolders(db, slotTimeoutMs())).toBe(4);
    const taken: Release[] = await Promise.all(Array.from({ length: 4 }, () => live.acquire()));
    expect(live.inFlight).toBe(6);

    // The killed worker, were it only stalled, finds out and hands none of those slots on to its own callers.
    const waiting = killed.acquire();
    killedReleases[0](); // the first hand-over, which makes it ask the store what it still holds
    (await waiting)();
    await sleep(500); // its question answered
    let granted = false;
    const next = killed.acquire().then((release) => ((granted = true), release));
    killedReleases[1]();
    await sleep(200);
    expect(granted).toBe(false);
    // It gets a slot once one is free in the store again.
    taken[0]();
    (await next)();
    for (const release of [...killedReleases.slice(2), ...taken.slice(1), ...liveReleases]) release();
  }, 30_000);
});
