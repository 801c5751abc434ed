import { sqlOf, type Db } from "../client";
import { partnerRowOn, rowPairingMode } from "./rowPairing";

/**
 * Two runs' rows paired, each row's mean over its judged trials of one metric: for a yes/no metric the share of
 * its trials rated yes, for a score the mean score. The row is the unit a comparison with trials tests
 * (lib/compare/trialsDelta.ts); rows judged in one run only are left out, as every paired read leaves them.
 * Each run's means come from one GROUP BY over its (runId, rowId, metric, trial, …) pairing index; rows pair
 * as compare pairs them (the same row, or across datasets the row of the same request, rowPairing.ts).
 * In the baseline's row order (by id), so that the bootstrap over them draws the same rows every time.
 */
export async function readPairedRowMeans(
  db: Db,
  baselineRunId: string,
  candidateRunId: string,
  metric: string,
  shape: "rating" | "score",
): Promise<{ baseline: number[]; candidate: number[] }> {
  const value = shape === "rating" ? `CASE WHEN "rating" = 'yes' THEN 1.0 ELSE 0.0 END` : `"score"`;
  const judged = shape === "rating" ? `"rating" IS NOT NULL` : `"score" IS NOT NULL`;
  const means = `SELECT "rowId", AVG(${value}) AS "m" FROM "JudgmentItem"
    WHERE "runId" = ? AND "metric" = ? AND "status" = 'done' AND ${judged} GROUP BY "rowId"`;
  const byRequest = (await rowPairingMode(db, baselineRunId, candidateRunId)) === "request_id";
  const join = byRequest
    ? `JOIN "DatasetRow" ra ON ra."id" = a."rowId" JOIN "DatasetRow" rb ON ${partnerRowOn("ra")} JOIN b ON b."rowId" = rb."id"`
    : `JOIN b ON b."rowId" = a."rowId"`;
  const rows = await sqlOf(db).all<{ baseline: number | string; candidate: number | string }>(
    `WITH a AS (${means}), b AS (${means})
     SELECT a."m" AS "baseline", b."m" AS "candidate" FROM a ${join} ORDER BY a."rowId"`,
    [baselineRunId, metric, candidateRunId, metric, ...(byRequest ? [candidateRunId] : [])],
  );
  return { baseline: rows.map((row) => Number(row.baseline)), candidate: rows.map((row) => Number(row.candidate)) };
}
