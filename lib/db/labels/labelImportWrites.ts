import Database from "better-sqlite3";
import type { LabelEntry } from "@/lib/labels/labelValue";
import { databaseUrlOf, type Db } from "../client";
import { sqliteFilePath } from "../databaseUrl";
import { connectionFor, preparedStatement, sqliteTimestamp } from "../store/directSqlite";
import { BUSY_TIMEOUT_MS, retryWhileBusy } from "../store/storeRetry";

/**
 * A label file's import, written in two steps so that it is all or nothing
 * without holding the file in memory or the database for long:
 *
 * 1. `stageLabels`: each batch of checked labels goes into LabelImportStaging
 *    in its own short transaction. Its unique key finds a label given twice in
 *    the file (and the row of the first), so the importer keeps no map of keys.
 * 2. `promoteLabelImport`: one transaction turns the staged labels into
 *    current labels and history rows with set-based statements; nothing is
 *    visible before its commit and everything after it. A failed import is removed
 *    with `discardLabelImport` and leaves the labels as they were.
 */
export type StagedLabel = {
  fileRow: number;
  fileLine: number;
  rowId: string;
  entry: LabelEntry;
  labelledBy: string | null;
  statedBy: string | null;
};

/** A label the file gives twice: this record's row and the row that gave it first. */
export type RepeatedLabel = { fileRow: number; fileLine: number; firstRow: number };

const STAGE = `INSERT INTO "LabelImportStaging" ("importId", "fileRow", "fileLine", "rowId", "metric", "chunkPosition", "kind", "rating", "score", "labelledBy", "statedBy", "createdAt")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`;
const FIRST_OF_KEY = `SELECT "fileRow" FROM "LabelImportStaging" WHERE "importId" = ? AND "rowId" = ? AND "metric" = ? AND "chunkPosition" = ?`;
/** A current label h with a staged label's key, and with its value (the staged label's table or alias, dotted). */
const sameKey = (s: string) =>
  `${s}"rowId" = h."rowId" AND ${s}"metric" = h."metric" AND ${s}"chunkPosition" = h."chunkPosition"`;
const sameValue = (s: string) => `h."kind" = ${s}"kind" AND h."rating" IS ${s}"rating" AND h."score" IS ${s}"score"`;
const SAME_KEY = sameKey("s.");
/**
 * The hash an imported label records. A label file carries no run or hash, so
 * a label it gives with the current rating or score (an export imported back,
 * perhaps with another labeller) keeps the current label's hash: the response
 * it was given on, which may be a generated run's. A changed label judged the
 * dataset row's own response, when its metric reads the response at all
 * (binds the JSON list of such metrics, responseReadingMetrics in lib/labels).
 */
const IMPORTED_HASH = (alias: string) => {
  const current = `FROM "HumanLabel" h WHERE ${sameKey(alias)} AND ${sameValue(alias)}`;
  return `CASE WHEN EXISTS (SELECT 1 ${current}) THEN (SELECT h."responseHash" ${current})
    WHEN ${alias}"chunkPosition" < 0 AND ${alias}"metric" IN (SELECT value FROM json_each(?))
    THEN (SELECT r."responseHash" FROM "DatasetRow" r WHERE r."id" = ${alias}"rowId") END`;
};
const IN_RANGE = `"importId" = ? AND "fileRow" > ? AND "fileRow" <= ?`;
// The same label by the same people: nothing to write, no history added.
const MARK_UNCHANGED = `UPDATE "LabelImportStaging" AS s SET "unchanged" = 1 WHERE ${IN_RANGE} AND EXISTS (
  SELECT 1 FROM "HumanLabel" h WHERE ${SAME_KEY} AND ${sameValue("s.")}
    AND h."labelledBy" IS s."labelledBy" AND h."statedBy" IS s."statedBy" AND h."hashPending" = false)`;
const NUMBER_REVISIONS = `UPDATE "LabelImportStaging" AS s SET "revision" = 1 + COALESCE(
  (SELECT MAX(h."revision") FROM "HumanLabelRevision" h WHERE ${SAME_KEY}), 0)
  WHERE ${IN_RANGE} AND s."unchanged" = 0`;
const INSERT_REVISIONS = `INSERT INTO "HumanLabelRevision" ("id", "datasetId", "rowId", "metric", "chunkPosition", "revision", "action", "kind", "rating", "score", "labelledBy", "statedBy", "labelledAt", "source", "responseHash")
  SELECT lower(hex(randomblob(16))), ?, "rowId", "metric", "chunkPosition", "revision", 'set', "kind", "rating", "score", "labelledBy", "statedBy", ?, 'import', ${IMPORTED_HASH('"LabelImportStaging".')}
  FROM "LabelImportStaging" WHERE ${IN_RANGE} AND "unchanged" = 0`;
const UPSERT_LABELS = `INSERT INTO "HumanLabel" ("id", "datasetId", "rowId", "metric", "chunkPosition", "kind", "rating", "score", "labelledBy", "statedBy", "labelledAt", "source", "revision", "responseHash")
  SELECT lower(hex(randomblob(16))), ?, "rowId", "metric", "chunkPosition", "kind", "rating", "score", "labelledBy", "statedBy", ?, 'import', "revision", ${IMPORTED_HASH('"LabelImportStaging".')}
  FROM "LabelImportStaging" WHERE ${IN_RANGE} AND "unchanged" = 0
  ON CONFLICT ("rowId", "metric", "chunkPosition") DO UPDATE SET
    "kind" = excluded."kind", "rating" = excluded."rating", "score" = excluded."score",
    "labelledBy" = excluded."labelledBy", "statedBy" = excluded."statedBy", "labelledAt" = excluded."labelledAt",
    "source" = excluded."source", "revision" = excluded."revision", "responseHash" = excluded."responseHash", "hashPending" = false`;
