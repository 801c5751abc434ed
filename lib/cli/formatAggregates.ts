import type { Aggregate } from "@/lib/contract/aggregates";

export type PrintedAggregate = Pick<
  Aggregate,
  "name" | "kind" | "value" | "numerator" | "denominator" | "errors" | "skipped" | "success"
>;

/** The aggregates as the CLI prints them, one line each (a score metric's success share on a second line). */
export function formatAggregates(aggregates: PrintedAggregate[]): string {
  const lines = aggregates.map((a) => {
    const value =
      a.value === null ? "n/a" : a.kind === "percentage" ? `${(a.value * 100).toFixed(1)}%` : a.value.toFixed(3);
    const basis = a.kind === "percentage" ? `${a.numerator}/${a.denominator} yes` : `${a.denominator} rows`;
    const line = `  ${a.name.padEnd(62)} ${value.padStart(9)}  ${basis}${a.errors ? `, ${a.errors} errors` : ""}${a.skipped ? `, ${a.skipped} skipped` : ""}`;
    if (!a.success) return line;
    // Score metrics (DeepEval, Mastra): the share of rows that met the metric's threshold, beside the average.
    const success = a.success.value === null ? "n/a" : `${(a.success.value * 100).toFixed(1)}%`;
    return `${line}\n  ${a.success.name.padEnd(62)} ${success.padStart(9)}  ${a.success.numerator}/${a.success.denominator} succeeded`;
  });
  return lines.join("\n");
}
