import type { Db } from "@/lib/db/client";
import { clearLabel, LabelTargetError, writeLabels } from "@/lib/db/labels/labelWrites";
import { readDatasetRunJudges, readRunDatasetId } from "@/lib/db/labels/labelQueries";
import { labelReadsResponse } from "@/lib/contract/responseReading";
import { describeLabelKind, resolveLabelMetric, runJudgeLabelMetrics } from "./labelKinds";
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
  /** Why, in the person's words; absent keeps the current reason of the same answer, "" clears it. */
  reason?: string;
};

export async function saveRowLabel(
  db: Db,
  input: SaveLabelInput,
): Promise<{ ok: true; changed: boolean } | { ok: false; error: string }> {
  // The run is written to the label's history as the one whose response was read: it must be of this dataset.
  if (input.runId && (await readRunDatasetId(db, input.runId)) !== input.datasetId) {
    return {
      ok: false,
      error: `run ${input.runId} is not a run of this dataset, so the label was not saved: open the row from one of the dataset's runs and label it there`,
    };
  }
  const judges = await readDatasetRunJudges(db, input.datasetId);
  const resolved = resolveLabelMetric(input.metric, runJudgeLabelMetrics(judges));
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
    return { ok: true, changed: await clearLabel(db, key, author) };
  }
  const parsed = labelEntriesFor(resolved.metric, perChunk ? "rating" : resolved.kind, input.value);
  if ("error" in parsed)
    return { ok: false, error: `expected ${describeLabelKind(perChunk ? "rating" : resolved.kind)}` };
  try {
    const entry = {
      ...parsed.entries[0],
      chunkPosition: position,
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
    };
    const changed = await writeLabels(
      db,
      input.datasetId,
      [{ rowId: input.rowId, entries: [entry] }],
      author,
      (metric, chunk) => labelReadsResponse(metric, chunk, judges),
    );
    return { ok: true, changed: changed > 0 };
  } catch (error) {
    if (error instanceof LabelTargetError) return { ok: false, error: error.message };
    throw error;
  }
}
