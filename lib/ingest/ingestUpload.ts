import { decodeUploadText, type ByteCounter } from "./decodeText";
import { describeRowIssue, FileError, type RowIssue } from "./errors";
import { detectFormat, type UploadFormat } from "./formats";
import {
  describeForeignReading,
  detectForeignColumns,
  recordColumns,
  validateForeignRecord,
  type ForeignReading,
} from "./foreignColumns";
import { DEFAULT_LIMITS, tooManyRowsMessage, type IngestLimits } from "./limits";
import type { RawRecord } from "./readers/rawRecord";
import { readCsv } from "./readers/readCsv";
import { readJsonArray } from "./readers/readJsonArray";
import { readJsonLines } from "./readers/readJsonLines";
import { readParquet } from "./readers/readParquet";
import type { NormalizedRow } from "./types";
import { withIdleTimeout } from "./idleTimeout";
import { approximateRowBytes } from "./rowSize";
import { describeUnknownColumns } from "./unknownColumns";
import { newValidationState, validateRecord } from "./validateRecord";

/** Where validated rows go. The database implementation lives in lib/db; tests may pass their own. */
export type DatasetSink = {
  begin(meta: { name: string; sourceFilename: string; sourceFormat: UploadFormat }): Promise<string>;
  writeRows(datasetId: string, rows: NormalizedRow[]): Promise<void>;
  commit(datasetId: string, summary: { rowCount: number; warnings: string[] }): Promise<void>;
  discard(datasetId: string): Promise<void>;
};

/** strict: any row error stores nothing. validRowsOnly: store the valid rows, list the skipped ones. */
export type ImportMode = "strict" | "validRowsOnly";

export type IngestProgress = { bytes: number; rows: number; issues: number };

export type IngestResult =
  | {
      ok: true;
      datasetId: string;
      rowCount: number;
      skippedRows: number;
      warnings: string[];
      issues: RowIssue[];
      issueCount: number;
      /** Set when the file was read as DeepEval or Ragas columns: the format and each mapping, in words. */
      notice: string | null;
    }
  | {
      ok: false;
      fileError: string | null;
      issues: RowIssue[];
      issueCount: number;
      rowsRead: number;
      validRows: number;
      warnings: string[];
      notice: string | null;
    };

export type IngestOptions = {
  chunks: AsyncIterable<Uint8Array>;
  filename: string;
  name?: string;
  mode: ImportMode;
  sink: DatasetSink;
  limits?: IngestLimits;
  onProgress?: (progress: IngestProgress) => void;
};

/**
 * Streams an uploaded file into a dataset: decode, read records, validate,
 * and write in batches. The dataset stays invisible ("importing") until
 * commit, and is discarded on any failure, so nothing is ever half-written.
 */
