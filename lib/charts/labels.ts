import { isGEvalMetric } from "@/lib/contract/gEvalMetric";
import { isAgentValueMetric } from "@/lib/contract/aggregates";
import { findMetric } from "@/lib/contract/metricCatalog";

export type MetricLabeller = (metric: string) => string;

/**
 * A short label for a chart axis: the catalogue's label for built-in metrics,
 * the judge's own name for custom ones (axes have no room for the longer
 * "(custom answer judge)" wording the metric cards use).
 */
export function chartMetricLabel(metric: string): string {
  const name = metric.split("/").pop() ?? metric;
  const kind = /_aligned_v\d+$/.test(name) ? "aligned" : isGEvalMetric(metric) ? "G-Eval" : "custom";
  return findMetric(metric)?.label ?? `${name} (${kind})`;
}

/** Yes/no and score metrics whose values are proportions in [0, 1]; agent values are seconds, tokens and tool calls. */
export function isProportionMetric(metric: string): boolean {
  return !isAgentValueMetric(metric);
}

/** Pixels per character of the 12 px axis font (system sans), as CategoryTick wraps them. */
export const AXIS_CHAR_PX = 7;

/** Room for the longest label on a category axis, in pixels, at the 12 px tick font; longer labels wrap onto two lines. */
export function categoryAxisWidth(labels: string[], { min = 90, max = 220 } = {}): number {
  const longest = labels.reduce((n, label) => Math.max(n, label.length), 0);
  // ~7 px per character of the 12 px system font, plus the tick mark and margin recharts keeps.
  return Math.min(max, Math.max(min, Math.ceil(longest * AXIS_CHAR_PX) + 16));
}
