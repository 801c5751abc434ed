import type { LabelEntry } from "@/lib/contract/labelEntry";
import { refreshPlannerStatistics, sqlOf, type Db } from "../client";
import { sqlFragments, type SqlFragments } from "../store/sqlFragments";
import { readStoreClock } from "../store/storeClock";
import { refreshGoldLabels } from "./goldLabels";

/**
 * A label file's import, written in two steps so that it is all or nothing
 * without holding the file in memory or the database for long:
 *
 * 1. `stageLabels`: each batch of checked labels goes into LabelImportStaging
 *    in its own short transaction, in two statements whatever the batch's
 *    size. The labels staged before find a label given twice in the file (and
 *    the row of the first; the table's unique key guards it), so the
 *    importer keeps no map of the file's keys.
 * 2. `promoteLabelImport`: one transaction turns the staged labels into
 *    people's current labels (one per person and key: a file may carry
 *    several people's labels of a row) and history rows, and refreshes the
 *    gold labels of the keys it touched, with set-based statements; nothing
 *    is visible before its commit and everything after it. A failed import is removed
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

const STAGED_COLUMNS = [
  "importId",
  "fileRow",
  "fileLine",
  "rowId",
  "metric",
  "chunkPosition",
  "kind",
  "rating",
  "score",
  "reason",
  "labelledBy",
  "statedBy",
  "labeller",
  "createdAt",
] as const;
/** The labels already staged on a batch's rows (binds importId, then the rows' ids as one list value). */
const stagedOnRows = (f: SqlFragments) =>
  `SELECT "rowId", "metric", "chunkPosition", "labeller", "fileRow" FROM "LabelImportStaging" WHERE "importId" = ? AND ${f.inList(`"rowId"`)}`;
/** A current label h with a staged label's key, and with its value (the staged label's table or alias, dotted). */
const sameKey = (s: string) =>
  `${s}"rowId" = h."rowId" AND ${s}"metric" = h."metric" AND ${s}"chunkPosition" = h."chunkPosition"`;
/** The same person's current label h of a staged label's key. */
const samePerson = (s: string) => `${sameKey(s)} AND h."labeller" = ${s}"labeller"`;
const sameValue = (s: string) =>
  `h."kind" = ${s}"kind" AND h."rating" IS NOT DISTINCT FROM ${s}"rating" AND h."score" IS NOT DISTINCT FROM ${s}"score"`;
const SAME_KEY = sameKey("s.");
/**
 * The hash an imported label records. A label file carries no run or hash, so
 * a label it gives with the current rating or score (an export imported back,
 * perhaps with another labeller) keeps the current label's hash: the same
 * person's, else the gold label's: the response it was given on, which may be
 * a generated run's. A changed label judged the
 * dataset row's own response, when its metric reads the response at all
 * (binds the list of such metrics as one value at @reading, responseReadingMetrics in lib/labels).
 */
const importedHash = (f: SqlFragments, alias: string) => {
  const own = `FROM "PersonLabel" h WHERE ${samePerson(alias)} AND ${sameValue(alias)}`;
  const current = `FROM "HumanLabel" h WHERE ${sameKey(alias)} AND ${sameValue(alias)}`;
  return `CASE WHEN EXISTS (SELECT 1 ${own}) THEN (SELECT h."responseHash" ${own})
    WHEN EXISTS (SELECT 1 ${current}) THEN (SELECT h."responseHash" ${current})
    WHEN ${alias}"chunkPosition" < 0 AND ${f.inList(`${alias}"metric"`, "@reading")}
    THEN (SELECT r."responseHash" FROM "DatasetRow" r WHERE r."id" = ${alias}"rowId") END`;
};
const IN_RANGE = `"importId" = @importId AND "fileRow" > @after AND "fileRow" <= @through`;
/**
 * A promoted label's id: the import's and the file row's, unique because an
 * import gives each file row once (written in SQL both stores share, where a
 * random id is not).
 */
const PROMOTED_ID = `"importId" || '-' || CAST("fileRow" AS TEXT)`;
// The same label by the same person: nothing to write, no history added.
const MARK_UNCHANGED = `UPDATE "LabelImportStaging" AS s SET "unchanged" = TRUE WHERE ${IN_RANGE} AND EXISTS (
  SELECT 1 FROM "PersonLabel" h WHERE ${samePerson("s.")} AND ${sameValue("s.")}
    AND h."reason" IS NOT DISTINCT FROM s."reason" AND h."statedBy" IS NOT DISTINCT FROM s."statedBy")
  AND NOT EXISTS (SELECT 1 FROM "HumanLabel" h WHERE ${SAME_KEY} AND h."hashPending" = TRUE)`;
