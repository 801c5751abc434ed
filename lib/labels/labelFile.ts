import type { Db } from "@/lib/db/client";
import { streamDatasetLabels, type LabelWithRow, type RowKey } from "@/lib/db/labels/labelQueries";
import { csvLine } from "@/lib/export/csv";
import type { RowIssue } from "@/lib/ingest/errors";
import { resolveLabelMetric, type LabelledMetric } from "./labelKinds";
import { type LabelEntry, MAX_LABEL_REASON_CHARS } from "@/lib/contract/labelEntry";
import { labelEntriesFor, WHOLE_ROW } from "./labelValue";

/**
 * Labels on their own, as a file keyed by request_id: one record per label.
 *
 *   request_id,metric,chunk_position,label,labelled_by,labelled_at,stated_by,reason
 *   q-17,response/llm_judged/groundedness,,no,alice,2026-11-22T17:00:00.000Z,,cites a year the context lacks
 *   q-17,retrieval/llm_judged/chunk_relevance,2,yes,alice,2026-11-22T17:00:00.000Z,bob,
 *   q-18,response/llm_judged/faithfulness,,0.75,,,,
 *
 * chunk_position is empty for a whole-row label and the 0-based chunk for a
 * per-chunk metric; label is yes/no or a score in [0, 1]. The same keys in a
 * JSON array (or JSON Lines) of objects. Export writes full metric names; an
 * import also takes short ones. labelled_at is informative: an import stamps
 * its own time. With sign-in off the file's labelled_by is who labelled; with
 * sign-in on the importer is, and the file's labelled_by is kept as stated_by
 * (what the export's stated_by column shows; an import does not read it).
 * reason is optional: why, in the labeller's words (an aligned judge's example
 * shows it), at most 2,000 characters.
 */
export const LABEL_FILE_COLUMNS = [
  "request_id",
  "metric",
  "chunk_position",
  "label",
  "labelled_by",
  "labelled_at",
  "stated_by",
  "reason",
] as const;
export type LabelFileFormat = "csv" | "json" | "jsonl";

export type LabelFileRecord = {
  request_id: string;
  metric: string;
  chunk_position: number | null;
  label: string | number;
  labelled_by: string | null;
  labelled_at: string;
  stated_by: string | null;
  reason: string | null;
};

export function toLabelFileRecord(label: LabelWithRow): LabelFileRecord {
  return {
    request_id: label.requestId,
    metric: label.metric,
    chunk_position: label.chunkPosition === WHOLE_ROW ? null : label.chunkPosition,
    label: label.kind === "score" ? (label.score ?? "") : (label.rating ?? ""),
    labelled_by: label.labelledBy,
    labelled_at: new Date(label.labelledAt).toISOString(),
    stated_by: label.statedBy,
    reason: label.reason,
  };
}

/** A dataset's current labels as file text, piece by piece (rows read in ranges). */
export async function* labelFilePieces(db: Db, datasetId: string, format: LabelFileFormat): AsyncGenerator<string> {
  if (format === "csv") yield csvLine([...LABEL_FILE_COLUMNS]);
  if (format === "json") yield "[";
  let first = true;
  for await (const label of streamDatasetLabels(db, datasetId)) {
    const record = toLabelFileRecord(label);
    if (format === "csv") yield csvLine(LABEL_FILE_COLUMNS.map((column) => record[column]));
    else if (format === "jsonl") yield `${JSON.stringify(record)}\n`;
    else yield `${first ? "\n" : ",\n"}${JSON.stringify(record)}`;
    first = false;
  }
  if (format === "json") yield "\n]\n";
}

/** A cell of a record as text: "" when absent, null when it is neither text nor a number. */
function cellText(cells: Record<string, unknown>, column: string): string | null {
  const cell = cells[column];
  if (cell === undefined || cell === null) return "";
  return typeof cell === "string" ? cell.trim() : typeof cell === "number" ? String(cell) : null;
}

/**
 * The request_ids readLabelRecord will look a record's row up by (the id as
 * written, and without the quote a CSV export adds against spreadsheet
 * formulas): what an import fetches for a batch of records at once.
 */
