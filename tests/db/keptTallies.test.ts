// The kept tallies (RunMetricTally, RunRowVerdict, RunRowTally) are maintained by triggers as judgments are
// written. This recounts them from the judgments after what happens to runs in real use, done at random:
// runs judged through a faulty LLM endpoint (429s, 500s, garbage), runs interrupted and resumed, claims of
// a worker that died taken back, re-judges of errored and failed work, and deleted runs. They must be equal,
// on both stores (the PostgreSQL project runs this file too).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { sqlOf } from "@/lib/db/client";
import { sqlFragments } from "@/lib/db/store/sqlFragments";
import { deleteRun, resetJudgmentsForRejudge } from "@/lib/db/runs/runLifecycle";
import { claimJudgments, releaseClaims } from "@/lib/db/work/claims";
import { saveJudgment } from "@/lib/db/work/runWrites";
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

type Counts = Record<string, number>;

/** Per metric, the tallies summed over their shards. */
async function keptByMetric(db: Db, runId: string): Promise<Record<string, Counts>> {
  const rows = await sqlOf(db).all<Record<string, number | string>>(
    `SELECT "metric", ${TALLY_COLUMNS.map((c) => `SUM("${c}") AS "${c}"`).join(", ")}
     FROM "RunMetricTally" WHERE "runId" = ? GROUP BY "metric" HAVING SUM("items") > 0`,
    [runId],
  );
  return Object.fromEntries(rows.map((row) => [String(row.metric), numbers(row, TALLY_COLUMNS)]));
}

const TALLY_COLUMNS = [
  "items",
  "pending",
  "running",
  "done",
  "error",
  "skipped",
  "yes",
  "no",
  "scored",
  "scoreSum",
  "passed",
  "failed",
  "metered",
  "cacheHits",
  "inputTokens",
  "outputTokens",
  "costUsd",
  "priced",
  ...Array.from({ length: 10 }, (_, i) => `bin${i}`),
  "overOne",
];

/** The same, counted from the judgments as the pages counted them before anything was kept. */
async function recountedByMetric(db: Db, runId: string): Promise<Record<string, Counts>> {
  const scoredDone = `"status" = 'done' AND "score" IS NOT NULL`;
  // Truncated as the score histogram truncates (PostgreSQL's CAST to integer rounds).
  const { truncToInt } = sqlFragments(sqlOf(db));
  const bin = `CASE WHEN "score" * 10 + 1e-9 >= 9 THEN 9 WHEN "score" < 0 THEN 0 ELSE ${truncToInt(`"score" * 10 + 1e-9`)} END`;
  const rows = await sqlOf(db).all<Record<string, number | string>>(
    `SELECT "metric", COUNT(*) AS "items",
       SUM(CASE WHEN "status" = 'pending' THEN 1 ELSE 0 END) AS "pending",
       SUM(CASE WHEN "status" = 'running' THEN 1 ELSE 0 END) AS "running",
       SUM(CASE WHEN "status" = 'done' THEN 1 ELSE 0 END) AS "done",
       SUM(CASE WHEN "status" = 'error' THEN 1 ELSE 0 END) AS "error",
       SUM(CASE WHEN "status" = 'skipped' THEN 1 ELSE 0 END) AS "skipped",
       SUM(CASE WHEN "status" = 'done' AND "rating" = 'yes' THEN 1 ELSE 0 END) AS "yes",
       SUM(CASE WHEN "status" = 'done' AND "rating" = 'no' THEN 1 ELSE 0 END) AS "no",
       SUM(CASE WHEN ${scoredDone} AND "rating" IS NULL THEN 1 ELSE 0 END) AS "scored",
       COALESCE(SUM(CASE WHEN ${scoredDone} AND "rating" IS NULL THEN "score" END), 0) AS "scoreSum",
       SUM(CASE WHEN "status" = 'done' AND "passed" = TRUE THEN 1 ELSE 0 END) AS "passed",
       SUM(CASE WHEN "status" = 'done' AND "passed" = FALSE THEN 1 ELSE 0 END) AS "failed",
       SUM(CASE WHEN "inputTokens" IS NOT NULL OR "outputTokens" IS NOT NULL THEN 1 ELSE 0 END) AS "metered",
       SUM(CASE WHEN "cacheHit" = TRUE THEN 1 ELSE 0 END) AS "cacheHits",
       COALESCE(SUM("inputTokens"), 0) AS "inputTokens",
       COALESCE(SUM("outputTokens"), 0) AS "outputTokens",
       COALESCE(SUM("costUsd"), 0) AS "costUsd",
       COUNT("costUsd") AS "priced",
       ${Array.from({ length: 10 }, (_, i) => `SUM(CASE WHEN ${scoredDone} AND "score" <= 1 AND ${bin} = ${i} THEN 1 ELSE 0 END) AS "bin${i}"`).join(",\n       ")},
       SUM(CASE WHEN ${scoredDone} AND "score" > 1 THEN 1 ELSE 0 END) AS "overOne"
     FROM "JudgmentItem" WHERE "runId" = ? GROUP BY "metric"`,
    [runId],
  );
  return Object.fromEntries(rows.map((row) => [String(row.metric), numbers(row, TALLY_COLUMNS)]));
}

