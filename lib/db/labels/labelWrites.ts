import type { LabelEntry } from "@/lib/contract/labelEntry";
import { labelReadsResponse } from "@/lib/contract/responseReading";
import { sqlOf, type Db } from "../client";
import { sqliteTimestamp } from "../store/directSqlite";
import type { SqlParams, SqlRunner } from "../store/sqlRunner";
import { orderedUuid } from "../orderedUuid";
import { ONE_KEY, refreshGoldLabels } from "./goldLabels";

/**
 * Human labels are written here only. PersonLabel holds each person's current
 * label per (row, metric, chunk position); every change (a label given, changed
 * or cleared) also appends a HumanLabelRevision with the key's next revision
 * number and refreshes the key's gold label in HumanLabel (goldLabels.ts), in
 * the same transaction, so the history is complete and the judge's agreement
 * reads one row per key.
 */
export type LabelSource = "ui" | "upload" | "import";
/**
 * Who gave labels, how, and on which run: a label judged the response that run
 * showed (its generated one when it generates), or the dataset row's own when
 * no run is named (a label file, an upload).
 */
export type LabelAuthor = { labelledBy: string | null; source: LabelSource; at?: Date; runId?: string | null };
/**
 * Whether a label on a metric judged the response (lib/contract/responseReading.ts
 * decides): only those store the response's hash; the others store none and
 * count on every run.
 */
export type ReadsResponse = (metric: string, chunkPosition: number) => boolean;
/** Catalogue metrics alone: what a caller that knows of no run judges (a dataset without runs) writes with. */
const CATALOGUE_READING: ReadsResponse = (metric, chunkPosition) =>
  labelReadsResponse(metric, chunkPosition, { customJudges: [] });
/**
 * A row's labels; an entry may name its own author (an imported file's labelled_by), else the call's author counts.
 * `responseHash` is for rows being inserted (an upload), whose hash is not in the store yet.
 */
export type RowLabels = {
  rowId: string;
  entries: (LabelEntry & { labelledBy?: string | null })[];
  responseHash?: string | null;
};

const UPSERT_LABEL = `INSERT INTO "PersonLabel" ("id", "datasetId", "rowId", "metric", "chunkPosition", "kind", "rating", "score", "reason", "labeller", "statedBy", "labelledAt", "source", "responseHash")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)
  ON CONFLICT ("rowId", "metric", "chunkPosition", "labeller") DO UPDATE SET
    "kind" = excluded."kind", "rating" = excluded."rating", "score" = excluded."score", "reason" = excluded."reason",
    "statedBy" = NULL, "labelledAt" = excluded."labelledAt", "source" = excluded."source", "responseHash" = excluded."responseHash"`;