// Bounded deletes, so removing a large failed import never holds the write lock for long.
const DELETE_SOME = `DELETE FROM "LabelImportStaging" WHERE rowid IN (SELECT rowid FROM "LabelImportStaging" WHERE "importId" = ? LIMIT 2000)`;
const LAST_FILE_ROW = `SELECT COALESCE(MAX("fileRow"), 0) AS "last" FROM "LabelImportStaging" WHERE "importId" = ?`;
/** File rows promoted per statement group; the event loop is handed back between groups. */
const PROMOTE_BATCH = 1000;
const STALE_IMPORTS = `SELECT DISTINCT "importId" FROM "LabelImportStaging" WHERE "createdAt" < ? LIMIT 20`;

function connection(db: Db) {
  return connectionFor(databaseUrlOf(db));
}

/** Stages one batch in one short transaction; returns the labels the file already gave (nothing is staged for them). */
export async function stageLabels(db: Db, importId: string, labels: StagedLabel[]): Promise<RepeatedLabel[]> {
  const sqlite = connection(db);
  const stage = preparedStatement(sqlite, STAGE);
  const firstOfKey = preparedStatement(sqlite, FIRST_OF_KEY);
  const now = sqliteTimestamp(new Date());
  let repeated: RepeatedLabel[] = [];
  const write = sqlite.transaction(() => {
    repeated = [];
    for (const { fileRow, fileLine, rowId, entry, labelledBy, statedBy } of labels) {
      const { value } = entry;
      const rating = value.kind === "rating" ? value.rating : null;
      const score = value.kind === "score" ? value.score : null;
      const key = [rowId, entry.metric, entry.chunkPosition] as const;
      const staged = stage.run(
        importId,
        fileRow,
        fileLine,
        ...key,
        value.kind,
        rating,
        score,
        labelledBy,
        statedBy,
        now,
      );
      if (staged.changes === 0) {
        const first = firstOfKey.get(importId, ...key) as { fileRow: number };
        repeated.push({ fileRow, fileLine, firstRow: first.fileRow });
      }
    }
  });
  await retryWhileBusy(() => write());
  return repeated;
}

/**
 * Makes a staged import the current labels in one transaction; returns how
 * many labels changed. 20,000 labels take about half a second to promote,
 * which in one synchronous statement would stall every request of the server
 * that long. So the transaction runs on a connection of its own, a thousand
 * file rows per step, handing the event loop back between steps: requests
 * that read are served meanwhile (WAL: they see the labels before the import
 * until it commits), and writers wait for the commit asynchronously
 * (retryWhileBusy), as they do for any other writer. A connection of its own
 * because the shared one carries other requests' writes, which would
 * otherwise land inside this transaction between steps.
 */
export async function promoteLabelImport(
  db: Db,
  datasetId: string,
  importId: string,
  at: Date,
  responseReadingMetrics: readonly string[],
): Promise<number> {
  const url = databaseUrlOf(db);
  const { last } = preparedStatement(connectionFor(url), LAST_FILE_ROW).get(importId) as { last: number };
  const labelledAt = sqliteTimestamp(at);
  const reading = JSON.stringify(responseReadingMetrics);
  const sqlite = new Database(sqliteFilePath(url));
  let changed = 0;
  try {
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    sqlite.pragma("foreign_keys = ON");
    const steps = [MARK_UNCHANGED, NUMBER_REVISIONS, INSERT_REVISIONS, UPSERT_LABELS].map((sql) => sqlite.prepare(sql));
    await retryWhileBusy(() => sqlite.exec("BEGIN IMMEDIATE"));
    try {
      for (let after = 0; after < last; after += PROMOTE_BATCH) {
        const range = [importId, after, after + PROMOTE_BATCH] as const;
        steps[0].run(...range);
        steps[1].run(...range);
        changed += steps[2].run(datasetId, labelledAt, reading, ...range).changes;
        steps[3].run(datasetId, labelledAt, reading, ...range);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await retryWhileBusy(() => sqlite.exec("COMMIT"));
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
      throw error;
    }
  } finally {
    sqlite.close();
  }
  await discardLabelImport(db, importId);
  return changed;
}

/** Removes an import's staged labels, a bounded batch at a time, letting other requests run between batches. */
export async function discardLabelImport(db: Db, importId: string): Promise<void> {
  const remove = preparedStatement(connection(db), DELETE_SOME);
  while ((await retryWhileBusy(() => remove.run(importId))).changes > 0) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Staged labels of imports that died with their server (older than `olderThan`) are removed. */
export async function discardStaleLabelImports(db: Db, olderThan: Date): Promise<void> {
  const stale = preparedStatement(connection(db), STALE_IMPORTS).all(sqliteTimestamp(olderThan)) as {
    importId: string;
  }[];
  for (const { importId } of stale) await discardLabelImport(db, importId);
}
