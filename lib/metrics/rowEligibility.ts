import type { CustomJudgeDefinition } from "@/lib/contract/judgeDefinitions";
import { findMetric, INPUT_DESCRIPTIONS } from "@/lib/contract/metricCatalog";
import type { RowInput } from "@/lib/contract/metricDefinition";
import { rowHasInput, type RowFlags } from "@/lib/contract/rowInputs";

/** The reason a row is skipped by the judges that read chunk content, when one of its chunks has none (1-based, as the UI shows chunks). */
export function emptyChunkReason(position: number): string {
  return `retrieved chunk ${position + 1} has no content`;
}

export function requirementsOf(metric: string, custom?: CustomJudgeDefinition): RowInput[] {
  if (custom?.basedOn) return findMetric(custom.basedOn)?.requires ?? [];
  if (custom) return custom.assessmentType === "ANSWER" ? ["response"] : ["retrieved_context_content"];
  return findMetric(metric)?.requires ?? [];
}

/**
 * null when the row allows the metric; otherwise why it is skipped ("needs
 * expected_response or expected_facts", "retrieved chunk 3 has no content").
 */
export function skipReason(row: RowFlags, requires: RowInput[], generatesResponses: boolean): string | null {
  const missing = requires.filter((input) => !rowHasInput(row, input, generatesResponses));
  const emptyChunk =
    row.hasRetrievedContent && missing.includes("retrieved_context_content")
      ? (row.firstEmptyRetrievedChunk ?? null)
      : null;
  // A later turn of a session has a conversation: it is judged once, on the session's first turn.
  if (missing.includes("conversation") && row.inSession && !generatesResponses)
    return "judged with its conversation on the session's first turn";
  const absent = emptyChunk === null ? missing : missing.filter((input) => input !== "retrieved_context_content");
  const reasons = [
    ...(absent.length > 0 ? [`needs ${absent.map((input) => INPUT_DESCRIPTIONS[input]).join(" and ")}`] : []),
    ...(emptyChunk !== null ? [emptyChunkReason(emptyChunk)] : []),
  ];
  return reasons.length === 0 ? null : reasons.join("; ");
}
