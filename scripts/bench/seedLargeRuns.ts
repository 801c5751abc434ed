import { orderedUuid } from "../../lib/db/orderedUuid";
import { closeDb, createDb, gatherPlannerStatistics, sqlOf } from "../../lib/db/client";
import { datasetRowPages } from "../../lib/db/datasets/datasetQueries";
import { createDatasetSink } from "../../lib/db/datasets/datasetWrites";
import { ingestUpload } from "../../lib/ingest/ingestUpload";
import type { SqlValue } from "../../lib/db/store/sqlRunner";
import { mulberry32 } from "../../lib/stats";
import { insertCompletedRun } from "../../tests/support/completedRun";
import { syntheticJsonl } from "../../tests/support/syntheticRows";

const METRICS = [
  "response/llm_judged/correctness",
  "response/llm_judged/relevance_to_query",
  "response/llm_judged/groundedness",
  "response/llm_judged/safety",
  "retrieval/llm_judged/chunk_relevance",
  "retrieval/llm_judged/context_sufficiency",
  "retrieval/ground_truth/document_recall",
];

/**
 * Seeds a store for the UI benchmark: one dataset of `rows` rows with
 * `chunks` chunks each, and two finished runs over it with a judgment per
 * (row, metric) and a verdict per chunk, written straight to the tables through
 * the store's bulk insert, on SQLite or PostgreSQL (the benchmark measures
 * reading, not judging). Verdicts are seeded-random with
 * a yes-rate per run so the runs differ like two model versions would.
 */
export async function seedLargeRuns(
  databaseUrl: string,
  rows: number,
  chunks: number,
  options: { trials?: number } = {},
): Promise<{ datasetId: string; runIds: string[] }> {
  const trials = options.trials ?? 1;
  const db = createDb(databaseUrl);
  const imported = await ingestUpload({
    chunks: syntheticJsonl(rows, chunks),
    filename: "ui-bench.jsonl",
    mode: "strict",
    sink: createDatasetSink(db),
    limits: {
      maxFileBytes: 2 ** 36,
      maxRowBytes: 1 << 23,
      maxCellBytes: 1 << 21,
      maxReportedErrors: 100,
      batchSize: 1000,
    },
  });
  if (!imported.ok) throw new Error("seed dataset did not import");
  const runIds: string[] = [];
  for (const [index, yesRate] of [0.72, 0.78].entries()) {
    const runId = orderedUuid();
    runIds.push(runId);
    const random = mulberry32(index + 1);
    const now = new Date();
    const config = JSON.stringify({
      metrics: METRICS,
      chunkMode: "batched",
      thresholds: {},
      ...(trials > 1 ? { trials } : {}),
    });
    await insertCompletedRun(db, {
      id: runId,
      datasetId: imported.datasetId,
      name: `UI bench run ${index + 1}`,
      judgeModel: `bench-model-${index + 1}`,
      config,
      at: now,
    });
    for await (const rows of datasetRowPages(db, imported.datasetId, 1000)) {
      const items: SqlValue[][] = [];
      const chunkRows: SqlValue[][] = [];
      for (const { id: rowId, rowNumber } of rows) {
        // With trials, each (row, metric) is judged `trials` times: a noisy judge (each trial drawn anew at the
        // run's yes-rate) makes some rows' trials disagree, as the flaky filter and the trials panel read them.
        for (const [metric, trial] of METRICS.flatMap((m) =>
          Array.from({ length: trials }, (_, t) => [m, t + 1] as const),
        )) {
          const id = orderedUuid();
          if (metric.endsWith("chunk_relevance") || metric.endsWith("document_recall")) {
            const ratings = Array.from({ length: chunks }, () => (random() < yesRate ? "yes" : "no"));
            const score = metric.endsWith("document_recall")
              ? random() < yesRate
                ? 1
                : 0
              : ratings.filter((r) => r === "yes").length / chunks;
            items.push([
              id,
              runId,
              rowId,
              rowNumber,
              metric,
              trial,
              "done",
              null,
              score,
              0.5,
              score >= 0.5,
              "bench rationale",
              null,
              "openai",
              "bench",
              "v1",
              "hash",
              false,
              1,
              100,
              20,
              now,
              now,
            ]);
            if (metric.endsWith("chunk_relevance"))
              ratings.forEach((rating, position) =>
                chunkRows.push([
                  orderedUuid(),
                  id,
                  runId,
                  rowId,
                  metric,
                  position,
                  rating,
                  "bench chunk rationale",
                  null,
                ]),
              );
          } else {
            const draw = random();
            const status = draw < 0.01 ? "error" : "done";
            const rating = status === "error" ? null : draw < yesRate ? "yes" : "no";
            items.push([
              id,
              runId,
              rowId,
              rowNumber,
              metric,
              trial,
              status,
              rating,
              null,
              null,
              rating === null ? null : rating === "yes",
              rating ? "bench rationale" : null,
              status === "error" ? "judge call failed after 5 attempts: 429" : null,
              "openai",
              "bench",
              "v1",
              "hash",
              false,
              1,
              100,
              20,
              now,
              now,
            ]);
          }
        }
      }
      await sqlOf(db).bulkInsert([
        {
          table: "JudgmentItem",
          columns: [
            "id",
            "runId",
            "rowId",
            "rowNumber",
            "metric",
            "trial",
            "status",
            "rating",
            "score",
            "threshold",
            "passed",
            "rationale",
            "errorMessage",
            "judgeProvider",
            "judgeModel",
            "promptVersion",
            "promptHash",
            "cacheHit",
            "attempts",
            "inputTokens",
            "outputTokens",
            "createdAt",
            "finishedAt",
          ],
          rows: items,
        },
        {
          table: "ChunkJudgment",
          columns: ["id", "judgmentId", "runId", "rowId", "metric", "position", "rating", "rationale", "errorMessage"],
          rows: chunkRows,
        },
      ]);
    }
  }
  await gatherPlannerStatistics(db);
  await closeDb(db);
  return { datasetId: imported.datasetId, runIds };
}
