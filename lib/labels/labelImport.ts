import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { findRowKeysByRequestIds, readDatasetRunJudges } from "@/lib/db/labels/labelQueries";
import {
  discardLabelImport,
  discardStaleLabelImports,
  promoteLabelImport,
  stageLabels,
  type StagedLabel,
} from "@/lib/db/labels/labelImportWrites";
import { FileError, type RowIssue } from "@/lib/ingest/errors";
import { DEFAULT_LIMITS, tooManyRowsMessage } from "@/lib/ingest/limits";
import { readCsv } from "@/lib/ingest/readers/readCsv";
import { readJsonArray } from "@/lib/ingest/readers/readJsonArray";
import { readJsonLines } from "@/lib/ingest/readers/readJsonLines";
import type { RawRecord } from "@/lib/ingest/readers/rawRecord";
import { datasetJudgeLabels } from "./datasetJudges";
import { responseReadingMetrics } from "@/lib/contract/responseReading";
import { labelRecordRequestIds, readLabelRecord, type LabelFileFormat } from "./labelFile";

export const MAX_LABEL_ROW_CHARS = 100_000;
/** Issues listed back; the rest are counted. */
const MAX_LISTED_ISSUES = 100;
/**
 * Records checked per batch (their rows looked up in one query) and labels
 * staged per transaction: each is a few milliseconds, and other requests run
 * between them.
 */
const STAGE_BATCH = 250;
/** A staged import older than this belonged to a server that died mid-import. */
const STALE_IMPORT_MS = 60 * 60 * 1000;

export type LabelImportResult =
  { ok: true; records: number; changed: number } | { ok: false; issues: RowIssue[]; issueCount: number };

export type LabelImportAuthor = {
  /**
   * Who imports, when sign-in is on: every label is credited to them, and the
   * file's labelled_by is kept as "stated by" (a file could name anyone). Null
   * with sign-in off: the file's labelled_by is who labelled, as it says.
   */
  importedBy: string | null;
  /**
   * An admin's import with sign-in on: the file's labelled_by is who labelled (several people's labels come
   * in at once), and a record without one is the importer's.
   */
  trustsLabelledBy?: boolean;
};

/**
 * Imports a label file into a dataset, all or nothing: every record is read
 * and checked (request_id known, metric labellable, label of the right kind,
 * chunk in range, each key once), and only a file without a single issue
 * changes anything; a file with issues gets every issue back with its row,
 * line and column.
 *
 * Memory and the event loop stay bounded whatever the file's size: records
 * stream, a batch of STAGE_BATCH records at a time has its request_ids looked
 * up in one query (no map of the dataset), and its checked labels are staged, each batch its own short
 * transaction, with other requests served between batches. The staged labels
 * become current in one final transaction (lib/db/labels/labelImportWrites.ts), so
 * the all-or-nothing guarantee holds without one long transaction over the
 * whole file; a failed import removes what it staged.
 */
export async function importLabelFile(
  db: Db,
  datasetId: string,
  texts: AsyncIterable<string>,
  format: LabelFileFormat,
  author: LabelImportAuthor,
  limits: { maxRecords: number } = { maxRecords: DEFAULT_LIMITS.maxRows },
): Promise<LabelImportResult> {
  const importId = randomUUID();
  await discardStaleLabelImports(db, STALE_IMPORT_MS);
  const runJudges = await datasetJudgeLabels(db, datasetId);
  const issues: RowIssue[] = [];
  let issueCount = 0;
  const report = (found: RowIssue[]) => {
    issueCount += found.length;
    for (const issue of found) if (issues.length < MAX_LISTED_ISSUES) issues.push(issue);
  };
  let pending: RawRecord[] = [];
  const stageBatch = async () => {
    const rows = await findRowKeysByRequestIds(
      db,
      datasetId,
      pending.flatMap((record) => ("issue" in record ? [] : labelRecordRequestIds(record))),
    );
    const batch: StagedLabel[] = [];
    for (const record of pending) {
      if ("issue" in record) {
        report([record.issue]);
        continue;
      }
      const read = readLabelRecord(record, rows, runJudges);
      if ("issues" in read) {
        report(read.issues);
        continue;
      }
      batch.push({
        fileRow: record.row,
        fileLine: record.line,
        rowId: read.rowId,
        entry: read.entry,
        labelledBy: author.trustsLabelledBy
          ? (read.labelledBy ?? author.importedBy)
          : (author.importedBy ?? read.labelledBy),
        statedBy: author.trustsLabelledBy || author.importedBy === null ? null : read.labelledBy,
      });
    }
    pending = [];
    const repeated = await stageLabels(db, importId, batch);
    report(
      repeated.map(({ fileRow, fileLine, firstRow }) => ({
        row: fileRow,
        line: fileLine,
        column: "label",
        message: `row ${firstRow} labels the same row, metric and chunk`,
      })),
    );
    // A body already buffered is read in microtasks alone: hand the event loop to other requests here.
    await new Promise((resolve) => setImmediate(resolve));
  };

  let records = 0;
  try {
    for await (const record of readerFor(format)(texts, MAX_LABEL_ROW_CHARS)) {
      records += 1;
      if (records > limits.maxRecords) throw new FileError(tooManyRowsMessage(null, limits.maxRecords));
      pending.push(record);
      if (pending.length >= STAGE_BATCH) await stageBatch();
    }
    if (pending.length > 0) await stageBatch();
    if (issueCount > 0) {
      await discardLabelImport(db, importId);
      // A label given twice is found when its batch is staged, after the issues of later records in that batch.
      issues.sort((a, b) => a.row - b.row);
      return { ok: false, issues, issueCount };
    }
    if (records === 0) return { ok: false, issues: [{ row: 0, message: "the file has no labels" }], issueCount: 1 };
    const reading = responseReadingMetrics(await readDatasetRunJudges(db, datasetId));
    const changed = await promoteLabelImport(db, datasetId, importId, new Date(), reading);
    return { ok: true, records, changed };
  } catch (error) {
    await discardLabelImport(db, importId).catch(() => undefined);
    throw error;
  }
}

function readerFor(format: LabelFileFormat): (texts: AsyncIterable<string>, max: number) => AsyncGenerator<RawRecord> {
  return format === "csv" ? readCsv : format === "json" ? readJsonArray : readJsonLines;
}
