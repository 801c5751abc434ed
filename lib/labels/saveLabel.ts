import type { Db } from "@/lib/db/client";
import { clearLabel, LabelTargetError, writeLabels } from "@/lib/db/labelWrites";
import { datasetJudgeLabels } from "./datasetJudges";
import { describeLabelKind, resolveLabelMetric } from "./labelKinds";
import { labelEntriesFor, WHOLE_ROW } from "./labelValue";

/**
 * What the drill-down's label controls call (through a server action that
 * parses its form with zod): one label given, changed or cleared (value null)
 * on one row, checked against the metric's kind. Returns an error in words
 * instead of throwing, for the form to show.
 */
export type SaveLabelInput = {
  datasetId: string;
  rowId: string;
  metric: string;
  /** The chunk's 0-based position for a per-chunk metric; omitted for a whole-row label. */
  chunkPosition?: number;
  /** "yes"/"no", a score, or null to clear the label. */
  value: unknown;
  labelledBy: string | null;
  /** The run whose response the person read (its generated one when it generates); the dataset's when absent. */
  runId?: string | null;
};

export function saveRowLabel(
  db: Db,
  input: SaveLabelInput,
): { ok: true; changed: boolean } | { ok: false; error: string } {
  const resolved = resolveLabelMetric(input.metric, datasetJudgeLabels(db, input.datasetId));
  if ("error" in resolved) return { ok: false, error: resolved.error };
  const perChunk = resolved.kind === "chunk_rating";
  const position = input.chunkPosition ?? WHOLE_ROW;
  if (perChunk && (!Number.isInteger(position) || position < 0)) {
    return { ok: false, error: `${resolved.metric} is labelled per chunk: say which chunk` };
  }
  if (!perChunk && position !== WHOLE_ROW) return { ok: false, error: `${resolved.metric} is labelled per row` };
  const author = { labelledBy: input.labelledBy, source: "ui" as const, runId: input.runId ?? null };
  if (input.value === null) {
    const key = { datasetId: input.datasetId, rowId: input.rowId, metric: resolved.metric, chunkPosition: position };
    return { ok: true, changed: clearLabel(db, key, author) };
  }
  const parsed = labelEntriesFor(resolved.metric, perChunk ? "rating" : resolved.kind, input.value);
  if ("error" in parsed)
    return { ok: false, error: `expected ${describeLabelKind(perChunk ? "rating" : resolved.kind)}` };
  try {
    const entry = { ...parsed.entries[0], chunkPosition: position };
    const changed = writeLabels(db, input.datasetId, [{ rowId: input.rowId, entries: [entry] }], author);
    return { ok: true, changed: changed > 0 };
  } catch (error) {
    if (error instanceof LabelTargetError) return { ok: false, error: error.message };
    throw error;
  }
}
