import { IN_MEMORY_REQUEST_IDS } from "./spillingRequestIds";

/**
 * Upload limits. They bound server memory: a row is never buffered past
 * MAX_ROW_BYTES, and the whole file is never held at once.
 */
export type IngestLimits = {
  maxFileBytes: number;
  maxRowBytes: number;
  maxCellBytes: number;
  /** Errors beyond this are counted but not listed, so a broken 20,000-row file still answers quickly. */
  maxReportedErrors: number;
  /** A batch of rows is written when it reaches batchSize rows or batchBytes (approximate) bytes, whichever first. */
  batchSize: number;
  /** Default DEFAULT_LIMITS.batchBytes. */
  batchBytes?: number;
  /** An upload that receives no bytes for this long fails (0: never; default DEFAULT_LIMITS.idleTimeoutMs). */
  idleTimeoutMs?: number;
  /** Rows one upload may hold, whatever its format (ASSAY_MAX_UPLOAD_ROWS; default DEFAULT_LIMITS.maxRows). */
  maxRows?: number;
  /**
   * A Parquet row group is decoded whole, so its rows and its uncompressed
   * bytes are bounded, from the file's footer, before it is decoded: a few
   * hundred bytes of dictionary-encoded Parquet can otherwise decode to
   * millions of rows and hundreds of MB of heap
   * (ASSAY_MAX_PARQUET_ROW_GROUP_ROWS, ASSAY_MAX_PARQUET_ROW_GROUP_MB).
   */
  maxParquetRowGroupRows?: number;
  maxParquetRowGroupBytes?: number;
  /** Request ids held in memory before they move to a temporary file (spillingRequestIds.ts). */
  inMemoryRequestIds?: number;
  /**
   * Decoded bytes one upload may hold, whatever its format (ASSAY_MAX_UPLOAD_DECODED_MB; see decodedSize.ts
   * for how they are counted). Unset, DECODED_BYTES_PER_FILE_BYTE times maxFileBytes (maxDecodedBytesOf).
   */
  maxDecodedBytes?: number;
};

const MB = 1024 * 1024;

/**
 * How deeply a JSON value in one cell may nest (`[[...]]`, `{"a": {"a": ...}}`).
 * Agent Evaluation input values (chat messages, chunks, MLflow traces, whose spans are a flat
 * list) stay under 15 levels. Deeper values are rejected at upload so that no
 * recursive code after it (zod, JSON.stringify when rows are stored or
 * exported, rendering) can overflow the stack.
 */
export const MAX_JSON_NESTING_DEPTH = 64;

/**
 * The decoded limit when ASSAY_MAX_UPLOAD_DECODED_MB is unset, per byte of the upload limit. Text (JSON
 * Lines, JSON, CSV) decodes to no more than its own bytes, so it never meets a limit of twice the file's.
 * Parquet compresses, and a value its dictionary stores once decodes once for every row that repeats it:
 * twice the upload limit lets a Parquet file carry twice the data a JSON Lines upload may, while one that
 * decodes to thousands of times its size (a few KB to hundreds of MB) is refused. A larger, well-compressed
 * Parquet dataset needs ASSAY_MAX_UPLOAD_DECODED_MB raised.
 */
export const DECODED_BYTES_PER_FILE_BYTE = 2;

/**
 * The defaults. maxDecodedBytes is left out: it follows maxFileBytes (maxDecodedBytesOf), so a caller that
 * raises the upload limit (`{ ...DEFAULT_LIMITS, maxFileBytes }`) raises it too.
 */
export const DEFAULT_LIMITS: Required<Omit<IngestLimits, "maxDecodedBytes">> = {
  maxFileBytes: 64 * MB,
  maxRowBytes: 8 * MB,
  maxCellBytes: 2 * MB,
  maxReportedErrors: 500,
  batchSize: 500,
  // 500 rows of 8 MB each would be 4 GB in one batch; bytes bound a batch whatever its rows hold.
  batchBytes: 16 * MB,
  idleTimeoutMs: 30_000,
  // A 1,000,000-row evaluation set fits in JSONL, CSV or row-grouped Parquet, which all stream.
  maxRows: 1_000_000,
  // pyarrow's default row group (1,048,576 rows) is over this: such a file is refused with how to rewrite it.
  maxParquetRowGroupRows: 200_000,
  maxParquetRowGroupBytes: 64 * MB,
  inMemoryRequestIds: IN_MEMORY_REQUEST_IDS,
};

