import type { CustomJudgeDefinition } from "@/lib/judges/types";
import { findMetric, INPUT_DESCRIPTIONS, type RowInput } from "./metricCatalog";

/** The stored flags of a dataset row that decide which metrics it allows. */
export type RowFlags = {
  hasResponse: boolean;
  hasExpectedResponse: boolean;
  hasExpectedFacts: boolean;
  hasRetrievedContext: boolean;
  hasRetrievedContent: boolean;
  hasExpectedRetrievedContext: boolean;
  totalTokenCount: number | null;
  latencySeconds: number | null;
};

export function rowHasInput(row: RowFlags, input: RowInput, generatesResponses: boolean): boolean {
  switch (input) {
    case "response": return generatesResponses || row.hasResponse;
    case "expected_response_or_facts": return row.hasExpectedResponse || row.hasExpectedFacts;
    case "retrieved_context_content": return row.hasRetrievedContent;
    case "retrieved_context_doc_uri": return row.hasRetrievedContext;
    case "expected_retrieved_context": return row.hasExpectedRetrievedContext;
    case "trace_tokens": return generatesResponses || row.totalTokenCount !== null;
    case "trace_latency": return generatesResponses || row.latencySeconds !== null;
  }
}

export function requirementsOf(metric: string, custom?: CustomJudgeDefinition): RowInput[] {
  if (custom) return custom.assessmentType === "ANSWER" ? ["response"] : ["retrieved_context_content"];
  return findMetric(metric)?.requires ?? [];
}

/** null when the row allows the metric; otherwise why it is skipped ("needs expected_response or expected_facts"). */
export function skipReason(row: RowFlags, requires: RowInput[], generatesResponses: boolean): string | null {
  const missing = requires.filter((input) => !rowHasInput(row, input, generatesResponses));
  return missing.length === 0 ? null : `needs ${missing.map((input) => INPUT_DESCRIPTIONS[input]).join(" and ")}`;
}
