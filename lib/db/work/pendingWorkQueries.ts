import { databaseUrlOf, type Db } from "../client";
import { connectionFor, preparedStatement } from "../store/directSqlite";

/** Everything a judge needs of a row: text, ground truth, chunks, agent facts, and the run's generated response if any. */
export type JudgeRowData = {
  id: string;
  messages: string;
  requestText: string;
  response: string | null;
  expectedResponse: string | null;
  expectedFacts: string | null;
  totalTokenCount: number | null;
  inputTokenCount: number | null;
  outputTokenCount: number | null;
  latencySeconds: number | null;
  chunks: { kind: string; position: number; content: string | null; docUri: string }[];
  generation: {
    rowId: string;
    status: string;
    response: string | null;
    errorMessage: string | null;
    inputTokenCount: number | null;
    outputTokenCount: number | null;
    latencySeconds: number | null;
  } | null;
};
export type PendingItem = { id: string; rowId: string; metric: string; position: number };

const MAX_PAGE_ITEMS = 1000;

/**
 * A page of a run's pending work with the rows it needs. The cursor is the
 * item's rowid (`position`), so items being worked on are not fetched again:
 * the (runId, status) index holds its entries in rowid order, so a page is a
 * range scan of that index. (On the text id, SQLite sorted every pending item
 * of the run for every page: 88 ms a page on a 20,000-row run, a third of its
 * judging time.) Items were written in row order, so a page also covers few rows.
 * `_rowid_`, not `rowid`: SQLite names are case-insensitive, and "rowid" is the "rowId" column here. The page's row ids reach SQLite
 * as ONE bound JSON array (json_each), never as a value per id, so every query
 * binds the same few values; the array is as long as the page, which the
 * caller fixes (400 items), not as the run.
 */
function loadPage<I extends { rowId: string; position: number }>(
  db: Db,
  table: "JudgmentItem" | "Generation",
  itemColumns: string,
  runId: string,
  afterPosition: number,
  take: number,
): { items: I[]; rows: Map<string, JudgeRowData> } {
  if (take > MAX_PAGE_ITEMS) throw new Error(`a page of pending work has at most ${MAX_PAGE_ITEMS} items`);
  const connection = connectionFor(databaseUrlOf(db));
  const items = preparedStatement(
    connection,
    `SELECT ${itemColumns}, "_rowid_" AS "position" FROM "${table}" WHERE "runId" = ? AND "status" = 'pending' AND "_rowid_" > ? ORDER BY "_rowid_" LIMIT ?`,
  ).all(runId, afterPosition, take) as I[];
  if (items.length === 0) return { items, rows: new Map<string, JudgeRowData>() };
  const rowIds = JSON.stringify([...new Set(items.map((item) => item.rowId))]);
  const rows = preparedStatement(
    connection,
    `SELECT "id", "messages", "requestText", "response", "expectedResponse", "expectedFacts", "totalTokenCount", "inputTokenCount", "outputTokenCount", "latencySeconds"
     FROM "DatasetRow" WHERE "id" IN (SELECT value FROM json_each(?))`,
  ).all(rowIds) as Omit<JudgeRowData, "chunks" | "generation">[];
  const byId = new Map<string, JudgeRowData>(rows.map((row) => [row.id, { ...row, chunks: [], generation: null }]));
  const chunks = preparedStatement(
    connection,
    `SELECT "rowId", "kind", "position", "content", "docUri" FROM "ContextChunk" WHERE "rowId" IN (SELECT value FROM json_each(?)) ORDER BY "rowId", "kind", "position"`,
  ).all(rowIds) as (JudgeRowData["chunks"][number] & { rowId: string })[];
  for (const { rowId, ...chunk } of chunks) byId.get(rowId)?.chunks.push(chunk);
  const generations = preparedStatement(
    connection,
    `SELECT "rowId", "status", "response", "errorMessage", "inputTokenCount", "outputTokenCount", "latencySeconds"
     FROM "Generation" WHERE "runId" = ? AND "rowId" IN (SELECT value FROM json_each(?))`,
  ).all(runId, rowIds) as NonNullable<JudgeRowData["generation"]>[];
  for (const generation of generations) {
    const row = byId.get(generation.rowId);
    if (row) row.generation = generation;
  }
  return { items, rows: byId };
}

/** The next pending judgments after a cursor, with what the judges need of their rows. */
export async function listPendingJudgmentsWithRows(db: Db, runId: string, afterPosition: number, take: number) {
  return loadPage<PendingItem>(db, "JudgmentItem", `"id", "rowId", "metric"`, runId, afterPosition, take);
}

/** The next pending generations after a cursor, with their rows. */
export async function listPendingGenerationsWithRows(db: Db, runId: string, afterPosition: number, take: number) {
  return loadPage<{ id: string; rowId: string; position: number }>(
    db,
    "Generation",
    `"id", "rowId"`,
    runId,
    afterPosition,
    take,
  );
}
