import type { DatasetSink } from "@/lib/contract/datasetSink";
import type { NormalizedRow } from "@/lib/contract/normalizedRow";
import { responseHashOf } from "@/lib/contract/contentHash";
import { addSignature, signatureOf, storeSignatures, type InputSignatureCounts } from "@/lib/contract/inputSignatures";
import { countInputSignatures } from "./datasetQueries";
import { chunkHasContent } from "@/lib/contract/rowInputs";
import { refreshPlannerStatistics, sqlOf, type Db } from "../client";
import { labelBulkTables, type RowLabels } from "../labels/labelWrites";
import { orderedUuid } from "../orderedUuid";

/**
 * The database side of an upload: rows and their chunks are written batch by batch, each batch in one transaction.
 * `createdById` names the signed-in user who uploaded it (null while sign-in is off, and for the CLI).
 */
export function createDatasetSink(db: Db, options: { createdById?: string | null } = {}): DatasetSink {
  // What the rows carry, counted as they are written and kept on the dataset (lib/contract/inputSignatures.ts).
  const signatures: InputSignatureCounts = {};
  // Whether some row is a turn of a session: its anchor (first turn) is known only once every row is in.
  let sessions = false;
  return {
    async begin(meta) {
      const dataset = await db.dataset.create({
        data: { ...meta, status: "importing", createdById: options.createdById ?? null },
      });
      return dataset.id;
    },
    async writeRows(datasetId, rows) {
      await insertRows(db, datasetId, rows);
      for (const row of rows) addSignature(signatures, signatureOf(signatureRowOf(row)));
      sessions ||= rows.some((row) => row.sessionId !== null);
    },
    async commit(datasetId, summary) {
      // The sessions' anchors change which rows allow the conversation judges: count the signatures again then.
      const inputCoverage = sessions
        ? (await markSessionAnchors(db, datasetId), storeSignatures(await countInputSignatures(db, datasetId)))
        : storeSignatures(signatures);
      await db.dataset.update({
        where: { id: datasetId },
        data: {
          status: "ready",
          rowCount: summary.rowCount,
          warnings: JSON.stringify(summary.warnings),
          inputCoverage,
        },
      });
      await refreshPlannerStatistics(db, ["DatasetRow", "ContextChunk", "ToolCall"]);
    },
    async discard(datasetId) {
      await db.dataset.deleteMany({ where: { id: datasetId } });
    },
  };
}

const ROW_COLUMNS = [
  "id",
  "datasetId",
  "rowNumber",
  "requestId",
  "requestRaw",
  "requestFormat",
  "messages",
  "requestText",
  "response",
  "responseHash",
  "responseSource",
  "expectedResponse",
  "expectedFacts",
  "trace",
  "totalTokenCount",
  "inputTokenCount",
  "outputTokenCount",
  "latencySeconds",
  "hasResponse",
  "hasExpectedResponse",
  "hasExpectedFacts",
  "hasRetrievedContext",
  "hasRetrievedContent",
  "hasExpectedRetrievedContext",
  "hasTrace",
  "retrievedChunkCount",
  "hasToolCalls",
  "hasExpectedToolCalls",
  "toolCallCount",
  "toolCallsSource",
  "availableTools",
  "sessionId",
  "sessionTime",
  "conversationAnchor",
  "conversationTurns",
  "hasEmptyResponse",
] as const;
const CHUNK_COLUMNS = ["id", "rowId", "kind", "position", "content", "docUri", "source"] as const;
const TOOL_CALL_COLUMNS = [
  "id",
  "rowId",
  "kind",
  "position",
  "name",
  "arguments",
  "output",
  "error",
  "startMs",
  "durationMs",
  "spanId",
] as const;

/**
 * Writes one batch of rows and their chunks in a single transaction (the store's bulk writer: prepared
 * statements on SQLite, one `unnest` INSERT per table on PostgreSQL), so an upload's memory and
 * transaction size stay those of one batch.
 */
