import Database from "better-sqlite3";
import { responseHashOf } from "../../labels/contentHash";
import { sqliteFilePath } from "../databaseUrl";

const BATCH = 1000;

/**
 * The data step of the label_content_hash migration, run after migrations are
 * applied (SQLite has no sha256, so the SQL migration cannot fill hashes):
 * gives every stored response its hash, then every label that migration
 * marked `hashPending` the hash of the content it was given on. Labels carried
 * no run before, and were given on the dataset's own response (the rows table
 * showed the dataset's labels on every run, but a label was stored per row),
 * so that is the dataset row's response. Idempotent: a second call finds
 * nothing to fill. Returns how many of each it filled.
 */
export function fillContentHashes(databaseUrl: string): { rows: number; generations: number; labels: number } {
  const connection = new Database(sqliteFilePath(databaseUrl));
  try {
    connection.pragma("busy_timeout = 5000");
    const rows = hashResponses(connection, "DatasetRow");
    const generations = hashResponses(connection, "Generation");
    const labels = connection
      .prepare(
        `UPDATE "HumanLabel" SET
           "responseHash" = CASE WHEN "chunkPosition" < 0 THEN (SELECT r."responseHash" FROM "DatasetRow" r WHERE r."id" = "HumanLabel"."rowId") END,
           "hashPending" = false
         WHERE "hashPending" = true`,
      )
      .run().changes;
    return { rows, generations, labels };
  } finally {
    connection.close();
  }
}

/** Hashes a table's responses that have none yet, a batch per transaction so a large store is never locked for long. */
function hashResponses(connection: Database.Database, table: "DatasetRow" | "Generation"): number {
  const pending = connection.prepare(
    `SELECT "id", "response" FROM "${table}" WHERE "response" IS NOT NULL AND "responseHash" IS NULL LIMIT ${BATCH}`,
  );
  const update = connection.prepare(`UPDATE "${table}" SET "responseHash" = ? WHERE "id" = ?`);
  const batch = connection.transaction((items: { id: string; response: string }[]) => {
    for (const { id, response } of items) update.run(responseHashOf(response), id);
  });
  let filled = 0;
  for (;;) {
    const items = pending.all() as { id: string; response: string }[];
    if (items.length === 0) return filled;
    batch(items);
    filled += items.length;
  }
}
