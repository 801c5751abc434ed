import { createDatasetSink } from "@/lib/db/datasets/datasetWrites";
import type { Db } from "@/lib/db/client";
import { describeRowIssue } from "@/lib/ingest/errors";
import { ingestUpload, type ImportMode } from "@/lib/ingest/ingestUpload";
import { DEFAULT_LIMITS, type IngestLimits } from "@/lib/ingest/limits";
import { byteChunks } from "../support/evalFiles";

/**
 * Uploads text through the real ingest path into a real SQLite file, as the
 * upload route does, and reports what the user would see and what was stored.
 */
export async function ingestIntoDb(
  db: Db,
  filename: string,
  content: string | Uint8Array,
  mode: ImportMode,
  limits: IngestLimits = DEFAULT_LIMITS,
  chunkBytes = 4096,
) {
  const before = { datasets: await db.dataset.count(), rows: await db.datasetRow.count() };
  const result = await ingestUpload({
    chunks: byteChunks(content, chunkBytes),
    filename,
    mode,
    sink: createDatasetSink(db),
    limits,
  });
  const storedRows = result.ok ? await storedRowsWithChunks(db, result.datasetId) : [];
  return {
    result,
    messages: result.issues.map(describeRowIssue),
    storedRows,
    added: {
      datasets: (await db.dataset.count()) - before.datasets,
      rows: (await db.datasetRow.count()) - before.rows,
    },
  };
}

/** The stored rows with their chunks, read by dataset (a join), never by a list of row ids: the bound-value guard refuses those. */
async function storedRowsWithChunks(db: Db, datasetId: string) {
  const rows = await db.datasetRow.findMany({ where: { datasetId }, orderBy: { rowNumber: "asc" } });
  const chunks = await db.contextChunk.findMany({
    where: { row: { datasetId } },
    orderBy: [{ rowId: "asc" }, { position: "asc" }],
  });
  return rows.map((row) => ({ ...row, chunks: chunks.filter((chunk) => chunk.rowId === row.id) }));
}