const ROW_COLUMNS = ["rowNumber", "failed", "errored", "done", "anyFailed", "anyErrored", "allPassed"];

async function keptByRow(db: Db, runId: string): Promise<Record<string, Counts>> {
  const rows = await sqlOf(db).all<Record<string, number | string>>(
    `SELECT "rowId", ${ROW_COLUMNS.map((c) => `"${c}"`).join(", ")} FROM "RunRowVerdict" WHERE "runId" = ?`,
    [runId],
  );
  return Object.fromEntries(rows.map((row) => [String(row.rowId), numbers(row, ROW_COLUMNS)]));
}

async function recountedByRow(db: Db, runId: string): Promise<Record<string, Counts>> {
  const rows = await sqlOf(db).all<Record<string, number | string>>(
    `SELECT j."rowId", MAX(r."rowNumber") AS "rowNumber",
       SUM(CASE WHEN j."status" = 'done' AND j."passed" = FALSE THEN 1 ELSE 0 END) AS "failed",
       SUM(CASE WHEN j."status" = 'error' THEN 1 ELSE 0 END) AS "errored",
       SUM(CASE WHEN j."status" = 'done' THEN 1 ELSE 0 END) AS "done"
     FROM "JudgmentItem" j JOIN "DatasetRow" r ON r."id" = j."rowId" WHERE j."runId" = ? GROUP BY j."rowId"`,
    [runId],
  );
  return Object.fromEntries(
    rows.map((row) => {
      const counts = numbers(row, ["rowNumber", "failed", "errored", "done"]);
      return [
        String(row.rowId),
        {
          ...counts,
          anyFailed: counts.failed > 0 ? 1 : 0,
          anyErrored: counts.errored > 0 ? 1 : 0,
          allPassed: counts.done > 0 && counts.failed === 0 && counts.errored === 0 ? 1 : 0,
        },
      ];
    }),
  );
}

async function keptRowTally(db: Db, runId: string): Promise<Counts> {
  const row = await sqlOf(db).get<Record<string, number>>(
    `SELECT SUM("rows") AS "rows", SUM("failedRows") AS "failedRows", SUM("erroredRows") AS "erroredRows",
       SUM("passedRows") AS "passedRows" FROM "RunRowTally" WHERE "runId" = ?`,
    [runId],
  );
  return numbers(row ?? {}, ["rows", "failedRows", "erroredRows", "passedRows"]);
}

function numbers(row: Record<string, unknown>, columns: string[]): Counts {
  // Sums of floats are compared to the cent of a cent: the stores add them in different orders.
  return Object.fromEntries(columns.map((c) => [c, Math.round(Number(row[c] ?? 0) * 1e6) / 1e6]));
}

async function expectTalliesExact(db: Db, runId: string): Promise<void> {
  expect(await keptByMetric(db, runId)).toEqual(await recountedByMetric(db, runId));
  const byRow = await recountedByRow(db, runId);
  expect(await keptByRow(db, runId)).toEqual(byRow);
  const rows = Object.values(byRow);
  expect(await keptRowTally(db, runId)).toEqual({
    rows: rows.length,
    failedRows: rows.filter((row) => row.anyFailed === 1).length,
    erroredRows: rows.filter((row) => row.anyErrored === 1).length,
    passedRows: rows.filter((row) => row.allPassed === 1).length,
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
      await expectTalliesExact(db, runId);

      // Interrupted part-way, then a worker claims some of what is left and dies holding it.
      const interrupted = await judge(runId, 5 + Math.floor(random() * 20));
      expect(interrupted.status).not.toBe("failed");
      await expectTalliesExact(db, runId);
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
      await expectTalliesExact(db, runId);
      // Its claims are taken back, and the run is resumed to the end.
      await releaseClaims(db, runId, dead);
      await expectTalliesExact(db, runId);
      expect((await judge(runId)).status).toBe("completed");
      await expectTalliesExact(db, runId);

      // A re-judge of what errored (and sometimes of what failed), judged again.
      const which = random() < 0.5 ? "errored" : "errored_or_failed";
      const reset = await resetJudgmentsForRejudge(db, runId, which, { secondOpinion: random() < 0.5 });
      await expectTalliesExact(db, runId);
      if (reset > 0) expect((await judge(runId)).status).toBe("completed");
      await expectTalliesExact(db, runId);
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
  }, 180_000);
});
