import type { DatasetSink } from "@/lib/contract/datasetSink";
import { decodeUploadText, type ByteCounter } from "./decodeText";
import { describeRowIssue, FileError, type RowIssue } from "./errors";
import { detectFormat, type UploadFormat } from "./formats";
import {
  decideColumns,
  describeForeignReading,
  foreignWarnings,
  recordColumns,
  validateForeignRecord,
  type ForeignReading,
} from "./foreignColumns";
import { decodedBytes } from "./decodedSize";
import {
  DEFAULT_LIMITS,
  maxDecodedBytesOf,
  tooManyRowsMessage,
  tooMuchDecodedDataMessage,
  type IngestLimits,
} from "./limits";
import type { RawRecord } from "./readers/rawRecord";
import { readCsv } from "./readers/readCsv";
import { readJsonArray } from "./readers/readJsonArray";
import { readJsonLines } from "./readers/readJsonLines";
import { readParquet } from "./readers/readParquet";
import type { NormalizedRow } from "@/lib/contract/normalizedRow";
import { withIdleTimeout } from "./idleTimeout";
import { approximateRowBytes } from "./rowSize";
import { describeUnknownColumns } from "./unknownColumns";
import { noRequestColumnMessage } from "./uploadSummary";
import { newValidationState, REQUEST_REQUIRED, validateRecord } from "./validateRecord";

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
      /** Set when the file was read in another tool's format (or its columns could mean several): in words. */
      notice: string | null;
    }
  | {
      ok: false;
      fileError: string | null;
      issues: RowIssue[];
      issueCount: number;
      rowsRead: number;
      validRows: number;
      /** Rows with at least one problem: "9 problems in 8 of 10 rows". */
      rowsWithProblems: number;
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
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const maxDecodedBytes = maxDecodedBytesOf(limits);
  const counter: ByteCounter = { bytes: 0 };
  const warnings: string[] = [];
  const issues: RowIssue[] = [];
  let issueCount = 0;
  let rowsRead = 0;
  let decoded = 0;
  let validRows = 0;
  let rowsWithProblems = 0;
  // The same counts without "request is required": used when no row has a request column at all, which is
  // then said once for the file instead of once per row.
  const withoutMissingRequest = { issues: [] as RowIssue[], issueCount: 0, rowsWithProblems: 0 };
  const columnsSeen = { names: new Set<string>(), more: false, request: false, objects: 0 };
  let datasetId: string | null = null;
  let batch: NormalizedRow[] = [];
  let batchBytes = 0;

  const state = newValidationState(limits.inMemoryRequestIds);
  // Decided by the first record read (a CSV's header): another tool's columns, or the schema's own (null).
  let foreign: ForeignReading | null | undefined;
  // Set when the columns could mean several formats, so the file was read as the schema's own: said as the notice.
  let mixed: string | null = null;
  const notice = (): string | null => (foreign ? describeForeignReading(foreign) : mixed);
  // Unknown columns are reported once, at the end, in one bounded warning (first in the list).
  const withUnknownColumns = (): string[] => {
    const unknown = describeUnknownColumns(state.unknownColumns);
    const dictKeys = foreign ? foreignWarnings(foreign) : [];
    return [...(unknown ? [unknown] : []), ...dictKeys, ...warnings];
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
      rowsWithProblems,
      warnings: withUnknownColumns(),
      notice: notice(),
    };
  };

  try {
    const format = detectFormat(options.filename);
    const chunks = limits.idleTimeoutMs > 0 ? withIdleTimeout(options.chunks, limits.idleTimeoutMs) : options.chunks;
    const records =
      format === "parquet"
        ? readParquet(chunks, { ...limits, maxDecodedBytes }, counter)
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
      // Decoded bytes likewise, counted as each record arrives: before it is validated or joins a write batch.
      // A Parquet row group was already measured whole before its first row came (readParquet).
      if (!("issue" in record)) decoded += decodedBytes(record.value);
      if (decoded > maxDecodedBytes) throw new FileError(tooMuchDecodedDataMessage(null, maxDecodedBytes));
      if (foreign === undefined && !("issue" in record))
        ({ reading: foreign, mixed } = decideColumns(recordColumns(record), { complete: record.format !== "csv" }));
      if (!("issue" in record)) noteColumns(columnsSeen, record.value);
      const result =
        "issue" in record
          ? { row: null, issues: [record.issue] }
          : foreign
            ? validateForeignRecord(foreign, record, state, limits)
            : validateRecord(record, state, limits);
      let otherProblems = 0;
      for (const issue of result.issues) {
        issueCount += 1;
        if (issues.length < limits.maxReportedErrors) issues.push(issue);
        if (issue.column === "request" && issue.message === REQUEST_REQUIRED) continue;
        otherProblems += 1;
        if (withoutMissingRequest.issues.length < limits.maxReportedErrors) withoutMissingRequest.issues.push(issue);
      }
      if (result.issues.length > 0) rowsWithProblems += 1;
      withoutMissingRequest.issueCount += otherProblems;
      if (otherProblems > 0) withoutMissingRequest.rowsWithProblems += 1;
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
    // No record has a request column (after any mapping): one file-level message naming what is there, not one per row.
    if (!foreign && columnsSeen.objects > 0 && !columnsSeen.request) {
      issues.splice(0, issues.length, ...withoutMissingRequest.issues);
      ({ issueCount, rowsWithProblems } = withoutMissingRequest);
      return await failed(noRequestColumnMessage([...columnsSeen.names], columnsSeen.more));
    }
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
  } finally {
    state.requestIds.close();
  }
}

const COLUMNS_NAMED = 20;

/** Notes the columns a record has (the first few names, and whether any has `request`) for the no-request message. */
function noteColumns(seen: { names: Set<string>; more: boolean; request: boolean; objects: number }, value: unknown) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  seen.objects += 1;
  if (Object.hasOwn(value, "request")) seen.request = true;
  // A CSV's records all have the header's columns, and a wide JSON record may have thousands: stop at the first few.
  if (seen.names.size >= COLUMNS_NAMED && seen.more) return;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || seen.names.has(key)) continue;
    if (seen.names.size >= COLUMNS_NAMED) {
      seen.more = true;
      return;
    }
    seen.names.add(key);
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
