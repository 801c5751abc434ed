// What a killed worker leaves, on each store, in one process: a run it coordinated (its lease no longer
// renewed) while another worker helps, and in-flight slots it held. The helper takes over coordination while
// work is left, so the resume says what was pending and the working time counts the helper's judging; the
// slots go to the others once it has been silent for the slot timeout, and the workers table says who holds
// them until then. (tests/workers/multiWorker.test.ts kills real worker processes, on PostgreSQL.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlOf, type Db } from "@/lib/db/client";
import { listRunEvents } from "@/lib/db/runs/runEvents";
import { claimRunLease } from "@/lib/db/runs/runLease";
import { reclaimFromGoneWorkers } from "@/lib/db/work/claims";
import { releaseSlotsOfSilentHolders } from "@/lib/db/work/inFlightSlots";
import { heartbeatWorker, listRecentWorkers, registerWorker } from "@/lib/db/work/workers";
import { createRun } from "@/lib/engine/createRun";
import { createStoreSlotLimiter } from "@/lib/engine/worker/storeSlotLimiter";
import { startWorkerLoop } from "@/lib/engine/worker/workerLoop";
import { slotSweepGate } from "@/lib/engine/worker/workerPresence";
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
    // It had claimed a run's items too.
    const datasetId = await importRows(db, syntheticRows(3, 1));
    const runId = await createRun(db, {
      datasetId,
      metrics: ["safety"],
      judge: { provider: "openai", model: "judge-model-silent-holder" },
      concurrency: 2,
    });
    const claimed = await sqlOf(db).run(
      `UPDATE "JudgmentItem" SET "status" = 'running', "claimedBy" = 'worker-killed-holder' WHERE "runId" = ?`,
      [runId],
    );
    expect(claimed).toBeGreaterThan(0);
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
    // Its claims are kept until the worker timeout: taking them from a worker only stalled makes its calls twice.
    expect(await reclaimFromGoneWorkers(db, workerTimeoutMs())).toEqual({ items: 0, slots: 0 });
    expect(
      await db.judgmentItem.count({ where: { runId, status: "running", claimedBy: "worker-killed-holder" } }),
    ).toBe(claimed);
    const taken: Release[] = await Promise.all(Array.from({ length: 4 }, () => live.acquire()));
    expect(live.inFlight).toBe(6);

    // The killed worker, were it only stalled, hands none of those slots on to its own callers: a freed slot goes
    // to the next caller without a query only soon after the store last said its slots were its own.
    let granted = 0;
    const waiting = [killed.acquire(), killed.acquire()].map((acquired) =>
      acquired.then((release) => ((granted += 1), release)),
    );
    killedReleases[0](); // the first hand-over, which asks the store first: not ours, given back
    await sleep(300);
    killedReleases[1](); // found lost by that same question: given back
    await sleep(300);
    expect(granted).toBe(0);
    expect(killed.inFlight).toBe(2);
    // It gets slots once they are free in the store again.
    taken[0]();
    taken[1]();
    for (const release of await Promise.all(waiting)) release();
    for (const release of [...killedReleases.slice(2), ...taken.slice(2), ...liveReleases]) release();
  }, 30_000);

  it("a stall of the whole store longer than the slot timeout frees no live worker's slots, only a dead one's", async () => {
    const endpoint = "endpoint-store-stall";
    for (const id of ["worker-stall-sweeper", "worker-stall-live", "worker-stall-dead"])
      await registerWorker(db, dead(id));
    const live = createStoreSlotLimiter({ db, endpoint, holder: Promise.resolve("worker-stall-live"), max: 4 });
    const killed = createStoreSlotLimiter({ db, endpoint, holder: Promise.resolve("worker-stall-dead"), max: 4 });
    const liveReleases = await Promise.all([live.acquire(), live.acquire()]);
    await killed.acquire(); // the dead worker's, never released
    const held = async (holder: string) =>
      Number(
        (
          await sqlOf(db).get<{ n: number }>(
            `SELECT COUNT(*) AS "n" FROM "InFlightSlot" WHERE "endpoint" = ? AND "holder" = ?`,
            [endpoint, holder],
          )
        )?.n,
      );
    // The sweeper's beats, on a clock of the test's own: regular, then a store stall past the slot timeout.
    let now = 0;
    const gate = slotSweepGate(slotTimeoutMs(), () => now);
    now += 1_000;
    expect(gate.beatStored()).toBe(true);
    // The stall: every worker's last heartbeat is a slot timeout and a second old when the store answers again.
    await sqlOf(db).run(`UPDATE "Worker" SET "heartbeatAt" = ? WHERE "id" LIKE 'worker-stall-%'`, [
      new Date(Date.now() - slotTimeoutMs() - 1_000),
    ]);
    const sweeper = { id: "worker-stall-sweeper", freshWithinMs: gate.gapMs };
    // A sweep decided before the stall and run after it (the sweeper's heartbeat is as old as the others'): none.
    expect(await releaseSlotsOfSilentHolders(db, slotTimeoutMs(), sweeper)).toBe(0);
    // The sweeper beats first after the stall: it was silent too, so it does not sweep, nor on its next beats.
    now += slotTimeoutMs() + 1_000;
    await heartbeatWorker(db, "worker-stall-sweeper", { runId: null, inFlight: 0, completed: 0 });
    expect(gate.beatStored()).toBe(false);
    now += 1_000;
    expect(gate.beatStored()).toBe(false);
    // Meanwhile the live worker beats; the dead one does not. Then the sweep frees the dead one's slot only.
    await heartbeatWorker(db, "worker-stall-live", { runId: null, inFlight: 2, completed: 0 });
    now += gate.gapMs;
    await heartbeatWorker(db, "worker-stall-sweeper", { runId: null, inFlight: 0, completed: 0 });
    expect(gate.beatStored()).toBe(true);
    await releaseSlotsOfSilentHolders(db, slotTimeoutMs(), sweeper); // and any other test's silent workers'
    expect(await held("worker-stall-live")).toBe(2);
    expect(await held("worker-stall-dead")).toBe(0);
    for (const release of liveReleases) release();
  });
});
