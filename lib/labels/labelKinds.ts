import type { RunJudgeDefinitions } from "@/lib/contract/responseReading";
import { SCORE_METRIC_TEMPLATES } from "@/lib/judges/prompts/scoreMetrics";
import { METRICS, type MetricDefinition } from "@/lib/contract/metricCatalog";
import { describeKnownMetrics, resolveMetricName } from "@/lib/metrics/metricNames";
import { customMetricName } from "@/lib/contract/judgeDefinitions";
import { gEvalMetricName, isGEvalMetric } from "@/lib/contract/gEvalMetric";

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
 * A run's own judges as the labels see them (their definitions live in the
 * run, not the catalogue): a custom ANSWER judge gives yes/no per row
 * (rating), a custom RETRIEVAL judge yes/no per retrieved chunk (chunk_rating,
 * as chunk_relevance), a G-Eval judge a score in [0, 1] passed at its
 * threshold (score). `threshold` is the G-Eval definition's pass mark.
 */
export type RunJudgeLabel = LabelledMetric & { threshold: number | null };

export function runJudgeLabelMetrics(judges: RunJudgeDefinitions): RunJudgeLabel[] {
  return [
    ...judges.customJudges.map((judge): RunJudgeLabel => ({
      metric: customMetricName({
        assessmentName: judge.assessmentName,
        assessmentType: judge.assessmentType === "RETRIEVAL" ? "RETRIEVAL" : "ANSWER",
      }),
      kind: judge.assessmentType === "RETRIEVAL" ? "chunk_rating" : "rating",
      threshold: null,
    })),
    ...(judges.gEvalJudges ?? []).map((judge): RunJudgeLabel => ({
      metric: gEvalMetricName(judge),
      kind: "score",
      threshold: judge.threshold,
    })),
  ];
}

/** Every metric of one run that takes a label: its catalogue judges, then its custom and G-Eval judges. */
export function labellableRunMetrics(run: {
  config: { metrics: readonly string[]; gEvalJudges?: RunJudgeDefinitions["gEvalJudges"] };
  customJudges: RunJudgeDefinitions["customJudges"];
}): RunJudgeLabel[] {
  const catalogue = run.config.metrics.flatMap((metric): RunJudgeLabel[] => {
    const resolved = resolveLabelMetric(metric);
    return "error" in resolved ? [] : [{ ...resolved, threshold: null }];
  });
  return [
    ...catalogue,
    ...runJudgeLabelMetrics({ customJudges: run.customJudges, gEvalJudges: run.config.gEvalJudges }),
  ];
}

/**
 * A metric name as people type it (full, short like "groundedness", or an
 * alias) resolved to its full name and label kind, or an error in words.
 * `defined` holds the custom and G-Eval judges that runs on the dataset
 * define (by full name; their last segment works too when only one judge has
 * it and no catalogue metric does): those take labels as well, keyed by the
 * full name so every run defining the same judge shares them.
 */
export function resolveLabelMetric(
  name: string,
  defined: readonly LabelledMetric[] = [],
): LabelledMetric | { error: string } {
  const metric = resolveMetricName(name);
  if (!metric) return resolveRunJudge(name, defined);
  const definition = METRICS.find((candidate) => candidate.name === metric);
  const kind = definition ? labelKindOf(definition) : null;
  if (!kind) return { error: `${metric} is computed, not judged; it takes no human label` };
  return { metric, kind };
}

function resolveRunJudge(name: string, defined: readonly LabelledMetric[]): LabelledMetric | { error: string } {
  const trimmed = name.trim();
  const exact = defined.find((judge) => judge.metric === trimmed);
  if (exact) return { metric: exact.metric, kind: exact.kind };
  const byShortName = defined.filter((judge) => judge.metric.endsWith(`/${trimmed}`));
  if (byShortName.length === 1) return { metric: byShortName[0].metric, kind: byShortName[0].kind };
  if (byShortName.length > 1) {
    return {
      error: `"${trimmed}" names ${byShortName.map((judge) => judge.metric).join(" and ")}; give the full name`,
    };
  }
  if (looksLikeRunJudge(trimmed)) {
    return {
      error:
        `${trimmed} is not a judge of any run on this dataset: custom and G-Eval judges are defined by a run, ` +
        `so they take labels once a run on the dataset defines them (on the row page, or in a label file)` +
        (defined.length > 0 ? ` (defined: ${defined.map((judge) => judge.metric).join(", ")})` : ""),
    };
  }
  return {
    error:
      `unknown metric "${trimmed}"; known: ${describeKnownMetrics()}` +
      (defined.length > 0 ? `, or a judge of a run on this dataset: ${defined.map((j) => j.metric).join(", ")}` : ""),
  };
}

/** The shape of a custom (response|retrieval/llm_judged/<name>) or G-Eval metric name. */
function looksLikeRunJudge(name: string): boolean {
  return isGEvalMetric(name) || /^(response|retrieval)\/llm_judged\/[a-z][a-z0-9_]*$/.test(name);
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