export async function ingestUpload(options: IngestOptions): Promise<IngestResult> {
  const limits: Required<IngestLimits> = { ...DEFAULT_LIMITS, ...options.limits };
  const counter: ByteCounter = { bytes: 0 };
  const warnings: string[] = [];
  const issues: RowIssue[] = [];
  let issueCount = 0;
  let rowsRead = 0;
  let validRows = 0;
  let datasetId: string | null = null;
  let batch: NormalizedRow[] = [];
  let batchBytes = 0;

  const state = newValidationState();
  // Decided by the first record read (a CSV's header): DeepEval or Ragas columns, or the schema's own (null).
  let foreign: ForeignReading | null | undefined;
  const notice = (): string | null => (foreign ? describeForeignReading(foreign) : null);
  // Unknown columns are reported once, at the end, in one bounded warning (first in the list).
  const withUnknownColumns = (): string[] => {
    const unknown = describeUnknownColumns(state.unknownColumns);
    return unknown ? [unknown, ...warnings] : warnings;
  };

  const failed = async (fileError: string | null): Promise<IngestResult> => {
    if (datasetId) await options.sink.discard(datasetId);
    return {
      ok: false,
      fileError,
      issues,
      issueCount,
      rowsRead,
      validRows,
      warnings: withUnknownColumns(),
      notice: notice(),
    };
  };

  try {
    const format = detectFormat(options.filename);
    const chunks = limits.idleTimeoutMs > 0 ? withIdleTimeout(options.chunks, limits.idleTimeoutMs) : options.chunks;
    const records =
      format === "parquet"
        ? readParquet(chunks, limits, counter)
        : readRecords(format, decodeUploadText(chunks, limits.maxFileBytes, counter), limits.maxRowBytes);
    datasetId = await options.sink.begin({
      name: datasetName(options),
      sourceFilename: options.filename,
      sourceFormat: format,
    });

    for await (const record of records) {
      rowsRead += 1;
      // Stops the stream at the first row over the limit (the reader closes), and the import is discarded.
      if (rowsRead > limits.maxRows) throw new FileError(tooManyRowsMessage(null, limits.maxRows));
      if (foreign === undefined && !("issue" in record))
        foreign = detectForeignColumns(recordColumns(record), { complete: record.format !== "csv" });
      const result =
        "issue" in record
          ? { row: null, issues: [record.issue] }
          : foreign
            ? validateForeignRecord(foreign, record, state, limits)
            : validateRecord(record, state, limits);
      for (const issue of result.issues) {
        issueCount += 1;
        if (issues.length < limits.maxReportedErrors) issues.push(issue);
      }
      if (!result.row) continue;
      validRows += 1;
      // In strict mode a row error means nothing will be kept; stop writing, keep reading to list every error.
      if (options.mode === "strict" && issueCount > 0) continue;
      const rowBytes = approximateRowBytes(result.row);
      // Written before this row when it would take the batch past its byte bound (a batch always holds one row).
      if (batch.length > 0 && batchBytes + rowBytes > limits.batchBytes) {
        await options.sink.writeRows(datasetId, batch);
        batch = [];
        batchBytes = 0;
      }
      batch.push(result.row);
      batchBytes += rowBytes;
      if (batch.length >= limits.batchSize) {
        await options.sink.writeRows(datasetId, batch);
        batch = [];
        batchBytes = 0;
        options.onProgress?.({ bytes: counter.bytes, rows: rowsRead, issues: issueCount });
      }
    }
    if (rowsRead === 0) return await failed("The file has no rows.");
    if (options.mode === "strict" && issueCount > 0) return await failed(null);
    if (validRows === 0) return await failed("No row is valid, so nothing was imported.");
    if (batch.length > 0) await options.sink.writeRows(datasetId, batch);
    const skippedRows = rowsRead - validRows;
    if (skippedRows > 0)
      warnings.push(`${skippedRows} invalid row${skippedRows === 1 ? " was" : "s were"} skipped at upload.`);
    const allWarnings = withUnknownColumns();
    // The dataset page keeps saying how a foreign file was read, first among its notes.
    const readAs = notice();
    await options.sink.commit(datasetId, {
      rowCount: validRows,
      warnings: readAs ? [readAs, ...allWarnings] : allWarnings,
    });
    options.onProgress?.({ bytes: counter.bytes, rows: rowsRead, issues: issueCount });
    return {
      ok: true,
      datasetId,
      rowCount: validRows,
      skippedRows,
      warnings: allWarnings,
      issues,
      issueCount,
      notice: readAs,
    };
  } catch (error) {
    if (error instanceof FileError) return await failed(error.message);
    if (datasetId) await options.sink.discard(datasetId).catch(() => undefined);
    throw error;
  }
}

function readRecords(
  format: Exclude<UploadFormat, "parquet">,
  texts: AsyncIterable<string>,
  maxRowChars: number,
): AsyncIterable<RawRecord> {
  if (format === "csv") return readCsv(texts, maxRowChars);
  if (format === "json") return readJsonArray(texts, maxRowChars);
  return readJsonLines(texts, maxRowChars);
}

function datasetName(options: IngestOptions): string {
  const given = options.name?.trim();
  if (given) return given.slice(0, 200);
  return options.filename.replace(/\.[^.]+$/, "").slice(0, 200) || "Untitled dataset";
}

export { describeRowIssue };
