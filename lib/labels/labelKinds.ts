import { SCORE_METRIC_TEMPLATES } from "@/lib/judges/prompts/scoreMetrics";
import { METRICS, type MetricDefinition } from "@/lib/metrics/metricCatalog";
import { describeKnownMetrics, resolveMetricName } from "@/lib/metrics/metricNames";

/**
 * What a person gives for a metric, decided from the catalogue alone so that
 * metrics added to it later get the right kind without an edit here:
 * - chunk_rating: yes/no per retrieved chunk, for per-chunk judges (chunk_relevance);
 * - score: a number in [0, 1], for judges that return a score (DeepEval-style
 *   metrics with a threshold, G-Eval), recognised by a score-ish field on the
 *   catalogue entry or by a score prompt template for the metric;
 * - rating: yes/no, for the other LLM-judged metrics.
 * Deterministic metrics (ground_truth document_recall, agent/*) have nothing for a
 * person to judge: null.
 */
export type LabelKind = "rating" | "score" | "chunk_rating";

/** Fields a catalogue entry may carry to say it is scored (the score metrics' entries are added by another change). */
const SCORE_FIELDS = ["threshold", "defaultThreshold", "scoreRange", "passMark"] as const;

export function labelKindOf(definition: MetricDefinition): LabelKind | null {
  // Judged by an LLM, by its kind or by the contract's name (a family added with a kind of its own still says llm_judged).
  if (definition.kind !== "llm_judged" && !definition.name.includes("/llm_judged/")) return null;
  if (definition.perChunk) return "chunk_rating";
  const fields = definition as unknown as Record<string, unknown>;
  const scored =
    SCORE_FIELDS.some((field) => fields[field] !== undefined) ||
    fields.output === "score" ||
    fields.valueKind === "score" ||
    fields.score === true ||
    SCORE_METRIC_TEMPLATES[definition.name] !== undefined;
  return scored ? "score" : "rating";
}

export type LabelledMetric = { metric: string; kind: LabelKind };

/** Every catalogue metric a person can label, with its kind. */
export function labellableMetrics(): LabelledMetric[] {
  return METRICS.flatMap((definition) => {
    const kind = labelKindOf(definition);
    return kind ? [{ metric: definition.name, kind }] : [];
  });
}

/**
 * A metric name as people type it (full, short like "groundedness", or an
 * alias) resolved to its full name and label kind, or an error in words.
 */
export function resolveLabelMetric(name: string): LabelledMetric | { error: string } {
  const metric = resolveMetricName(name);
  if (!metric) return { error: `unknown metric "${name}"; known: ${describeKnownMetrics()}` };
  const definition = METRICS.find((candidate) => candidate.name === metric);
  const kind = definition ? labelKindOf(definition) : null;
  if (!kind) return { error: `${metric} is computed, not judged; it takes no human label` };
  return { metric, kind };
}

/** The words for a kind in error messages. */
export function describeLabelKind(kind: LabelKind): string {
  switch (kind) {
    case "rating":
      return '"yes" or "no"';
    case "score":
      return "a number from 0 to 1";
    case "chunk_rating":
      return 'a list with "yes", "no" or null per retrieved chunk';
  }
}