const INSERT_REVISION = `INSERT INTO "HumanLabelRevision" ("id", "datasetId", "rowId", "metric", "chunkPosition", "revision", "action", "kind", "rating", "score", "reason", "labelledBy", "labelledAt", "source", "responseHash", "runId")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const CURRENT_LABEL = `SELECT "kind", "rating", "score", "reason", "statedBy", "responseHash" FROM "PersonLabel" WHERE "rowId" = ? AND "metric" = ? AND "chunkPosition" = ? AND "labeller" = ?`;
const NEXT_REVISION = `SELECT COALESCE(MAX("revision"), 0) + 1 AS "next" FROM "HumanLabelRevision" WHERE "rowId" = ? AND "metric" = ? AND "chunkPosition" = ?`;
/**
 * A row of the dataset, with the hash of the response a label given on it
 * judged: the named run's generated response when that run generates, else
 * the row's own (binds runId, which may be null, then rowId and datasetId).
 */
const ROW_OF_DATASET = `SELECT r."retrievedChunkCount" AS "chunks",
    CASE WHEN run."generationModel" IS NOT NULL
      THEN (SELECT g."responseHash" FROM "Generation" g WHERE g."runId" = run."id" AND g."rowId" = r."id" AND g."trial" = 1)
      ELSE r."responseHash" END AS "responseHash"
  FROM "DatasetRow" r LEFT JOIN "Run" run ON run."id" = ? AND run."datasetId" = r."datasetId"
  WHERE r."id" = ? AND r."datasetId" = ?`;

export class LabelTargetError extends Error {
  name = "LabelTargetError";
}

/**
 * Gives or changes labels on rows of one dataset, all in one transaction:
 * either every label is written or none is (an import with a bad row late in
 * the file leaves the store as it was). A label equal to the current one (same
 * value, same person) is not written again, so re-importing a file adds no
 * history. Returns how many labels changed. The transaction may run again
 * whole (PostgreSQL retries a serialization failure), so everything it
 * computes starts inside it.
 */
export async function writeLabels(
  db: Db,
  datasetId: string,
  rows: RowLabels[],
  author: LabelAuthor,
  readsResponse: ReadsResponse = CATALOGUE_READING,
): Promise<number> {
  const at = author.at ?? new Date();
  return sqlOf(db).transaction(async (tx) => {
    let changed = 0;
    for (const { rowId, entries } of rows) {
      const row = await tx.get<{ chunks: number; responseHash: string | null }>(ROW_OF_DATASET, [
        author.runId ?? null,
        rowId,
        datasetId,
      ]);
      if (!row) throw new LabelTargetError(`row ${rowId} is not in this dataset`);
      for (const { metric, chunkPosition, value, labelledBy: own, reason: given } of entries) {
        const labelledBy = own !== undefined ? own : author.labelledBy;
        if (chunkPosition >= row.chunks) {
          throw new LabelTargetError(`chunk ${chunkPosition} of ${metric}: the row has ${row.chunks} retrieved chunks`);
        }
        const rating = value.kind === "rating" ? value.rating : null;
        const score = value.kind === "score" ? value.score : null;
        // A label that did not read the response (a retrieval judge's, a chunk's) judged what every run shares.
        const responseHash = readsResponse(metric, chunkPosition) ? row.responseHash : null;
        const existing = await tx.get<{
          kind: string;
          rating: string | null;
          score: number | null;
          reason: string | null;
          statedBy: string | null;
          responseHash: string | null;
        }>(CURRENT_LABEL, [rowId, metric, chunkPosition, labelledBy ?? ""]);
        // No reason given (a label by keyboard) keeps the current reason of the same answer; an empty one clears it.
        const sameAnswer = existing?.kind === value.kind && existing.rating === rating && existing.score === score;
        const reason = given === undefined ? (sameAnswer ? (existing?.reason ?? null) : null) : given?.trim() || null;
        if (
          existing &&
          existing.kind === value.kind &&
          existing.rating === rating &&
          existing.score === score &&
          existing.reason === reason &&
          existing.statedBy === null &&
          existing.responseHash === responseHash
        ) {
          continue;
        }
        const next = await nextRevision(tx, rowId, metric, chunkPosition);
        await tx.run(UPSERT_LABEL, [
          orderedUuid(),
          datasetId,
          rowId,
          metric,
          chunkPosition,
          value.kind,
          rating,
          score,
          reason,
          labelledBy ?? "",
          at,
          author.source,
          responseHash,
        ]);
        await tx.run(INSERT_REVISION, [
          orderedUuid(),
          datasetId,
          rowId,
          metric,
          chunkPosition,
          next,
          "set",
          value.kind,
          rating,
          score,
          reason,
          labelledBy,
          at,
          author.source,
          responseHash,
          author.runId ?? null,
        ]);
        await refreshGoldLabels(tx, ONE_KEY, { rowId, metric, chunkPosition }, datasetId);
        changed += 1;
      }
    }
    return changed;
  });
}

async function nextRevision(tx: SqlRunner, rowId: string, metric: string, chunkPosition: number): Promise<number> {
  const row = await tx.get<{ next: number }>(NEXT_REVISION, [rowId, metric, chunkPosition]);
  return row?.next ?? 1;
}

/**
 * Removes the author's own label of a row's metric (and chunk), and refreshes the key's gold label; the
 * history keeps it and records the removal. Other people's labels of the key stay.
 */
export async function clearLabel(
  db: Db,
  key: { datasetId: string; rowId: string; metric: string; chunkPosition: number },
  author: LabelAuthor,
): Promise<boolean> {
  const at = author.at ?? new Date();
  const { datasetId, rowId, metric, chunkPosition } = key;
  return sqlOf(db).transaction(async (tx) => {
    const removed = await tx.run(
      `DELETE FROM "PersonLabel" WHERE "datasetId" = ? AND "rowId" = ? AND "metric" = ? AND "chunkPosition" = ? AND "labeller" = ?`,
      [datasetId, rowId, metric, chunkPosition, author.labelledBy ?? ""],
    );
    if (removed === 0) return false;
    const next = await nextRevision(tx, rowId, metric, chunkPosition);
    await tx.run(INSERT_REVISION, [
      orderedUuid(),
      datasetId,
      rowId,
      metric,
      chunkPosition,
      next,
      "cleared",
      null,
      null,
      null,
      null,
      author.labelledBy,
      at,
      author.source,
      null,
      author.runId ?? null,
    ]);
    await refreshGoldLabels(tx, ONE_KEY, { rowId, metric, chunkPosition } satisfies SqlParams, datasetId);
    return true;
  });
}

type LabelTableRow = (string | number | null)[];
type LabelTable = { table: string; columns: readonly string[]; rows: LabelTableRow[] };

const LABEL_COLUMNS = [
  "id",
  "datasetId",
  "rowId",
  "metric",
  "chunkPosition",
  "kind",
  "rating",
  "score",
  "labelledBy",
  "labelledAt",
  "source",
  "revision",
  "responseHash",
] as const;
const PERSON_COLUMNS = [
  "id",
  "datasetId",
  "rowId",
  "metric",
  "chunkPosition",
  "kind",
  "rating",
  "score",
  "labeller",
  "labelledAt",
  "source",
  "responseHash",
] as const;
const REVISION_COLUMNS = [
  "id",
  "datasetId",
  "rowId",
  "metric",
  "chunkPosition",
  "revision",
  "action",
  "kind",
  "rating",
  "score",
  "labelledBy",
  "labelledAt",
  "source",
  "responseHash",
] as const;

/**
 * The labels of freshly inserted rows (an upload's `human_labels` column) as
 * bulk-insert tables, so the dataset sink writes them in the same transaction
 * as their rows: `sqlOf(db).bulkInsert([rows, chunks, ...labelBulkTables(...)])`.
 * New rows have no history, so every label is revision 1, and one author's
 * label is both that person's and the gold label.
 */
export function labelBulkTables(
  datasetId: string,
  rows: RowLabels[],
  author: LabelAuthor,
  readsResponse: ReadsResponse = CATALOGUE_READING,
): LabelTable[] {
  // As text both stores read (PostgreSQL's timestamp columns take it as UTC), so either store's bulk writer takes the tables.
  const at = sqliteTimestamp(author.at ?? new Date());
  const labels: LabelTableRow[] = [];
  const people: LabelTableRow[] = [];
  const revisions: LabelTableRow[] = [];
  for (const { rowId, entries, responseHash: rowHash } of rows) {
    for (const { metric, chunkPosition, value } of entries) {
      const rating = value.kind === "rating" ? value.rating : null;
      const score = value.kind === "score" ? value.score : null;
      const responseHash = readsResponse(metric, chunkPosition) ? (rowHash ?? null) : null;
      const shared = [datasetId, rowId, metric, chunkPosition];
      labels.push([
        orderedUuid(),
        ...shared,
        value.kind,
        rating,
        score,
        author.labelledBy,
        at,
        author.source,
        1,
        responseHash,
      ]);
      people.push([
        orderedUuid(),
        ...shared,
        value.kind,
        rating,
        score,
        author.labelledBy ?? "",
        at,
        author.source,
        responseHash,
      ]);
      revisions.push([
        orderedUuid(),
        ...shared,
        1,
        "set",
        value.kind,
        rating,
        score,
        author.labelledBy,
        at,
        author.source,
        responseHash,
      ]);
    }
  }
  return [
    { table: "HumanLabel", columns: LABEL_COLUMNS, rows: labels },
    { table: "PersonLabel", columns: PERSON_COLUMNS, rows: people },
    { table: "HumanLabelRevision", columns: REVISION_COLUMNS, rows: revisions },
  ];
}
