import { METRICS, type MetricFamily } from "@/lib/contract/metricCatalog";

/** Every canonical metric name in the catalogue: what stored configs, results and exports hold. */
export const ALL_METRICS = METRICS.map((metric) => metric.name);

/** A family's metric names, in catalogue order. */
export function metricsOfFamily(family: MetricFamily): string[] {
  return METRICS.filter((metric) => metric.family === family).map((metric) => metric.name);
}

/**
 * What `--judges all` (and no --judges) means: every Databricks judge and metric, as before the
 * score families existed, so a default run's cost does not grow by ten LLM metrics. The other
 * families are asked for by name (faithfulness, bleu, …) or by family (deepeval, mastra, statistical, agent).
 */
export const DEFAULT_METRICS = metricsOfFamily("databricks");

/** The Databricks suite: Agent Evaluation's judges and metrics, what `all` runs. */
export const BUILT_IN_METRICS = DEFAULT_METRICS;

export const FAMILY_NAMES: readonly MetricFamily[] = [
  "databricks",
  "deepeval",
  "mastra",
  "statistical",
  "agent",
  "conversation",
];

/**
 * Other names Agent Evaluation gives the same metrics. Its input schema's table of what each
 * input allows names the token counts after their aggregates
 * (agent/input_token_count/average) and chunk relevance after its precision.
 * Accepted wherever a metric is named (CLI --judges and --threshold, the run
 * form, run configs), always resolved to the canonical name before anything
 * is stored.
 */
export const METRIC_ALIASES: Readonly<Record<string, string>> = {
  "agent/input_token_count": "agent/total_input_token_count",
  "agent/output_token_count": "agent/total_output_token_count",
  "retrieval/llm_judged/chunk_relevance_precision": "retrieval/llm_judged/chunk_relevance",
};

const NAMES: [name: string, canonical: string][] = [
  ...ALL_METRICS.map((name): [string, string] => [name, name]),
  ...Object.entries(METRIC_ALIASES),
];

/**
 * A built-in metric's canonical name from any name people type: the full
 * name, its trailing segments (correctness, llm_judged/correctness), or an
 * alias in either form (input_token_count, agent/input_token_count).
 * null when the name is unknown or matches more than one metric.
 */
export function resolveMetricName(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return null;
  const exact = NAMES.find(([candidate]) => candidate === trimmed);
  if (exact) return exact[1];
  const matches = new Set(
    NAMES.filter(([candidate]) => candidate.endsWith(`/${trimmed}`)).map(([, canonical]) => canonical),
  );
  return matches.size === 1 ? [...matches][0] : null;
}

/** For error messages: the names to type, short first, then the aliases. */
export function describeKnownMetrics(): string {
  const short = ALL_METRICS.map((name) => name.split("/").pop()).join(", ");
  return `${short} (or the full names, e.g. ${ALL_METRICS[0]}; also ${Object.keys(METRIC_ALIASES).join(", ")})`;
}

/**
 * The names a list of judges stands for: "all" is DEFAULT_METRICS, a family name its metrics,
 * anything else one metric (resolveMetricName). null for an unknown name.
 */
export function expandMetricName(name: string): string[] | null {
  const trimmed = name.trim();
  if (trimmed === "all") return DEFAULT_METRICS;
  if ((FAMILY_NAMES as readonly string[]).includes(trimmed)) return metricsOfFamily(trimmed as MetricFamily);
  const resolved = resolveMetricName(trimmed);
  return resolved ? [resolved] : null;
}