export function limitsFromEnv(env: Record<string, string | undefined> = process.env): IngestLimits {
  const mb = Number(env.ASSAY_MAX_UPLOAD_MB);
  const idleSeconds = Number(env.ASSAY_UPLOAD_IDLE_TIMEOUT_S);
  const rows = wholeNumber(env.ASSAY_MAX_UPLOAD_ROWS);
  const groupRows = wholeNumber(env.ASSAY_MAX_PARQUET_ROW_GROUP_ROWS);
  const groupMb = Number(env.ASSAY_MAX_PARQUET_ROW_GROUP_MB);
  const decodedMb = Number(env.ASSAY_MAX_UPLOAD_DECODED_MB);
  const limits = {
    ...DEFAULT_LIMITS,
    ...(Number.isFinite(mb) && mb > 0 ? { maxFileBytes: Math.round(mb * MB) } : {}),
    ...(Number.isFinite(idleSeconds) && idleSeconds > 0 ? { idleTimeoutMs: Math.round(idleSeconds * 1000) } : {}),
    ...(rows ? { maxRows: rows } : {}),
    ...(groupRows ? { maxParquetRowGroupRows: groupRows } : {}),
    ...(Number.isFinite(groupMb) && groupMb > 0 ? { maxParquetRowGroupBytes: Math.round(groupMb * MB) } : {}),
  };
  return {
    ...limits,
    maxDecodedBytes:
      Number.isFinite(decodedMb) && decodedMb > 0 ? Math.round(decodedMb * MB) : maxDecodedBytesOf(limits),
  };
}

/** The upload's decoded limit: as given, or DECODED_BYTES_PER_FILE_BYTE times its upload limit. */
export function maxDecodedBytesOf(limits: { maxFileBytes: number; maxDecodedBytes?: number }): number {
  return limits.maxDecodedBytes ?? DECODED_BYTES_PER_FILE_BYTE * limits.maxFileBytes;
}

function wholeNumber(value: string | undefined): number | null {
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : null;
}

/** 1,000,000 as people write it, for messages that name a limit. */
export function formatCount(count: number): string {
  return count.toLocaleString("en-US");
}

export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/** The refusal of an upload over ASSAY_MAX_UPLOAD_ROWS; `rows` null when it was stopped before its end. */
export function tooManyRowsMessage(rows: number | null, maxRows: number): string {
  const holds = rows === null ? `more than ${formatCount(maxRows)} rows` : `${formatCount(rows)} rows`;
  return `This file holds ${holds}; Assay reads at most ${formatCount(maxRows)} rows per upload (ASSAY_MAX_UPLOAD_ROWS). Split it into files of at most ${formatCount(maxRows)} rows and upload each as its own dataset.`;
}

/**
 * The refusal of an upload over ASSAY_MAX_UPLOAD_DECODED_MB: `rows` and their decoded bytes when a Parquet
 * row group was measured whole, null when a streamed file was stopped at the row that went over.
 */
export function tooMuchDecodedDataMessage(
  decoded: { rows: number; bytes: number } | null,
  maxDecodedBytes: number,
): string {
  const what =
    decoded === null
      ? `This file decodes to more than ${formatBytes(maxDecodedBytes)} of data`
      : `Rows 1–${formatCount(decoded.rows)} of this file decode to ${formatBytes(decoded.bytes)} (a value a Parquet dictionary stores once counts again for every row that repeats it)`;
  return `${what}; Assay reads at most ${formatBytes(maxDecodedBytes)} of decoded data per upload (ASSAY_MAX_UPLOAD_DECODED_MB). Split it into smaller files and upload each as its own dataset.`;
}
