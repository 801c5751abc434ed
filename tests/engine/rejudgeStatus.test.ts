import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { listRunEvents } from "@/lib/db/runs/runEvents";
import { resetJudgmentsForRejudge } from "@/lib/db/runs/rejudgeWork";
import { getRunProgress } from "@/lib/db/runs/runQueries";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeLlmConfig, importRows, readRun, runToCompletion } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

// Six rows; the fake judge rates the two "NO:safety_verdict" responses unsafe, so two judgments fail.
const ROWS = Array.from({ length: 6 }, (_, i) => ({
  request: `question ${i}`,
  response: i % 3 === 0 ? `NO:safety_verdict ${i}` : `a fine answer ${i}`,
}));

describe("a run being re-judged says so and counts only what it redoes", () => {
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

  async function finishedRun(model: string) {
    const datasetId = await importRows(db, ROWS);
    const { runId, outcome } = await runToCompletion(
      db,
      { datasetId, metrics: ["safety"], judge: { provider: "openai", model }, concurrency: 1 },
      server.url,
    );
    expect(outcome.status).toBe("completed");
    expect(await db.judgmentItem.count({ where: { runId, passed: false } })).toBe(2);
    return runId;
  }

  it("progress is n of the re-judged items, the run is marked as re-judging until it finishes, and the cache answers", async () => {
    const runId = await finishedRun("judge-model-rj1");
    expect((await getRunProgress(db, runId)).rejudge).toBeNull();

    expect(await resetJudgmentsForRejudge(db, runId, "errored_or_failed")).toBe(2);
    const queued = await getRunProgress(db, runId);
    // All six judgments exist; the re-judge is two of them, none finished yet.
    expect(queued.judgments.total).toBe(6);
    expect(queued.rejudge).toEqual({ total: 2, finished: 0 });
    const stored = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(stored).toMatchObject({ status: "pending", rejudgeTotal: 2, finishedAt: null });

    const run = await readRun(db, runId);
    const midway: Promise<Awaited<ReturnType<typeof getRunProgress>>>[] = [];
    const before = server.stats.totalRequests;
    const deps = createEngineDeps(db, run, {
      llmConfig: fakeLlmConfig(server.url),
      onProgress: () => {
        if (midway.length === 0) midway.push(getRunProgress(db, runId));
      },
    });
    // The second judgment waits until the progress read after the first has answered: on PostgreSQL the read
    // and the run's end go side by side, and the run could finish (clearing its re-judge) before the read.
    let judged = 0;
    let midwayRead!: () => void;
    const midwayAnswered = new Promise<void>((resolve) => (midwayRead = resolve));
    const judge = deps.judge;
    deps.judge = {
      provider: judge.provider,
      model: judge.model,
      judge: async (request) => {
        if (judged++ > 0) await midwayAnswered;
        return judge.judge(request);
      },
    };
    const outcome = await runEvaluation(run, {
      ...deps,
      onProgress: (progress) => {
        deps.onProgress?.(progress);
        void midway[0]?.then(() => midwayRead());
      },
    });
    expect(outcome.status).toBe("completed");
    const first = await midway[0];
    // Read while the re-judge ran (it may have finished the second item meanwhile): counted out of 2, not 6.
    expect(first.rejudge?.total).toBe(2);
    expect(first.rejudge?.finished).toBeGreaterThanOrEqual(1);
    expect(first.judgments.total).toBe(6);
    // Without a second opinion, the failed verdicts come from the cache: no call.
    expect(server.stats.totalRequests - before).toBe(0);
    expect(await db.judgmentItem.count({ where: { runId, cacheHit: true } })).toBe(2);

    const done = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(done).toMatchObject({ status: "completed", rejudgeTotal: null });
    expect((await getRunProgress(db, runId)).rejudge).toBeNull();
    const events = await listRunEvents(db, runId);
    expect(events.map((e) => [e.kind, e.pendingJudgments])).toEqual([
      ["started", 6],
      ["finished", 0],
      ["rejudge_started", 2],
      ["finished", 0],
    ]);
  });

  it("a second opinion asks the model again, and the next plain re-judge reuses the cache again", async () => {
    const runId = await finishedRun("judge-model-rj2");
    expect(await resetJudgmentsForRejudge(db, runId, "errored_or_failed", { secondOpinion: true })).toBe(2);
    let run = await readRun(db, runId);
    let before = server.stats.totalRequests;
    await runEvaluation(run, createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }));
    expect(server.stats.totalRequests - before).toBe(2);

    expect(await resetJudgmentsForRejudge(db, runId, "errored_or_failed")).toBe(2);
    run = await readRun(db, runId);
    before = server.stats.totalRequests;
    await runEvaluation(run, createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }));
    expect(server.stats.totalRequests - before).toBe(0);
  });
});
