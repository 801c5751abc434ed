import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { listRunEvents } from "@/lib/db/runs/runEvents";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { createRun } from "@/lib/engine/createRun";
import { BUILT_IN_METRICS } from "@/lib/engine/runConfig";
import { importRows } from "../support/engineKit";
import { killRunPartWay } from "../support/killRunPartWay";
import { syntheticRows } from "../support/syntheticRows";
import { spawnEval } from "../support/spawnEval";
import { createTempDb } from "../support/tempDb";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("an interrupted run records its resume and counts working time, not the time it lay dead", () => {
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

  it("the CLI resumes a SIGKILLed run: a resumed event with the pending count, a line on stdout, working time below the wall clock", async () => {
    const { runId, planned, killed, env } = await killRunPartWay(db, {
      url,
      serverUrl: server.url,
      rows: 60,
      chunks: 2,
      model: "judge-model-resume",
      concurrency: 4,
    });
    expect(killed.signal).toBe("SIGKILL");
    const pendingAtKill = await db.judgmentItem.count({ where: { runId, status: { in: ["pending", "running"] } } });
    expect(pendingAtKill).toBeGreaterThan(0);
    // The run lies dead for a while: wall-clock time that is not working time.
    await sleep(2_500);

    const second = await spawnEval(["--resume", runId, "--quiet"], env).done;
    expect(second.stderr).toBe("");
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      `Resumed run ${runId} after an interruption; ${pendingAtKill} judgments were pending.`,
    );

    const events = await listRunEvents(db, runId);
    expect(events.map((e) => [e.kind, e.pendingJudgments])).toEqual([
      ["started", planned],
      ["resumed", pendingAtKill],
      ["finished", 0],
    ]);
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("completed");
    if (!run.startedAt || !run.finishedAt) throw new Error("a finished run has its start and finish");
    const wallMs = run.finishedAt.getTime() - run.startedAt.getTime();
    expect(run.workingMs).toBeGreaterThan(0);
    // At least the 2.5 s it lay dead separates the two.
    expect(wallMs - run.workingMs).toBeGreaterThanOrEqual(2_000);
    expect(events[1].at.getTime()).toBeGreaterThan(events[0].at.getTime());
  }, 120_000);

  it("a run that finishes without interruption has no resumed event and working time close to its wall clock", async () => {
    const datasetId = await importRows(db, syntheticRows(20, 2));
    const runId = await createRun(db, {
      datasetId,
      metrics: BUILT_IN_METRICS,
      judge: { provider: "openai", model: "judge-model-steady" },
      concurrency: 4,
    });
    const env = { DATABASE_URL: url, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-test-resume-0000" };
    const done = await spawnEval(["--resume", runId, "--quiet"], env).done;
    expect(done.code).toBe(0);
    expect(done.stdout).not.toContain("Resumed run");
    expect((await listRunEvents(db, runId)).map((e) => e.kind)).toEqual(["started", "finished"]);
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    if (!run.startedAt || !run.finishedAt) throw new Error("a finished run has its start and finish");
    const wallMs = run.finishedAt.getTime() - run.startedAt.getTime();
    expect(run.workingMs).toBeGreaterThan(0);
    // One session from start to finish: its working time is the wall clock but for the writes around it (a
    // share of the run, whatever the machine's speed), and never more.
    expect(run.workingMs).toBeLessThanOrEqual(wallMs + 1);
    expect(run.workingMs).toBeGreaterThanOrEqual(wallMs * 0.8);
  }, 60_000);
});