export function labelRecordRequestIds(record: { value: unknown }): string[] {
  const { value } = record;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
  const requestId = cellText(value as Record<string, unknown>, "request_id");
  if (!requestId) return [];
  return requestId.startsWith("'") ? [requestId, requestId.slice(1)] : [requestId];
}

/** One imported record checked against the dataset: the row's id and its label, or issues naming row and column. */
export function readLabelRecord(
  record: { row: number; line: number; value: unknown },
  rowsByRequestId: { get(requestId: string): RowKey | undefined },
  /** The custom and G-Eval judges runs on the dataset define (lib/labels/datasetJudges.ts). */
  runJudges: readonly LabelledMetric[] = [],
): { rowId: string; entry: LabelEntry; labelledBy: string | null } | { issues: RowIssue[] } {
  const issues: RowIssue[] = [];
  const issue = (column: string | undefined, message: string) =>
    issues.push({ row: record.row, line: record.line, ...(column ? { column } : {}), message });
  const value = record.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    issue(undefined, `expected an object with ${LABEL_FILE_COLUMNS.slice(0, 4).join(", ")}`);
    return { issues };
  }
  const cells = value as Record<string, unknown>;
  const text = (column: string) => cellText(cells, column);

  const requestId = text("request_id");
  let row: RowKey | undefined;
  if (!requestId) issue("request_id", "request_id is required");
  else {
    // An id the CSV export neutralised against spreadsheet formulas ('=x) still finds its row.
    row =
      rowsByRequestId.get(requestId) ??
      (requestId.startsWith("'") ? rowsByRequestId.get(requestId.slice(1)) : undefined);
    if (!row) issue("request_id", `no row of this dataset has request_id "${requestId}"`);
  }

  const metricName = text("metric");
  const resolved = metricName ? resolveLabelMetric(metricName, runJudges) : { error: "metric is required" };
  if ("error" in resolved) issue("metric", resolved.error);

  const positionText = text("chunk_position");
  let position = WHOLE_ROW;
  if (positionText === null || (positionText !== "" && !/^\d+$/.test(positionText))) {
    issue("chunk_position", "chunk_position must be empty or a whole number from 0");
  } else if (positionText !== "") position = Number(positionText);
  if (!("error" in resolved)) {
    if (resolved.kind === "chunk_rating" && position === WHOLE_ROW && positionText !== null) {
      issue("chunk_position", `${resolved.metric} is labelled per chunk: give the chunk's position (0 is the first)`);
    }
    if (resolved.kind !== "chunk_rating" && position !== WHOLE_ROW) {
      issue("chunk_position", `${resolved.metric} is labelled per row: leave chunk_position empty`);
    }
    if (row && position !== WHOLE_ROW && position >= row.retrievedChunkCount) {
      issue("chunk_position", `the row has ${row.retrievedChunkCount} retrieved chunks (positions from 0)`);
    }
  }

  const labelledBy = text("labelled_by");
  if (labelledBy === null || labelledBy.length > 200)
    issue("labelled_by", "labelled_by must be text of at most 200 characters");
  const reason = text("reason");
  if (reason === null || reason.length > MAX_LABEL_REASON_CHARS)
    issue("reason", `reason must be text of at most ${MAX_LABEL_REASON_CHARS.toLocaleString("en-US")} characters`);

  let entry: LabelEntry | null = null;
  if (!("error" in resolved)) {
    const kind = resolved.kind === "chunk_rating" ? "rating" : resolved.kind;
    const parsed = labelEntriesFor(resolved.metric, kind, cells.label);
    if ("error" in parsed) issue("label", parsed.error);
    else entry = { ...parsed.entries[0], chunkPosition: position, ...(reason ? { reason } : {}) };
  }
  if (issues.length > 0 || !row || !entry) return { issues };
  return { rowId: row.rowId, entry, labelledBy: labelledBy || null };
}

/** The format of an uploaded label file from its content type, else from its first character. */
export function labelFileFormatOf(contentType: string | null, firstText: string): LabelFileFormat {
  const type = (contentType ?? "").toLowerCase();
  if (type.includes("csv")) return "csv";
  if (type.includes("ndjson") || type.includes("jsonl")) return "jsonl";
  const first = firstText.trimStart()[0];
  if (first === "[") return "json";
  if (first === "{") return "jsonl";
  return "csv";
}
