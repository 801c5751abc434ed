import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { killRunPartWay } from "../support/killRunPartWay";
import { spawnEval } from "../support/spawnEval";
import { createTempDb } from "../support/tempDb";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a runner killed mid-run (SIGKILL) and restarted", () => {
  let db: Db;
  let url: string;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer;

  beforeAll(async () => {
    ({ db, url, cleanup } = await createTempDb());
    server = await startFakeOpenAIServer({ responder: fakeJudgeResponder, behaviour: { latencyMs: 25 } });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it("resumes, completes, and never repeats a finished judgment's LLM call", async () => {
    const { runId, planned, killed, env } = await killRunPartWay(db, {
      url,
      serverUrl: server.url,
      rows: 120,
      chunks: 3,
      model: "judge-model",
      concurrency: 8,
    });
    expect(killed.stderr).toBe("");
    expect(killed.signal).toBe("SIGKILL");

    const finishedBefore = await db.judgmentItem.findMany({
      where: { runId, status: { in: ["done", "error"] } },
      orderBy: { id: "asc" },
    });
    expect(finishedBefore.length).toBeGreaterThan(0);
    expect(finishedBefore.length).toBeLessThan(planned);
    // Unfinished: pending, or claimed by the killed process (running) and returned to the pool on resume.
    const pendingAtKill = await db.judgmentItem.count({ where: { runId, status: { in: ["pending", "running"] } } });
    await sleep(100); // let the dead process's sockets close on the server
    const requestsAtRestart = server.stats.totalRequests;

    const second = await spawnEval(["--resume", runId, "--quiet"], env).done;
    expect(second.stderr).toBe("");
    expect(second.code).toBe(0);

    const after = await db.judgmentItem.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } });
    expect(Object.fromEntries(after.map((g) => [g.status, g._count._all]))).toMatchObject({ done: planned });
    expect(await db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } })).toEqual({
      status: "completed",
    });
    // Exactly one call per judgment that was still pending; none for those finished before the kill.
    // (counted now that they are finished: deterministic metrics such as document_recall make no call)
    // (filtered here, not with an id list in the query: createDb's guard refuses a query whose bound values grow with the data)
    const finishedIds = new Set(finishedBefore.map((i) => i.id));
    const deterministicPending = (
      await db.judgmentItem.findMany({ where: { runId, judgeProvider: "deterministic" }, select: { id: true } })
    ).filter((i) => !finishedIds.has(i.id)).length;
    expect(deterministicPending).toBeGreaterThan(0);
    // A judgment the killed runner had an answer for (cached) but had not yet written is read back from the judge
    // cache on resume, with no call: at most one per lane, and a runner has twice its concurrency in lanes (one
    // lane's answer waits for its write while another's call takes the freed slot; lib/engine/workRun.ts).
    const cachedOnResume = (
      await db.judgmentItem.findMany({ where: { runId, cacheHit: true }, select: { id: true } })
    ).filter((i) => !finishedIds.has(i.id)).length;
    expect(cachedOnResume).toBeLessThanOrEqual(2 * 8);
    expect(server.stats.totalRequests - requestsAtRestart).toBe(pendingAtKill - deterministicPending - cachedOnResume);
    const unchanged = (await db.judgmentItem.findMany({ where: { runId }, orderBy: { id: "asc" } })).filter((i) =>
      finishedIds.has(i.id),
    );
    expect(unchanged).toEqual(finishedBefore);
    expect(await db.chunkJudgment.count({ where: { runId } })).toBe(120 * 3);
  }, 120_000);
});
