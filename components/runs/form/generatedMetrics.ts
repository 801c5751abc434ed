import type { MetricOption } from "./runFormTypes";

/**
 * The run form's choice when "Generate responses" is ticked or unticked. A generating run supplies what the
 * uploaded rows may lack: the response, and the generating model's latency and tokens on every row (the agent
 * metrics, from the generation call rather than a trace), which is what comparing two model versions needs.
 * So ticking it ticks the Databricks metrics that only the generation makes available (as the form ticks the
 * available Databricks suite by default); unticking it drops those the uploaded rows cannot give.
 */
export function metricsOnGenerateChange(
  selected: ReadonlySet<string>,
  generate: boolean,
  options: { asUploaded: MetricOption[]; withGeneration: MetricOption[] },
): Set<string> {
  const next = new Set(selected);
  const uploadedRows = new Map(options.asUploaded.map((metric) => [metric.name, metric.rows]));
  const onlyWithGeneration = (metric: MetricOption) => (uploadedRows.get(metric.name) ?? 0) === 0;
  if (generate) {
    for (const metric of options.withGeneration)
      if (metric.family === "databricks" && metric.rows > 0 && onlyWithGeneration(metric)) next.add(metric.name);
    return next;
  }
  for (const metric of options.asUploaded) if (metric.rows === 0) next.delete(metric.name);
  return next;
}
