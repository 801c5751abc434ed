import { databaseUrlOf, type Db } from "./client";
import { connectionFor, preparedStatement } from "./directSqlite";

/** Everything a judge needs of a row: text, ground truth, chunks, agent facts, and the run's generated response if any. */
export type JudgeRowData = {
  id: string; messages: string; requestText: string; response: string | null; expectedResponse: string | null; expectedFacts: string | null;
  totalTokenCount: number | null; inputTokenCount: number | null; outputTokenCount: number | null; latencySeconds: number | null;
  chunks: { kind: string; position: number; content: string | null; docUri: string }[];
  generation: { rowId: string; status: string; response: string | null; errorMessage: string | null; inputTokenCount: number | null; outputTokenCount: number | null; latencySeconds: number | null } | null;
};
export type PendingItem = { id: string; rowId: string; metric: string };

/**
 * A page of a run's pending work (cursor on id, so items being worked on are
 * not fetched again) with the rows it needs. The rows, their chunks and the
 * run's generations are selected by joining to the same page of items (the
 * page's SELECT as a subquery), never by a list of row ids: every query binds
 * the same few values whatever the page size. The reads run in one read
 * transaction, so each sees the same page even while other processes judge.
 */
function pendingPage(table: "JudgmentItem" | "Generation"): string {
  return `SELECT "rowId" FROM "${table}" WHERE "runId" = ? AND "status" = 'pending' AND "id" > ? ORDER BY "id" LIMIT ?`;
}

function loadPage<I extends { rowId: string }>(db: Db, table: "JudgmentItem" | "Generation", itemColumns: string, runId: string, afterId: string, take: number): { items: I[]; rows: Map<string, JudgeRowData> } {
  const connection = connectionFor(databaseUrlOf(db));
  const page = [runId, afterId, take] as const;
  return connection.transaction(() => {
    const items = preparedStatement(connection,
      `SELECT ${itemColumns} FROM "${table}" WHERE "runId" = ? AND "status" = 'pending' AND "id" > ? ORDER BY "id" LIMIT ?`,
    ).all(...page) as I[];
    if (items.length === 0) return { items, rows: new Map<string, JudgeRowData>() };
    const rows = preparedStatement(connection,
      `SELECT "id", "messages", "requestText", "response", "expectedResponse", "expectedFacts", "totalTokenCount", "inputTokenCount", "outputTokenCount", "latencySeconds"
       FROM "DatasetRow" WHERE "id" IN (${pendingPage(table)})`,
    ).all(...page) as Omit<JudgeRowData, "chunks" | "generation">[];
    const byId = new Map<string, JudgeRowData>(rows.map((row) => [row.id, { ...row, chunks: [], generation: null }]));
    const chunks = preparedStatement(connection,
      `SELECT "rowId", "kind", "position", "content", "docUri" FROM "ContextChunk" WHERE "rowId" IN (${pendingPage(table)}) ORDER BY "rowId", "kind", "position"`,
    ).all(...page) as (JudgeRowData["chunks"][number] & { rowId: string })[];
    for (const { rowId, ...chunk } of chunks) byId.get(rowId)?.chunks.push(chunk);
    const generations = preparedStatement(connection,
      `SELECT "rowId", "status", "response", "errorMessage", "inputTokenCount", "outputTokenCount", "latencySeconds"
       FROM "Generation" WHERE "runId" = ? AND "rowId" IN (${pendingPage(table)})`,
    ).all(runId, ...page) as NonNullable<JudgeRowData["generation"]>[];
    for (const generation of generations) {
      const row = byId.get(generation.rowId);
      if (row) row.generation = generation;
    }
    return { items, rows: byId };
  })();
}

/** The next pending judgments after a cursor, with what the judges need of their rows. */
export async function listPendingJudgmentsWithRows(db: Db, runId: string, afterId: string, take: number) {
  return loadPage<PendingItem>(db, "JudgmentItem", `"id", "rowId", "metric"`, runId, afterId, take);
}

/** The next pending generations after a cursor, with their rows. */
export async function listPendingGenerationsWithRows(db: Db, runId: string, afterId: string, take: number) {
  return loadPage<{ id: string; rowId: string }>(db, "Generation", `"id", "rowId"`, runId, afterId, take);
}
