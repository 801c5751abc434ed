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

export const DEFAULT_LIMITS: Required<IngestLimits> = {
  maxFileBytes: 64 * MB,
  maxRowBytes: 8 * MB,
  maxCellBytes: 2 * MB,
  maxReportedErrors: 500,
  batchSize: 500,
  // 500 rows of 8 MB each would be 4 GB in one batch; bytes bound a batch whatever its rows hold.
  batchBytes: 16 * MB,
  idleTimeoutMs: 30_000,
};

export function limitsFromEnv(env: Record<string, string | undefined> = process.env): IngestLimits {
  const mb = Number(env.ASSAY_MAX_UPLOAD_MB);
  const idleSeconds = Number(env.ASSAY_UPLOAD_IDLE_TIMEOUT_S);
  return {
    ...DEFAULT_LIMITS,
    ...(Number.isFinite(mb) && mb > 0 ? { maxFileBytes: Math.round(mb * MB) } : {}),
    ...(Number.isFinite(idleSeconds) && idleSeconds > 0 ? { idleTimeoutMs: Math.round(idleSeconds * 1000) } : {}),
  };
}

export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
