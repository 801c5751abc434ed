import type { Db } from "@/lib/db/client";
import { readRowKeysByRequestId } from "@/lib/db/labelQueries";
import { writeLabels, type RowLabels } from "@/lib/db/labelWrites";
import type { RowIssue } from "@/lib/ingest/errors";
import { readCsv } from "@/lib/ingest/readers/readCsv";
import { readJsonArray } from "@/lib/ingest/readers/readJsonArray";
import { readJsonLines } from "@/lib/ingest/readers/readJsonLines";
import type { RawRecord } from "@/lib/ingest/readers/rawRecord";
import { datasetJudgeLabels } from "./datasetJudges";
import { readLabelRecord, type LabelFileFormat } from "./labelFile";

export const MAX_LABEL_ROW_CHARS = 100_000;
/** Issues listed back; the rest are counted. */
const MAX_LISTED_ISSUES = 100;

export type LabelImportResult =
  { ok: true; records: number; changed: number } | { ok: false; issues: RowIssue[]; issueCount: number };

/**
 * Imports a label file into a dataset, all or nothing: every record is read
 * and checked first (request_id known, metric labellable, label of the right
 * kind, chunk in range, each key once), and only a file without a single issue
 * is written, in one transaction. A file with issues changes nothing and gets
 * every issue back with its row, line and column.
 */
export async function importLabelFile(
  db: Db,
  datasetId: string,
  texts: AsyncIterable<string>,
  format: LabelFileFormat,
  author: { labelledBy: string | null },
): Promise<LabelImportResult> {
  const rowsByRequestId = readRowKeysByRequestId(db, datasetId);
  const runJudges = datasetJudgeLabels(db, datasetId);
  const issues: RowIssue[] = [];
  let issueCount = 0;
  const report = (found: RowIssue[]) => {
    issueCount += found.length;
    for (const issue of found) if (issues.length < MAX_LISTED_ISSUES) issues.push(issue);
  };
  const byRow = new Map<string, RowLabels>();
  const firstRowOfKey = new Map<string, number>();
  let records = 0;
  for await (const record of readerFor(format)(texts, MAX_LABEL_ROW_CHARS)) {
    records += 1;
    if ("issue" in record) {
      report([record.issue]);
      continue;
    }
    const read = readLabelRecord(record, rowsByRequestId, runJudges);
    if ("issues" in read) {
      report(read.issues);
      continue;
    }
    const key = `${read.rowId}\u0000${read.entry.metric}\u0000${read.entry.chunkPosition}`;
    const earlier = firstRowOfKey.get(key);
    if (earlier !== undefined) {
      report([
        {
          row: record.row,
          line: record.line,
          column: "label",
          message: `row ${earlier} labels the same row, metric and chunk`,
        },
      ]);
      continue;
    }
    firstRowOfKey.set(key, record.row);
    let labels = byRow.get(read.rowId);
    if (!labels) byRow.set(read.rowId, (labels = { rowId: read.rowId, entries: [] }));
    // The file's labelled_by when it gives one, else whoever imports.
    labels.entries.push({ ...read.entry, labelledBy: read.labelledBy ?? author.labelledBy });
  }
  if (issueCount > 0) return { ok: false, issues, issueCount };
  if (records === 0) {
    return { ok: false, issues: [{ row: 0, message: "the file has no labels" }], issueCount: 1 };
  }
  const changed = writeLabels(db, datasetId, [...byRow.values()], { labelledBy: author.labelledBy, source: "import" });
  return { ok: true, records, changed };
}

function readerFor(format: LabelFileFormat): (texts: AsyncIterable<string>, max: number) => AsyncGenerator<RawRecord> {
  return format === "csv" ? readCsv : format === "json" ? readJsonArray : readJsonLines;
}
