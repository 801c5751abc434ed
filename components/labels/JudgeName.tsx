import { MetricName } from "@/components/ui/MetricName";
import { isGEvalMetric } from "@/lib/contract/gEvalMetric";
import { findMetric } from "@/lib/contract/metricCatalog";

/**
 * A judge in an agreement table: its short name, and what kind it is when the name alone does not say:
 * a run's own judge (custom or G-Eval), judged per chunk.
 */
export function JudgeName({ metric, perChunk }: { metric: string; perChunk: boolean }) {
  const own = findMetric(metric) ? null : isGEvalMetric(metric) ? "G-Eval" : "custom";
  const notes = [own, perChunk ? "per chunk" : null].filter(Boolean).join(", ");
  return (
    <>
      <MetricName name={metric.split("/").pop() ?? metric} />
      {notes && <span className="ml-1 text-xs text-slate-500">({notes})</span>}
    </>
  );
}
