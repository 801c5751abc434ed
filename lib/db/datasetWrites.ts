import { randomUUID } from "node:crypto";
import type { DatasetSink } from "@/lib/ingest/ingestUpload";
import type { NormalizedRow } from "@/lib/ingest/types";
import type { Db } from "./client";

/** The database side of an upload: rows and their chunks are written batch by batch, each batch in one transaction. */
export function createDatasetSink(db: Db): DatasetSink {
  return {
    async begin(meta) {
      const dataset = await db.dataset.create({ data: { ...meta, status: "importing" } });
      return dataset.id;
    },
    async writeRows(datasetId, rows) {
      await insertRows(db, datasetId, rows);
    },
    async commit(datasetId, summary) {
      await db.dataset.update({
        where: { id: datasetId },
        data: { status: "ready", rowCount: summary.rowCount, warnings: JSON.stringify(summary.warnings) },
      });
    },
    async discard(datasetId) {
      await db.dataset.deleteMany({ where: { id: datasetId } });
    },
  };
}

export async function insertRows(db: Db, datasetId: string, rows: NormalizedRow[]): Promise<void> {
  const rowData = rows.map((row) => ({ id: randomUUID(), ...toRowColumns(datasetId, row) }));
  const chunkData = rows.flatMap((row, index) => [
    ...(row.retrievedContext ?? []).map((chunk, position) => ({
      id: randomUUID(), rowId: rowData[index].id, kind: "retrieved", position, content: chunk.content, docUri: chunk.docUri,
      source: row.retrievedContextSource ?? "column",
    })),
    ...(row.expectedRetrievedContext ?? []).map((chunk, position) => ({
      id: randomUUID(), rowId: rowData[index].id, kind: "expected", position, content: chunk.content, docUri: chunk.docUri, source: "column",
    })),
  ]);
  await db.$transaction([
    db.datasetRow.createMany({ data: rowData }),
    db.contextChunk.createMany({ data: chunkData }),
  ]);
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
    responseSource: row.responseSource,
    expectedResponse: row.expectedResponse,
    expectedFacts: row.expectedFacts ? JSON.stringify(row.expectedFacts) : null,
    trace: row.trace === null ? null : JSON.stringify(row.trace),
    totalTokenCount: row.tokens?.total ?? null,
    inputTokenCount: row.tokens?.input ?? null,
    outputTokenCount: row.tokens?.output ?? null,
    latencySeconds: row.latencySeconds,
    hasResponse: row.response !== null,
    hasExpectedResponse: row.expectedResponse !== null,
    hasExpectedFacts: row.expectedFacts !== null,
    hasRetrievedContext: retrieved.length > 0,
    hasRetrievedContent: retrieved.some((chunk) => chunk.content !== null && chunk.content.trim() !== ""),
    hasExpectedRetrievedContext: (row.expectedRetrievedContext?.length ?? 0) > 0,
    hasTrace: row.trace !== null,
    retrievedChunkCount: retrieved.length,
  };
}

/** An upload killed mid-way leaves an "importing" dataset; it is removed at start-up. */
export async function deleteAbandonedImports(db: Db, olderThan: Date): Promise<number> {
  const result = await db.dataset.deleteMany({ where: { status: "importing", createdAt: { lt: olderThan } } });
  return result.count;
}

export async function deleteDataset(db: Db, datasetId: string): Promise<boolean> {
  const result = await db.dataset.deleteMany({ where: { id: datasetId } });
  return result.count > 0;
}