export async function insertRows(db: Db, datasetId: string, rows: NormalizedRow[]): Promise<void> {
  const rowValues: (string | number | boolean | null)[][] = [];
  const chunkValues: (string | number | null)[][] = [];
  const toolCallValues: (string | number | null)[][] = [];
  const labelled: RowLabels[] = [];
  for (const row of rows) {
    const id = orderedUuid();
    // The upload's labels judged the response uploaded beside them.
    if (row.humanLabels.length > 0)
      labelled.push({ rowId: id, entries: row.humanLabels, responseHash: responseHashOf(row.response) });
    const columns = toRowColumns(datasetId, row);
    rowValues.push([id, ...ROW_COLUMNS.slice(1).map((column) => columns[column as keyof typeof columns])]);
    (row.retrievedContext ?? []).forEach((chunk, position) =>
      chunkValues.push([
        orderedUuid(),
        id,
        "retrieved",
        position,
        chunk.content,
        chunk.docUri,
        row.retrievedContextSource ?? "column",
      ]),
    );
    (row.expectedRetrievedContext ?? []).forEach((chunk, position) =>
      chunkValues.push([orderedUuid(), id, "expected", position, chunk.content, chunk.docUri, "column"]),
    );
    toolCallValues.push(...toolCallRows(id, row));
  }
  await sqlOf(db).bulkInsert([
    { table: "DatasetRow", columns: ROW_COLUMNS, rows: rowValues },
    { table: "ContextChunk", columns: CHUNK_COLUMNS, rows: chunkValues },
    { table: "ToolCall", columns: TOOL_CALL_COLUMNS, rows: toolCallValues },
    // Labels from the upload's human_labels column, in the same transaction as their rows.
    // A new dataset has no runs, so only catalogue metrics take labels here (the default reading).
    ...labelBulkTables(datasetId, labelled, { labelledBy: null, source: "upload" }),
  ]);
}

/** A row's called and expected tool calls as ToolCall rows (JSON text for arguments and outputs). */
function toolCallRows(rowId: string, row: NormalizedRow): (string | number | null)[][] {
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
  return [
    ...(row.toolCalls ?? []).map((call, position) => [
      orderedUuid(),
      rowId,
      "called",
      position,
      call.name,
      json(call.arguments),
      json(call.output),
      call.error,
      call.startMs,
      call.durationMs,
      call.spanId,
    ]),
    ...(row.expectedToolCalls ?? []).map((call, position) => [
      orderedUuid(),
      rowId,
      "expected",
      position,
      call.name,
      json(call.arguments),
      json(call.output),
      null,
      null,
      null,
      null,
    ]),
  ];
}

function toRowColumns(datasetId: string, row: NormalizedRow) {
  const retrieved = row.retrievedContext ?? [];
  return {
    datasetId,
    rowNumber: row.rowNumber,
    requestId: row.requestId,
    requestRaw: JSON.stringify(row.requestRaw),
    requestFormat: row.requestFormat,
    messages: JSON.stringify(row.messages),
    requestText: row.requestText,
    response: row.response,
    responseHash: responseHashOf(row.response),
    responseSource: row.responseSource,
    expectedResponse: row.expectedResponse,
    expectedFacts: row.expectedFacts ? JSON.stringify(row.expectedFacts) : null,
    trace: row.trace === null ? null : JSON.stringify(row.trace),
    totalTokenCount: row.tokens?.total ?? null,
    inputTokenCount: row.tokens?.input ?? null,
    outputTokenCount: row.tokens?.output ?? null,
    latencySeconds: row.latencySeconds,
    hasResponse: row.response !== null,
    hasEmptyResponse: row.emptyResponse === true,
    hasExpectedResponse: row.expectedResponse !== null,
    hasExpectedFacts: row.expectedFacts !== null,
    // An empty retrieval still carries the column: recall is 0 there, not skipped (skipping would flatter the retriever).
    hasRetrievedContext: row.retrievedContext !== null,
    hasRetrievedContent: retrieved.some((chunk) => chunk.content !== null && chunk.content.trim() !== ""),
    hasExpectedRetrievedContext: (row.expectedRetrievedContext?.length ?? 0) > 0,
    hasTrace: row.trace !== null,
    retrievedChunkCount: retrieved.length,
    hasToolCalls: row.toolCalls !== null,
    hasExpectedToolCalls: row.expectedToolCalls !== null,
    toolCallCount: row.toolCalls?.length ?? null,
    toolCallsSource: row.toolCallsSource,
    availableTools: row.availableTools.length > 0 ? JSON.stringify(row.availableTools) : null,
    sessionId: row.sessionId,
    sessionTime: row.sessionTime,
    // A row whose request carries earlier turns and no session is a conversation of its own; a session's
    // anchor is marked once all its turns are in (markSessionAnchors).
    conversationAnchor: row.sessionId === null && hasEarlierTurns(row),
    conversationTurns: row.sessionId === null && hasEarlierTurns(row) ? conversationTurnsOf(row) : null,
  };
}

/** Earlier turns: an assistant message in the request before the turn being answered. */
function hasEarlierTurns(row: NormalizedRow): boolean {
  return row.messages.some((message) => message.role === "assistant");
}

