import { sqlOf, type Db } from "../client";

/**
 * A row is flaky in a run with trials when the judged trials of some metric did not all agree (one passed,
 * another failed). Read from the pairing index (runId, rowId, metric, trial, status, …, passed): one range of
 * it per row. `metricCondition` narrows it to one metric (`j."metric" = @metric`) or not ("1 = 1").
 */
export function flakyRowSql(rowId: string, metricCondition: string): string {
  return `EXISTS (SELECT 1 FROM "JudgmentItem" j WHERE j."runId" = @runId AND j."rowId" = ${rowId} AND ${metricCondition}
    AND j."status" = 'done' AND j."passed" IS NOT NULL
    GROUP BY j."metric" HAVING MIN(CASE WHEN j."passed" THEN 1 ELSE 0 END) < MAX(CASE WHEN j."passed" THEN 1 ELSE 0 END))`;
}

/** How many of a run's rows are flaky (their trials disagree on some metric); 0 for a run without trials. */
export async function countFlakyRows(db: Db, run: { id: string; datasetId: string }): Promise<number> {
  const found = await sqlOf(db).get<{ n: number | string }>(
    `SELECT COUNT(*) AS "n" FROM "DatasetRow" r WHERE r."datasetId" = @datasetId AND ${flakyRowSql(`r."id"`, "1 = 1")}`,
    { runId: run.id, datasetId: run.datasetId },
  );
  return Number(found?.n ?? 0);
}
