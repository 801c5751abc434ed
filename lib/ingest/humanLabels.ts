import { resolveLabelMetric } from "@/lib/labels/labelKinds";
import type { LabelEntry } from "@/lib/contract/labelEntry";
import { labelEntriesFor } from "@/lib/labels/labelValue";
import type { RowIssue } from "./errors";
import { measureJsonValue, tooDeepMessage } from "./jsonShape";

/**
 * The optional `human_labels` column of an upload: an object from metric name
 * (short like "groundedness", or full) to a label: "yes"/"no" for yes/no
 * judges, a number in [0, 1] for score judges, a list with one "yes", "no"
 * or null per retrieved chunk for per-chunk judges:
 *
 *   {"groundedness": "no", "correctness": "yes", "chunk_relevance": ["yes", null, "no"]}
 *
 * In a CSV file the cell holds that object as JSON. Every problem is a row
 * issue in column human_labels, naming the metric; a row with one is not
 * imported, like any other invalid cell.
 */
export const HUMAN_LABELS_COLUMN = "human_labels";

type Where = { row: number; line: number; format: "json" | "csv" };

export function parseHumanLabels(
  cell: unknown,
  where: Where,
  retrievedChunkCount: number | null,
): { entries: LabelEntry[]; issues: RowIssue[] } {
  const issues: RowIssue[] = [];
  const issue = (message: string) =>
    issues.push({ row: where.row, line: where.line, column: HUMAN_LABELS_COLUMN, message });
  if (cell === undefined || cell === null || cell === "") return { entries: [], issues };

  let value = cell;
  if (typeof cell === "string") {
    try {
      value = JSON.parse(cell.trim());
    } catch {
      issue(`expected a JSON object from metric name to label, e.g. {"groundedness": "no"}`);
      return { entries: [], issues };
    }
  }
  if (measureJsonValue(value).tooDeep) {
    issue(tooDeepMessage());
    return { entries: [], issues };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    issue(`expected an object from metric name to label, e.g. {"groundedness": "no"}`);
    return { entries: [], issues };
  }

  const entries: LabelEntry[] = [];
  const seen = new Map<string, string>();
  for (const [name, label] of Object.entries(value)) {
    if (label === null) continue;
    const resolved = resolveLabelMetric(name);
    if ("error" in resolved) {
      issue(resolved.error);
      continue;
    }
    const earlier = seen.get(resolved.metric);
    if (earlier !== undefined) {
      issue(`"${name}" and "${earlier}" both name ${resolved.metric}; keep one`);
      continue;
    }
    seen.set(resolved.metric, name);
    const parsed = labelEntriesFor(resolved.metric, resolved.kind, label);
    if ("error" in parsed) {
      issue(parsed.error);
      continue;
    }
    if (resolved.kind === "chunk_rating" && Array.isArray(label) && retrievedChunkCount !== null) {
      if (label.length !== retrievedChunkCount) {
        issue(
          `${resolved.metric} has ${label.length} chunk labels but the row has ${retrievedChunkCount} retrieved chunks`,
        );
        continue;
      }
    }
    entries.push(...parsed.entries);
  }
  return { entries, issues };
}