function conversationTurnsOf(row: NormalizedRow): number {
  const turns = row.messages.filter((message) => message.role === "user" || message.role === "assistant").length;
  return turns + (row.response !== null ? 1 : 0);
}

/**
 * Marks each session's first turn (by request time, then row number; MLflow attaches a session's feedback to its
 * chronologically first trace) as the conversation's anchor, with the session's turn count (a user and an
 * assistant turn per row).
 */
async function markSessionAnchors(db: Db, datasetId: string): Promise<void> {
  await sqlOf(db).run(
    `UPDATE "DatasetRow" SET "conversationAnchor" = TRUE,
       "conversationTurns" = 2 * (SELECT COUNT(*) FROM "DatasetRow" s
                                  WHERE s."datasetId" = "DatasetRow"."datasetId" AND s."sessionId" = "DatasetRow"."sessionId")
     WHERE "datasetId" = @datasetId AND "sessionId" IS NOT NULL
       AND "id" = (SELECT s."id" FROM "DatasetRow" s
                   WHERE s."datasetId" = "DatasetRow"."datasetId" AND s."sessionId" = "DatasetRow"."sessionId"
                   ORDER BY COALESCE(s."sessionTime", 1e300), s."rowNumber" LIMIT 1)`,
    { datasetId },
  );
}

/** The flags of a row that its signature reads, as toRowColumns stores them and the planner reads them. */
function signatureRowOf(row: NormalizedRow) {
  const columns = toRowColumns("", row);
  const firstEmpty = (row.retrievedContext ?? []).findIndex((chunk) => !chunkHasContent(chunk.content));
  return {
    ...columns,
    firstEmptyRetrievedChunk: firstEmpty === -1 ? null : firstEmpty,
    hasExpectedContextContent: (row.expectedRetrievedContext ?? []).some((chunk) => chunkHasContent(chunk.content)),
    responseFromColumn: row.responseSource === "column",
    toolCallsFromColumn: row.toolCallsSource === "column",
  };
}

/** An upload killed mid-way leaves an "importing" dataset; it is removed at start-up. */
export async function deleteAbandonedImports(db: Db, olderThan: Date): Promise<number> {
  const result = await db.dataset.deleteMany({ where: { status: "importing", createdAt: { lt: olderThan } } });
  return result.count;
}

/** Renames a ready dataset; false when there is no such dataset. */
export async function renameDataset(db: Db, datasetId: string, name: string): Promise<boolean> {
  const result = await db.dataset.updateMany({ where: { id: datasetId, status: "ready" }, data: { name } });
  return result.count === 1;
}

const IN_PROGRESS = ["pending", "running"];

export type DeleteDatasetOutcome =
  | { deleted: true }
  | { deleted: false; reason: "notFound" }
  | { deleted: false; reason: "runInProgress"; runNames: string[] }
  | { deleted: false; reason: "runCountChanged"; runCount: number };

/**
 * Deletes a ready dataset with its rows, chunks and runs (and their judgments,
 * through the schema's onDelete: Cascade), in one statement, so nothing can
 * slip between the checks and the delete. Refused while a run on it is
 * pending or running: its runner would keep writing into rows that are gone,
 * and the user would lose work they may not know is under way. Also refused
 * when the dataset no longer has the number of runs the user confirmed.
 */
export async function deleteDatasetWithRuns(
  db: Db,
  datasetId: string,
  confirmedRunCount: number,
): Promise<DeleteDatasetOutcome> {
  const deleted = await sqlOf(db).run(
    `DELETE FROM "Dataset" WHERE "id" = @datasetId AND "status" = 'ready'
      AND (SELECT COUNT(*) FROM "Run" WHERE "datasetId" = @datasetId) = @confirmedRunCount
      AND NOT EXISTS (SELECT 1 FROM "Run" WHERE "datasetId" = @datasetId AND "status" IN ('pending', 'running'))`,
    { datasetId, confirmedRunCount },
  );
  if (deleted === 1) return { deleted: true };
  const dataset = await db.dataset.findFirst({
    where: { id: datasetId, status: "ready" },
    select: { runs: { select: { name: true, status: true } } },
  });
  if (!dataset) return { deleted: false, reason: "notFound" };
  const inProgress = dataset.runs.filter((run) => IN_PROGRESS.includes(run.status));
  if (inProgress.length > 0)
    return { deleted: false, reason: "runInProgress", runNames: inProgress.map((r) => r.name) };
  return { deleted: false, reason: "runCountChanged", runCount: dataset.runs.length };
}
