import type { ContextItem } from "@/lib/contract/normalizedRow";

/**
 * The deterministic metrics of Agent Evaluation's metric reference: no judge involved.
 *
 * document_recall = |expected doc_uris found among the retrieved chunks| / |expected doc_uris|,
 * by exact doc_uri, each expected document counted once. It ignores how many
 * chunks were retrieved (Agent Evaluation's judge reference).
 */
export function computeDocumentRecall(
  retrieved: ContextItem[],
  expected: ContextItem[],
): { score: number; rationale: string } | null {
  const expectedUris = [...new Set(expected.map((item) => item.docUri))];
  if (expectedUris.length === 0) return null;
  const retrievedUris = new Set(retrieved.map((item) => item.docUri));
  const found = expectedUris.filter((uri) => retrievedUris.has(uri));
  const missing = expectedUris.filter((uri) => !retrievedUris.has(uri));
  const rationale =
    `${found.length} of ${expectedUris.length} expected document${expectedUris.length === 1 ? "" : "s"} retrieved` +
    (missing.length > 0 ? `; missing: ${missing.join(", ")}` : "");
  return { score: found.length / expectedUris.length, rationale };
}

export type AgentFacts = {
  totalTokenCount: number | null;
  inputTokenCount: number | null;
  outputTokenCount: number | null;
  latencySeconds: number | null;
};

/** agent/* per-row values: from the trace, or from the run's own generation call. */
export function agentMetricValue(metric: string, facts: AgentFacts): number | null {
  switch (metric) {
    case "agent/total_token_count":
      return facts.totalTokenCount;
    case "agent/total_input_token_count":
      return facts.inputTokenCount;
    case "agent/total_output_token_count":
      return facts.outputTokenCount;
    case "agent/latency_seconds":
      return facts.latencySeconds;
    default:
      return null;
  }
}
