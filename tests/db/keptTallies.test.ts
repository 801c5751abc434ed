// The kept tallies (RunMetricTally, RunRowVerdict, RunRowTally) are maintained by triggers as judgments are
// written. This recounts them from the judgments after what happens to runs in real use, done at random:
// runs judged through a faulty LLM endpoint (429s, 500s, garbage), runs interrupted and resumed, claims of
// a worker that died taken back, re-judges of errored and failed work, and deleted runs. They must be equal,
// on both stores (the PostgreSQL project runs this file too), before and after PostgreSQL's deltas are folded
// into their totals (at random here, and by every judging process's heartbeat meanwhile).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { sqlOf } from "@/lib/db/client";
import { foldKeptTallies } from "@/lib/db/judgments/keptTallyFold";
import { deleteRun } from "@/lib/db/runs/runLifecycle";
import { resetJudgmentsForRejudge } from "@/lib/db/runs/rejudgeWork";
import { claimJudgments, releaseClaims } from "@/lib/db/work/claims";
import { saveJudgment } from "@/lib/db/work/judgmentResults";
import { createRun } from "@/lib/engine/createRun";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import { BUILT_IN_METRICS, metricsOfFamily } from "@/lib/metrics/metricNames";
import { mulberry32 } from "@/lib/stats";
import type { EvalObject } from "../support/evalFiles";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeLlmConfig, importRows, readRun } from "../support/engineKit";
import { syntheticRow } from "../support/syntheticRows";
import { expectTalliesExact, keptByMetric } from "../support/keptTallies";
import { createTempDb } from "../support/tempDb";

const ROWS = 24;
const METRICS = [...BUILT_IN_METRICS, ...metricsOfFamily("statistical")];

/** Rows whose content makes the fake judge answer no, garbage, or a mixed verdict per chunk, at random. */
function markedRows(random: () => number): EvalObject[] {
  return Array.from({ length: ROWS }, (_, i) => {
    const row = syntheticRow(i, 3);
    const marker = random();
    const response = String(row.response);
    row.response =
      marker < 0.25 ? `${response} NO:all` : marker < 0.35 ? `${response} GARBAGE:all` : response.repeat(1 + (i % 3));
    row.retrieved_context = (row.retrieved_context as { content: string; doc_uri: string }[]).map((chunk) => ({
      ...chunk,
      content: random() < 0.3 ? `${chunk.content} IRRELEVANT` : chunk.content,
    }));
    return row;
  });
}

