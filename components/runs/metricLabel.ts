import { isGEvalMetric } from "@/lib/contract/gEvalMetric";
import { findMetric } from "@/lib/contract/metricCatalog";

/** A metric's name for people: the catalogue's label, or what a run's own judge is (custom, G-Eval, aligned). */
export function metricLabel(metric: string): string {
  const known = findMetric(metric);
  if (known) return known.label;
  const name = metric.split("/").pop() ?? metric;
  // An aligned judge (lib/alignment/alignedDefinition.ts names it <original>_aligned_v<N>) says what it is.
  const aligned = /_aligned_v\d+$/.test(name) ? "aligned " : "";
  if (isGEvalMetric(metric)) return `${name} (${aligned}G-Eval)`;
  if (aligned) return `${name} (aligned judge)`;
  return `${name} (custom ${metric.startsWith("retrieval/") ? "retrieval" : "answer"} judge)`;
}