// Several people's labels of one key in a file get consecutive revisions, in file order.
const NUMBER_REVISIONS = `UPDATE "LabelImportStaging" AS s SET "revision" = 1 + COALESCE(
  (SELECT MAX(h."revision") FROM "HumanLabelRevision" h WHERE ${SAME_KEY}), 0)
  + (SELECT COUNT(*) FROM "LabelImportStaging" h WHERE h."importId" = s."importId" AND ${SAME_KEY}
      AND h."fileRow" > @after AND h."fileRow" < s."fileRow" AND h."unchanged" = FALSE)
  WHERE ${IN_RANGE} AND s."unchanged" = FALSE`;
const insertRevisions = (
  f: SqlFragments,
) => `INSERT INTO "HumanLabelRevision" ("id", "datasetId", "rowId", "metric", "chunkPosition", "revision", "action", "kind", "rating", "score", "reason", "labelledBy", "statedBy", "labelledAt", "source", "responseHash")
  SELECT ${PROMOTED_ID}, @datasetId, "rowId", "metric", "chunkPosition", "revision", 'set', "kind", "rating", "score", "reason", "labelledBy", "statedBy", @at, 'import', ${importedHash(f, '"LabelImportStaging".')}
  FROM "LabelImportStaging" WHERE ${IN_RANGE} AND "unchanged" = FALSE`;
const upsertLabels = (
  f: SqlFragments,
) => `INSERT INTO "PersonLabel" ("id", "datasetId", "rowId", "metric", "chunkPosition", "kind", "rating", "score", "reason", "labeller", "statedBy", "labelledAt", "source", "responseHash")
  SELECT ${PROMOTED_ID}, @datasetId, "rowId", "metric", "chunkPosition", "kind", "rating", "score", "reason", "labeller", "statedBy", @at, 'import', ${importedHash(f, '"LabelImportStaging".')}
  FROM "LabelImportStaging" WHERE ${IN_RANGE} AND "unchanged" = FALSE
  ON CONFLICT ("rowId", "metric", "chunkPosition", "labeller") DO UPDATE SET
    "kind" = excluded."kind", "rating" = excluded."rating", "score" = excluded."score", "reason" = excluded."reason",
    "statedBy" = excluded."statedBy", "labelledAt" = excluded."labelledAt",
    "source" = excluded."source", "responseHash" = excluded."responseHash"`;
/** The keys a range of the import changed, for their gold labels (goldLabels.ts). */
const CHANGED_KEYS = `SELECT "rowId", "metric", "chunkPosition" FROM "LabelImportStaging" WHERE ${IN_RANGE} AND "unchanged" = FALSE`;
// Bounded deletes, so removing a large failed import never holds the write lock for long (by primary key: neither
// PostgreSQL's DELETE nor its tables have SQLite's LIMIT and rowid).
const DELETE_SOME = `DELETE FROM "LabelImportStaging" WHERE "importId" = @importId AND "fileRow" IN (
  SELECT "fileRow" FROM "LabelImportStaging" WHERE "importId" = @importId ORDER BY "fileRow" LIMIT 2000)`;
const LAST_FILE_ROW = `SELECT COALESCE(MAX("fileRow"), 0) AS "last" FROM "LabelImportStaging" WHERE "importId" = ?`;
/**
 * File rows promoted per statement group; the event loop is handed back between groups. On SQLite a group holds
 * the loop from its first statement to its last: at 1,000 rows another request waited up to 270–560 ms behind
 * it on a busy 2-core machine, at 100 rows 80–150 ms, and the whole import of 20,000 labels took less time, not
 * more (npm run bench:labels: 4.9 s → 3.1 s).
 */
const PROMOTE_BATCH = 100;
const staleImports = (f: SqlFragments, olderThanMs: number) =>
  `SELECT DISTINCT "importId" FROM "LabelImportStaging" WHERE "createdAt" < ${f.storeTime(-olderThanMs)} LIMIT 20`;

/**
 * Stages one batch in one short transaction; returns the labels the file
 * already gave (nothing is staged for them). The transaction may run again
 * whole, so everything it finds starts inside it.
 */
