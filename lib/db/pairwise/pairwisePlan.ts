import type { ShownOrder } from "@/lib/contract/pairwise";
import { sqlOf, type Db } from "../client";
import { partnerRowOn } from "../judgments/rowPairing";

/** A baseline row and its partner in the candidate run: itself on one dataset, its request's row across two. */
export type PairedRow = { baselineRowId: string; candidateRowId: string; rowNumber: number };

/**
 * The next `take` paired rows after `afterRowNumber`, in the baseline's row order: every row of the baseline's
 * dataset on one dataset; across two, the rows whose request_id and request the candidate's dataset has too
 * (rowPairing.ts, as compare pairs them).
 */
export async function listPairedRows(
  db: Db,
  baselineRunId: string,
  candidateRunId: string,
  afterRowNumber: number,
  take: number,
): Promise<PairedRow[]> {
  const sql = sqlOf(db);
  const datasets = await sql.all<{ id: string; datasetId: string }>(
    `SELECT "id", "datasetId" FROM "Run" WHERE "id" IN (?, ?)`,
    [baselineRunId, candidateRunId],
  );
  const baselineDataset = datasets.find((run) => run.id === baselineRunId)?.datasetId;
  const candidateDataset = datasets.find((run) => run.id === candidateRunId)?.datasetId;
  if (!baselineDataset || !candidateDataset) return [];
  const rows =
    baselineDataset === candidateDataset
      ? await sql.all<PairedRow>(
          `SELECT ra."id" AS "baselineRowId", ra."id" AS "candidateRowId", ra."rowNumber" AS "rowNumber"
           FROM "DatasetRow" ra WHERE ra."datasetId" = ? AND ra."rowNumber" > ? ORDER BY ra."rowNumber" LIMIT ?`,
          [baselineDataset, afterRowNumber, take],
        )
      : await sql.all<PairedRow>(
          `SELECT ra."id" AS "baselineRowId", rb."id" AS "candidateRowId", ra."rowNumber" AS "rowNumber"
           FROM "DatasetRow" ra JOIN "DatasetRow" rb ON ${partnerRowOn("ra")}
           WHERE ra."datasetId" = ? AND ra."rowNumber" > ? ORDER BY ra."rowNumber" LIMIT ?`,
          [candidateRunId, baselineDataset, afterRowNumber, take],
        );
  return rows.map((row) => ({ ...row, rowNumber: Number(row.rowNumber) }));
}

export type PlannedVerdict = PairedRow & { criterion: string; shownOrder: ShownOrder };

/** Writes one page of a plan's verdicts, pending, in one statement. */
export async function insertPlannedVerdicts(db: Db, comparisonId: string, planned: PlannedVerdict[]): Promise<void> {
  if (planned.length === 0) return;
  await sqlOf(db).bulkInsert([
    {
      table: "PairwiseVerdict",
      columns: ["comparisonId", "criterion", "baselineRowId", "candidateRowId", "rowNumber", "shownOrder", "status"],
      rows: planned.map((v) => [
        comparisonId,
        v.criterion,
        v.baselineRowId,
        v.candidateRowId,
        v.rowNumber,
        v.shownOrder,
        "pending",
      ]),
    },
  ]);
}
