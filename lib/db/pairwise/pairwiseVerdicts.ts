import type { PairWinner, ShownOrder } from "@/lib/contract/pairwise";
import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";

/** A verdict to judge: its key, and the pair it is about. */
export type PendingVerdict = {
  criterion: string;
  baselineRowId: string;
  candidateRowId: string;
  rowNumber: number;
  shownOrder: ShownOrder;
};

/** The next `take` pending verdicts after `after` (row number, criterion, order), in that order. */
export async function listPendingVerdicts(
  db: Db,
  comparisonId: string,
  after: { rowNumber: number; criterion: string; shownOrder: string } | null,
  take: number,
): Promise<PendingVerdict[]> {
  const from = after ?? { rowNumber: -1, criterion: "", shownOrder: "" };
  const rows = await sqlOf(db).all<PendingVerdict>(
    `SELECT "criterion", "baselineRowId", "candidateRowId", "rowNumber", "shownOrder" FROM "PairwiseVerdict"
     WHERE "comparisonId" = ? AND "status" = 'pending'
       AND ("rowNumber" > ? OR ("rowNumber" = ? AND ("criterion" > ? OR ("criterion" = ? AND "shownOrder" > ?))))
     ORDER BY "rowNumber", "criterion", "shownOrder" LIMIT ?`,
    [comparisonId, from.rowNumber, from.rowNumber, from.criterion, from.criterion, from.shownOrder, take],
  );
  return rows.map((row) => ({ ...row, rowNumber: Number(row.rowNumber) }));
}

/** What a judgment wrote: its winner mapped back to the runs, or why there is none. */
export type VerdictOutcome = {
  status: "done" | "error" | "skipped";
  winner: PairWinner | null;
  rationale: string | null;
  errorMessage: string | null;
  baselineLength: number | null;
  candidateLength: number | null;
  promptVersion: string | null;
  promptHash: string | null;
  cacheHit: boolean;
  attempts: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  /** Calls made (not answered from the cache), for the comparison's spending. */
  llmCalls: number;
};

/**
 * Writes one verdict and adds it to its comparison's progress and spending, in one transaction, and only while
 * `ownerId` still owns the comparison and the verdict is pending: a process whose comparison was taken over
 * writes nothing, and no verdict is written (or counted) twice.
 */
export async function savePairwiseVerdict(
  db: Db,
  comparisonId: string,
  ownerId: string,
  key: PendingVerdict,
  outcome: VerdictOutcome,
): Promise<boolean> {
  return sqlOf(db).transaction(
    async (tx) => {
      const now = sqlFragments(tx).storeTime();
      const changed = await tx.run(
        `UPDATE "PairwiseVerdict" SET "status" = ?, "winner" = ?, "rationale" = ?, "errorMessage" = ?,
           "baselineLength" = ?, "candidateLength" = ?, "promptVersion" = ?, "promptHash" = ?, "cacheHit" = ?,
           "attempts" = ?, "inputTokens" = ?, "outputTokens" = ?, "costUsd" = ?, "judgedAt" = ${now}
         WHERE "comparisonId" = ? AND "criterion" = ? AND "baselineRowId" = ? AND "shownOrder" = ? AND "status" = 'pending'
           AND EXISTS (SELECT 1 FROM "PairwiseComparison" c WHERE c."id" = ? AND c."ownerId" = ? AND c."status" = 'judging')`,
        [
          outcome.status,
          outcome.winner,
          outcome.rationale,
          outcome.errorMessage,
          outcome.baselineLength,
          outcome.candidateLength,
          outcome.promptVersion,
          outcome.promptHash,
          outcome.cacheHit,
          outcome.attempts,
          outcome.inputTokens,
          outcome.outputTokens,
          outcome.costUsd,
          comparisonId,
          key.criterion,
          key.baselineRowId,
          key.shownOrder,
          comparisonId,
          ownerId,
        ],
      );
      if (changed !== 1) return false;
      await tx.run(
        `UPDATE "PairwiseComparison" SET "progressDone" = "progressDone" + 1, "llmCalls" = "llmCalls" + ?,
           "inputTokens" = "inputTokens" + ?, "outputTokens" = "outputTokens" + ?${outcome.costUsd === null ? "" : `, "costUsd" = COALESCE("costUsd", 0) + ?`}
         WHERE "id" = ?`,
        [
          outcome.llmCalls,
          outcome.inputTokens,
          outcome.outputTokens,
          ...(outcome.costUsd === null ? [] : [outcome.costUsd]),
          comparisonId,
        ],
      );
      return true;
    },
    { readCommitted: true },
  );
}