export async function stageLabels(db: Db, importId: string, labels: StagedLabel[]): Promise<RepeatedLabel[]> {
  const sql = sqlOf(db);
  // The store's time: another server finds by it an import whose server died (discardStaleLabelImports).
  const now = await readStoreClock(sql);
  const rowIds = [...new Set(labels.map((label) => label.rowId))];
  const keyOf = (rowId: string, metric: string, chunkPosition: number, labeller: string) =>
    JSON.stringify([rowId, metric, chunkPosition, labeller]);
  return sql.transaction(async (tx) => {
    const firstRows = new Map<string, number>();
    if (rowIds.length > 0)
      for (const staged of await tx.all<{
        rowId: string;
        metric: string;
        chunkPosition: number;
        labeller: string;
        fileRow: number;
      }>(stagedOnRows(sqlFragments(tx)), [importId, rowIds]))
        firstRows.set(keyOf(staged.rowId, staged.metric, staged.chunkPosition, staged.labeller), staged.fileRow);
    const repeated: RepeatedLabel[] = [];
    const rows: (string | number | Date | null)[][] = [];
    for (const { fileRow, fileLine, rowId, entry, labelledBy, statedBy } of labels) {
      const key = keyOf(rowId, entry.metric, entry.chunkPosition, labelledBy ?? "");
      const firstRow = firstRows.get(key);
      if (firstRow !== undefined) {
        repeated.push({ fileRow, fileLine, firstRow });
        continue;
      }
      firstRows.set(key, fileRow);
      const { value } = entry;
      const rating = value.kind === "rating" ? value.rating : null;
      const score = value.kind === "score" ? value.score : null;
      rows.push([
        importId,
        fileRow,
        fileLine,
        rowId,
        entry.metric,
        entry.chunkPosition,
        value.kind,
        rating,
        score,
        entry.reason?.trim() ? entry.reason.trim() : null,
        labelledBy,
        statedBy,
        labelledBy ?? "",
        now,
      ]);
    }
    await tx.bulkInsert([{ table: "LabelImportStaging", columns: STAGED_COLUMNS, rows }]);
    return repeated;
  });
}

/**
 * Makes a staged import the current labels in one transaction; returns how
 * many labels changed. 20,000 labels take about half a second to promote,
 * which in one synchronous statement would stall every request of the server
 * that long. So the transaction goes a thousand file rows per step, handing
 * the event loop back between steps: requests that read through Prisma are
 * served meanwhile (they see the labels before the import until it commits),
 * and writers wait for the commit asynchronously, as they do for any other
 * writer (on SQLite so do the process's raw reads, which share the
 * transaction's connection). On PostgreSQL the transaction may run again whole after a
 * serialization failure; every step starts from the staged rows, so it can.
 */
export async function promoteLabelImport(
  db: Db,
  datasetId: string,
  importId: string,
  at: Date,
  responseReadingMetrics: readonly string[],
): Promise<number> {
  const sql = sqlOf(db);
  const f = sqlFragments(sql);
  const steps = [MARK_UNCHANGED, NUMBER_REVISIONS, insertRevisions(f), upsertLabels(f)];
  const reading = [...responseReadingMetrics];
  const changed = await sql.transaction(
    async (tx) => {
      const last = (await tx.get<{ last: number }>(LAST_FILE_ROW, [importId]))?.last ?? 0;
      let count = 0;
      for (let after = 0; after < last; after += PROMOTE_BATCH) {
        const range = { importId, after, through: after + PROMOTE_BATCH };
        const written = { ...range, datasetId, at, reading };
        await tx.run(steps[0], range);
        await tx.run(steps[1], range);
        count += await tx.run(steps[2], written);
        await tx.run(steps[3], written);
        await refreshGoldLabels(tx, CHANGED_KEYS, range, datasetId);
        await new Promise((resolve) => setImmediate(resolve));
      }
      return count;
    },
    { manyPages: true },
  );
  await discardLabelImport(db, importId);
  await refreshPlannerStatistics(db, ["HumanLabel", "PersonLabel"]);
  return changed;
}

/** Removes an import's staged labels, a bounded batch at a time, letting other requests run between batches. */
export async function discardLabelImport(db: Db, importId: string): Promise<void> {
  const sql = sqlOf(db);
  while ((await sql.run(DELETE_SOME, { importId })) > 0) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Staged labels of imports that died with their server (staged over `olderThanMs` ago, by the store's clock) are removed. */
export async function discardStaleLabelImports(db: Db, olderThanMs: number): Promise<void> {
  const sql = sqlOf(db);
  const stale = await sql.all<{ importId: string }>(staleImports(sqlFragments(sql), olderThanMs));
  for (const { importId } of stale) await discardLabelImport(db, importId);
}