describe("the kept tallies", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer;
  let datasetId: string;
  const random = mulberry32(20261125);

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    server = await startFakeOpenAIServer({
      responder: fakeJudgeResponder,
      behaviour: {
        seed: 11,
        latencyMs: 1,
        retryAfterSeconds: null,
        retryAfterMs: 5,
        faultRate: { status429: 0.05, status500: 0.05, invalidJson: 0.05 },
      },
    });
    datasetId = await importRows(db, markedRows(random));
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  async function judge(runId: string, stopAfterRequests?: number) {
    const run = await readRun(db, runId);
    const seen = server.stats.totalRequests;
    const deps = createEngineDeps(db, run, {
      llmConfig: fakeLlmConfig(server.url, { ASSAY_LLM_MAX_ATTEMPTS: "2" }),
    });
    if (stopAfterRequests !== undefined)
      deps.stopRequested = () => server.stats.totalRequests - seen >= stopAfterRequests;
    return runEvaluation(run, deps);
  }

  /** Exact as written, and exact again after a fold of the deltas (half the time). */
  async function exactThroughFold(runId: string) {
    await expectTalliesExact(db, runId);
    if (random() < 0.5) return;
    await foldKeptTallies(db);
    await expectTalliesExact(db, runId);
  }

  it("equal a recount of the judgments after random runs, interruptions, dead workers' claims, re-judges and deletes", async () => {
    const runIds: string[] = [];
    for (let round = 0; round < 3; round++) {
      const metrics = METRICS.filter(() => random() < 0.7);
      const runId = await createRun(db, {
        datasetId,
        metrics: metrics.length > 0 ? metrics : METRICS,
        judge: { provider: "openai", model: "judge-model" },
        concurrency: 4,
      });
      runIds.push(runId);
      // Planned: every item pending or skipped.
      await exactThroughFold(runId);

      // Interrupted part-way, then a worker claims some of what is left and dies holding it.
      const interrupted = await judge(runId, 5 + Math.floor(random() * 20));
      expect(interrupted.status).not.toBe("failed");
      await exactThroughFold(runId);
      const dead = `dead-worker-${round}`;
      const { items } = await claimJudgments(db, runId, dead, 1 + Math.floor(random() * 6));
      // It wrote one result before it died; the rest stays claimed (running).
      if (items.length > 0)
        await saveJudgment(
          db,
          { ...items[0], runId },
          {
            rating: random() < 0.5 ? "yes" : "no",
            score: null,
            rationale: "written by a worker that then died",
            errorMessage: null,
            details: null,
            provider: "openai",
            model: "judge-model",
            promptVersion: "v1",
            promptHash: "hash",
            cacheHit: false,
            attempts: 1,
            latencyMs: 3,
            usage: { inputTokens: 11, outputTokens: 4 },
            threshold: null,
            passed: random() < 0.5,
            costUsd: 0.0001,
          },
          { workerId: dead },
        );
      await exactThroughFold(runId);
      // Its claims are taken back, and the run is resumed to the end.
      await releaseClaims(db, runId, dead);
      await exactThroughFold(runId);
      expect((await judge(runId)).status).toBe("completed");
      await exactThroughFold(runId);

      // A re-judge of what errored (and sometimes of what failed), judged again.
      const which = random() < 0.5 ? "errored" : "errored_or_failed";
      await foldKeptTallies(db);
      const reset = await resetJudgmentsForRejudge(db, runId, which, { secondOpinion: random() < 0.5 });
      // However many judgments it reset, its tallies took a few grouped writes, not one per judgment.
      const deltas = await sqlOf(db).get<{ n: number }>(
        `SELECT COUNT(*) AS "n" FROM "RunMetricTally" WHERE "runId" = ? AND "shard" >= 8`,
        [runId],
      );
      expect(Number(deltas?.n)).toBeLessThanOrEqual(metrics.length > 0 ? metrics.length : METRICS.length);
      await exactThroughFold(runId);
      if (reset > 0) expect((await judge(runId)).status).toBe("completed");
      await exactThroughFold(runId);
    }
    // The runs' tallies really counted something of every kind.
    const all = (await Promise.all(runIds.map((id) => keptByMetric(db, id)))).flatMap((m) => Object.values(m));
    for (const column of ["done", "error", "skipped", "yes", "no", "scored", "passed", "failed", "metered"])
      expect(
        all.reduce((sum, counts) => sum + counts[column], 0),
        column,
      ).toBeGreaterThan(0);

    // A deleted run takes its tallies with it and leaves the others' exact.
    await deleteRun(db, runIds[1]);
    const left = await sqlOf(db).all<{ n: number }>(
      `SELECT COUNT(*) AS "n" FROM "RunMetricTally" WHERE "runId" = ?
       UNION ALL SELECT COUNT(*) FROM "RunRowVerdict" WHERE "runId" = ?
       UNION ALL SELECT COUNT(*) FROM "RunRowTally" WHERE "runId" = ?`,
      [runIds[1], runIds[1], runIds[1]],
    );
    expect(left.map((row) => Number(row.n))).toEqual([0, 0, 0]);
    for (const runId of [runIds[0], runIds[2]]) await expectTalliesExact(db, runId);

    // Folded, the deltas are gone and the totals still exact: a reader sums a few rows per run again.
    await foldKeptTallies(db);
    const deltas = await sqlOf(db).get<{ n: number }>(
      `SELECT (SELECT COUNT(*) FROM "RunMetricTally" WHERE "shard" >= 8) + (SELECT COUNT(*) FROM "RunRowTally" WHERE "shard" >= 8) AS "n"`,
    );
    expect(Number(deltas?.n)).toBe(0);
    for (const runId of [runIds[0], runIds[2]]) await expectTalliesExact(db, runId);
  }, 180_000);
});
