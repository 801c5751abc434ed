// Recounts of the kept tallies (RunMetricTally, RunRowVerdict, RunRowTally) from the judgments, as the pages
// counted them before anything was kept, and the check that the two agree.
import { expect } from "vitest";
import type { Db } from "@/lib/db/client";
import { sqlOf } from "@/lib/db/client";
import { sqlFragments } from "@/lib/db/store/sqlFragments";

type Counts = Record<string, number>;

/** Per metric, the tallies summed over their shards. */
export async function keptByMetric(db: Db, runId: string): Promise<Record<string, Counts>> {
  const rows = await sqlOf(db).all<Record<string, number | string>>(
    // A metric's score sum may keep a float residue of scores added and taken away; numbers() rounds it.
    `SELECT "metric", ${TALLY_COLUMNS.map((c) => `SUM("${c}")${c === "scoreSum" ? " + 0.0" : ""} AS "${c}"`).join(", ")}
     FROM "RunMetricTally" WHERE "runId" = ? GROUP BY "metric" HAVING SUM("items") > 0`,
    [runId],
  );
  return Object.fromEntries(rows.map((row) => [String(row.metric), unfinished(numbers(row, TALLY_COLUMNS))]));
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
  return Object.fromEntries(rows.map((row) => [String(row.metric), unfinished(numbers(row, TALLY_COLUMNS))]));
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

/**
 * Pending and running as one count of unfinished judgments: on PostgreSQL a claim writes no tally (a claimed
 * judgment stays counted as pending), and readers count the running ones live (lib/db/runs/runQueries).
 */
function unfinished({ pending, running, ...counts }: Counts): Counts {
  return { ...counts, unfinished: pending + running };
}

function numbers(row: Record<string, unknown>, columns: string[]): Counts {
  // Sums of floats are compared to the millionth: the stores add them in different orders, and a kept sum that
  // scores were added to and taken from keeps a residue (-1e-17, say) that rounds to -0, which toEqual tells from 0.
  return Object.fromEntries(columns.map((c) => [c, Math.round(Number(row[c] ?? 0) * 1e6) / 1e6 + 0]));
}

export async function expectTalliesExact(db: Db, runId: string): Promise<void> {
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