/** Error verdicts back to pending, so judging the comparison again retries them (finished ones stay). */
export async function retryErroredVerdicts(db: Db, comparisonId: string): Promise<number> {
  return sqlOf(db).transaction(async (tx) => {
    const reset = await tx.run(
      `UPDATE "PairwiseVerdict" SET "status" = 'pending', "errorMessage" = NULL WHERE "comparisonId" = ? AND "status" = 'error'`,
      [comparisonId],
    );
    if (reset > 0)
      await tx.run(`UPDATE "PairwiseComparison" SET "progressDone" = "progressDone" - ? WHERE "id" = ?`, [
        reset,
        comparisonId,
      ]);
    return reset;
  });
}

/** One pair's verdicts (every criterion and order) for the side-by-side page. */
export type PairVerdictRow = {
  criterion: string;
  shownOrder: ShownOrder;
  status: string;
  winner: PairWinner | null;
  rationale: string | null;
  errorMessage: string | null;
  promptVersion: string | null;
};

export async function readPairVerdicts(db: Db, comparisonId: string, baselineRowId: string): Promise<PairVerdictRow[]> {
  return sqlOf(db).all<PairVerdictRow>(
    `SELECT "criterion", "shownOrder", "status", "winner", "rationale", "errorMessage", "promptVersion"
     FROM "PairwiseVerdict" WHERE "comparisonId" = ? AND "baselineRowId" = ? ORDER BY "criterion", "shownOrder"`,
    [comparisonId, baselineRowId],
  );
}

/** The done verdicts of one criterion on the given rows, by row and order (what people's verdicts are held to). */
export async function readDoneVerdictsOfRows(
  db: Db,
  comparisonId: string,
  criterion: string,
  baselineRowIds: readonly string[],
): Promise<{ baselineRowId: string; shownOrder: ShownOrder; winner: PairWinner }[]> {
  if (baselineRowIds.length === 0) return [];
  const sql = sqlOf(db);
  return sql.all(
    `SELECT "baselineRowId", "shownOrder", "winner" FROM "PairwiseVerdict"
     WHERE "comparisonId" = ? AND "criterion" = ? AND "status" = 'done' AND ${sqlFragments(sql).inList(`"baselineRowId"`)}`,
    [comparisonId, criterion, [...baselineRowIds]],
  );
}

/** Every verdict of a page of pairs (all criteria and orders), with the row's request id, in row order. */
export type ExportedVerdict = PairVerdictRow & { baselineRowId: string; rowNumber: number; requestId: string };

export async function listVerdictsAfterRow(
  db: Db,
  comparisonId: string,
  afterRowNumber: number,
  rows: number,
): Promise<ExportedVerdict[]> {
  const sql = sqlOf(db);
  const found = await sql.all<ExportedVerdict>(
    `SELECT v."baselineRowId", v."rowNumber", r."requestId", v."criterion", v."shownOrder", v."status", v."winner",
       v."rationale", v."errorMessage", v."promptVersion"
     FROM "PairwiseVerdict" v JOIN "DatasetRow" r ON r."id" = v."baselineRowId"
     WHERE v."comparisonId" = ? AND v."rowNumber" > ? AND v."rowNumber" <= (
       SELECT MAX("rowNumber") FROM (SELECT DISTINCT "rowNumber" FROM "PairwiseVerdict" WHERE "comparisonId" = ? AND "rowNumber" > ? ORDER BY "rowNumber" LIMIT ?) page)
     ORDER BY v."rowNumber", v."criterion", v."shownOrder"`,
    [comparisonId, afterRowNumber, comparisonId, afterRowNumber, rows],
  );
  return found.map((v) => ({ ...v, rowNumber: Number(v.rowNumber) }));
}
