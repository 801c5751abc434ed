import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createRun } from "@/lib/engine/createRun";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import { BUILT_IN_METRICS } from "@/lib/engine/runConfig";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeLlmConfig, importRows, readRun } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";

const ROWS = 200;
const CHUNKS = 4;
const CONCURRENCY = 16;

describe("a 200-row run with 20% injected 429s, 500s and timeouts", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer;
  let runId: string;
  let limiterMax = 0;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    server = await startFakeOpenAIServer({
      responder: fakeJudgeResponder,
      behaviour: {
        seed: 7,
        latencyMs: 5,
        retryAfterSeconds: null,
        retryAfterMs: 30,
        faultRate: { status429: 0.08, status500: 0.06, timeout: 0.06 },
      },
    });
    const datasetId = await importRows(db, syntheticRows(ROWS, CHUNKS));
    runId = await createRun(db, {
      datasetId,
      metrics: BUILT_IN_METRICS,
      judge: { provider: "openai", model: "judge-model" },
      concurrency: CONCURRENCY,
    });
    const run = await readRun(db, runId);
    const deps = createEngineDeps(db, run, {
      llmConfig: fakeLlmConfig(server.url, { ASSAY_LLM_TIMEOUT_MS: "400", ASSAY_LLM_MAX_ATTEMPTS: "4" }),
    });
    const outcome = await runEvaluation(run, deps);
    expect(outcome.status).toBe("completed");
    limiterMax = deps.limiter!.maxObserved;
  }, 120_000);
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it("injected faults really happened", () => {
    const { outcomes } = server.stats;
    expect(outcomes["429"] + outcomes["500"] + outcomes.timeout).toBeGreaterThan(0.15 * server.stats.totalRequests);
  });

  it("ends every judgment as done or as an explicit error: 0 lost", async () => {
    const byStatus = await db.judgmentItem.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } });
    const counts = Object.fromEntries(byStatus.map((g) => [g.status, g._count._all]));
    expect(counts.pending ?? 0).toBe(0);
    expect(counts.running ?? 0).toBe(0);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    expect(total).toBe(ROWS * BUILT_IN_METRICS.length);
    const errors = await db.judgmentItem.findMany({
      where: { runId, status: "error" },
      select: { errorMessage: true, attempts: true },
    });
    for (const error of errors) {
      expect(error.errorMessage).toMatch(/after 4 attempts/);
      expect(error.attempts).toBe(4);
    }
  });

  it("writes no judgment twice: 0 duplicated", async () => {
    // Every HTTP request the server saw is accounted to exactly one stored judgment's attempts.
    const attempts = await db.judgmentItem.aggregate({ where: { runId }, _sum: { attempts: true } });
    const llmDone = await db.judgmentItem.count({ where: { runId, status: "done", judgeProvider: "openai" } });
    expect(attempts._sum.attempts).toBe(server.stats.totalRequests);
    // A success the client still saw in time maps to one done judgment; a late one (after the client's timeout) is retried.
    expect(server.stats.outcomes.ok).toBeGreaterThanOrEqual(llmDone);
    const chunkRows = await db.chunkJudgment.count({ where: { runId } });
    // Errored chunk judgments keep one row per chunk too, carrying the error (Agent Evaluation's error_messages array).
    const chunkJudgments = await db.judgmentItem.count({
      where: { runId, metric: "retrieval/llm_judged/chunk_relevance", status: { in: ["done", "error"] } },
    });
    expect(chunkJudgments).toBe(ROWS);
    expect(chunkRows).toBe(ROWS * CHUNKS);
  });

  it("never exceeded the concurrency limit", () => {
    expect(limiterMax).toBe(CONCURRENCY);
    expect(server.stats.maxInFlightExcludingHung).toBeLessThanOrEqual(CONCURRENCY);
    // And the budget was really used, as the server saw it.
    expect(server.stats.maxInFlight).toBeGreaterThanOrEqual(CONCURRENCY - 2);
  });
});
