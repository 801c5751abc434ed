import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, createDb, type Db } from "../../lib/db/client";
import { createDatasetSink } from "../../lib/db/datasets/datasetWrites";
import { applyPendingMigrations } from "../../lib/db/migrations/applyMigrations";
import { closeDirectConnection } from "../../lib/db/store/directSqlite";
import { ingestUpload } from "../../lib/ingest/ingestUpload";
import { byteChunks, toJsonl } from "../../tests/support/evalFiles";

/** A fresh SQLite store in a temporary directory for an engine benchmark, migrated; `close` removes it. */
export async function openBenchStore(prefix: string): Promise<{ db: Db; close: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const dbUrl = `file:${path.join(dir, "bench.db")}`;
  await applyPendingMigrations(dbUrl);
  const db = createDb(dbUrl);
  return {
    db,
    close: async () => {
      await closeDb(db);
      closeDirectConnection(dbUrl);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Imports rows as one strict upload; returns the dataset's id. */
export async function importBenchRows(
  db: Db,
  rows: Record<string, unknown>[],
  filename = "bench.jsonl",
): Promise<string> {
  const imported = await ingestUpload({
    chunks: byteChunks(toJsonl(rows), 65536),
    filename,
    mode: "strict",
    sink: createDatasetSink(db),
  });
  if (!imported.ok) throw new Error(`${filename} did not import`);
  return imported.datasetId;
}
