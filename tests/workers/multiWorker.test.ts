// Three `npm run worker` processes share one run of 2,000 judgments on the
// store under test, against the fake OpenAI server; one worker is killed with
// SIGKILL mid-run. Every judgment must end written exactly once, what the dead
// worker held must come back to the pool and be judged by another, finished
// work must not be redone, and the server must never see more calls in flight
// than the endpoint's limit shared by all workers.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createRun } from "@/lib/engine/createRun";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { importRows } from "../support/engineKit";
import { endWithThisProcess } from "../support/processCleanup";
import { syntheticRows } from "../support/syntheticRows";
import { expectTalliesExact } from "../support/keptTallies";
import { createTempDb, type TempDb } from "../support/tempDb";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ROWS = 1_000;
const METRICS = ["response/llm_judged/relevance_to_query", "response/llm_judged/safety"];
const SHARED_LIMIT = 6;
const WORKER_TIMEOUT_MS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Worker = { child: ChildProcess; output: () => string; exited: Promise<void> };

function startWorker(env: Record<string, string>): Worker {
  const child = spawn(process.execPath, [inject("cliBundles").worker], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NODE_ENV: "test", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const untrack = endWithThisProcess(child, { group: false });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on("exit", () => (untrack(), resolve())));
  return { child, output: () => output, exited };
}

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await sleep(100);
  }
}

describe("three workers on one run, one killed mid-run", () => {
  let store: TempDb;
  let db: Db;
  let server: FakeOpenAIServer;
  const workers: Worker[] = [];

  beforeAll(async () => {
    store = await createTempDb();
    db = store.db;
    server = await startFakeOpenAIServer({ behaviour: { latencyMs: 40 } });
  });

  afterAll(async () => {
    for (const worker of workers) worker.child.kill("SIGKILL");
    await Promise.all(workers.map((worker) => worker.exited));
    await server?.close();
    await store?.cleanup();
  });

  it("judges every item exactly once, returns the dead worker's claims, and holds the shared in-flight limit", async () => {
    const datasetId = await importRows(db, syntheticRows(ROWS, 2));
    const runId = await createRun(db, {
      datasetId,
      metrics: METRICS,
      judge: { provider: "openai", model: "judge-model" },
      concurrency: SHARED_LIMIT,
    });
    const planned = await db.judgmentItem.count({ where: { runId, status: "pending" } });
    expect(planned).toBe(2_000);

    const env = {
      DATABASE_URL: store.url,
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: "sk-test-workers-0000",
      ASSAY_LLM_MAX_IN_FLIGHT: String(SHARED_LIMIT),
      ASSAY_WORKER_TIMEOUT_MS: String(WORKER_TIMEOUT_MS),
      ASSAY_WORKER_POLL_MS: "300",
    };
    for (let i = 0; i < 3; i += 1) workers.push(startWorker(env));

    // Mid-run, with every worker holding work: the one holding the most claims is killed.
    const claimsByWorker = async () =>
      (
        await db.judgmentItem.groupBy({
          by: ["claimedBy"],
          where: { runId, status: "running" },
          _count: { _all: true },
        })
      ).filter((group) => group.claimedBy !== null);
    await waitFor(
      "a third of the run judged by three workers",
      async () => ({
        finished: await db.judgmentItem.count({ where: { runId, status: { in: ["done", "error"] } } }),
        holders: (await claimsByWorker()).length,
      }),
      ({ finished, holders }) => finished >= planned / 3 && holders === 3,
      60_000,
    );
    const [victimClaims] = (await claimsByWorker()).sort((a, b) => b._count._all - a._count._all);
    const victimRow = await db.worker.findUniqueOrThrow({ where: { id: victimClaims.claimedBy as string } });
    const victim = workers.find((worker) => worker.child.pid === victimRow.pid);
    expect(victim).toBeDefined();
    const finishedBeforeKill = await db.judgmentItem.findMany({
      where: { runId, status: { in: ["done", "error"] } },
      select: { id: true, finishedAt: true },
    });
    victim!.child.kill("SIGKILL");
    await victim!.exited;

    // Its claims return to the pool once it has been silent for the worker timeout (and a sweep has seen it).
    await waitFor(
      "the dead worker's claims back in the pool",
      () => db.judgmentItem.count({ where: { runId, claimedBy: victimRow.id } }),
      (held) => held === 0,
      WORKER_TIMEOUT_MS + 10_000,
    );

    const run = await waitFor(
      "the run to complete",
      () => db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } }),
      (value) => value.status === "completed",
      90_000,
    );
    expect(run.status).toBe("completed");

    // Every item written once: all done, no chunk verdicts or results twice, none left claimed.
    const byStatus = await db.judgmentItem.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } });
    expect(Object.fromEntries(byStatus.map((group) => [group.status, group._count._all]))).toEqual({ done: planned });
    expect(await db.judgmentItem.count({ where: { runId, claimedBy: { not: null } } })).toBe(0);
    // Three workers claimed and wrote at once, one died holding claims: the kept tallies still equal a recount.
    await expectTalliesExact(db, runId);
    // Finished work was never redone: those results kept their write time.
    const after = new Map(
      (await db.judgmentItem.findMany({ where: { runId }, select: { id: true, finishedAt: true } })).map((item) => [
        item.id,
        item.finishedAt?.getTime(),
      ]),
    );
    for (const item of finishedBeforeKill) expect(after.get(item.id)).toBe(item.finishedAt?.getTime());
    // One request per judgment the survivors judged (those read back from the judge cache took none), plus the
    // requests the dead worker made for judgments it never wrote: at most one per lane it had, twice the limit
    // (lib/engine/workRun.ts), each in flight at the kill or answered and not yet written.
    const readFromCache = await db.judgmentItem.count({ where: { runId, cacheHit: true } });
    expect(server.stats.totalRequests).toBeGreaterThanOrEqual(planned);
    expect(server.stats.totalRequests).toBeLessThanOrEqual(planned - readFromCache + 2 * SHARED_LIMIT);
    // The limit held across all three workers together, not per worker.
    expect(server.stats.maxInFlight).toBeLessThanOrEqual(SHARED_LIMIT);
    expect(server.stats.maxInFlight).toBe(SHARED_LIMIT);
    // The run's spending counts each written result's calls once, and nothing stays reserved. A result the dead
    // worker had an answer for but never wrote is read back from the judge cache with no call: at most one per
    // lane it had. Every other judgment took exactly one call (this server never fails).
    const spent = await db.runWorkerSpending.aggregate({ where: { runId }, _sum: { calls: true, heldCalls: true } });
    const attempts = await db.judgmentItem.aggregate({ where: { runId }, _sum: { attempts: true } });
    expect(spent._sum.calls).toBe(attempts._sum.attempts);
    expect(readFromCache).toBeLessThanOrEqual(2 * SHARED_LIMIT);
    expect(spent._sum.calls).toBe(planned - readFromCache);
    expect(spent._sum.heldCalls).toBe(0);
    // Survivors judged after the kill; the coordinator recorded no failure.
    const survivors = await db.worker.findMany({ where: { id: { not: victimRow.id }, kind: "worker" } });
    expect(survivors.filter((worker) => worker.completed > 0).length).toBeGreaterThanOrEqual(1);
  }, 180_000);
});
