import type { Comparison } from "@/lib/compare/compareRuns";
import { formatInteger, formatPercent } from "./format";
import { categoryAxisWidth, chartMetricLabel, isProportionMetric, type MetricLabeller } from "./labels";
import { BASELINE_SERIES_COLOR, CANDIDATE_SERIES_COLORS } from "./palette";

export type CompareSeries = {
  runId: string;
  name: string;
  baseline: boolean;
  color: string;
  /** Keys into each row: index-based, because recharts reads dotted data keys as paths. */
  valueKey: string;
  errorKey: string;
  textKey: string;
};

/** One row per metric: for series i, `s{i}` the percent (or null), `s{i}Error` its ErrorBar offsets, `s{i}Text` the tooltip text. */
export type CompareRow = { metric: string; label: string } & Record<string, string | number | [number, number] | null>;

export type CompareBarsData = {
  series: CompareSeries[];
  rows: CompareRow[];
  height: number;
  labelWidth: number;
  description: string;
};

const AXIS_HEIGHT = 36;
const BAR_HEIGHT = 11;
const GROUP_PADDING = 14;

/**
 * Grouped horizontal bars, one group per metric whose values are
 * proportions, one bar per run with the baseline first. Yes/no metrics carry
 * their 95% Wilson interval as an error bar; averages (precision, recall) have none.
 */
export function prepareCompareBars(
  comparison: Comparison,
  labelFor: MetricLabeller = chartMetricLabel,
): CompareBarsData {
  const ordered = [
    ...comparison.runs.filter((run) => run.id === comparison.baselineId),
    ...comparison.runs.filter((run) => run.id !== comparison.baselineId),
  ];
  const series = ordered.map((run, index): CompareSeries => ({
    runId: run.id,
    name: run.name,
    baseline: run.id === comparison.baselineId,
    color:
      run.id === comparison.baselineId
        ? BASELINE_SERIES_COLOR
        : CANDIDATE_SERIES_COLORS[(index - 1) % CANDIDATE_SERIES_COLORS.length],
    valueKey: `s${index}`,
    errorKey: `s${index}Error`,
    textKey: `s${index}Text`,
  }));

  const rows: CompareRow[] = [];
  for (const metric of comparison.metrics) {
    if (!isProportionMetric(metric.metric)) continue;
    const row: CompareRow = { metric: metric.metric, label: labelFor(metric.metric) };
    let any = false;
    for (const s of series) {
      const cell = metric.cells[s.runId];
      const value = cell?.aggregate?.value ?? null;
      if (value === null || !cell?.aggregate) {
        row[s.valueKey] = null;
        row[s.errorKey] = null;
        row[s.textKey] = "—";
        continue;
      }
      any = true;
      const aggregate = cell.aggregate;
      row[s.valueKey] = value * 100;
      row[s.errorKey] = cell.interval ? [(value - cell.interval.low) * 100, (cell.interval.high - value) * 100] : null;
      row[s.textKey] =
        aggregate.kind === "percentage"
          ? `${formatPercent(value)} yes (${formatInteger(aggregate.numerator)}/${formatInteger(aggregate.denominator)})${cell.interval ? ` · 95% CI ${formatPercent(cell.interval.low)}–${formatPercent(cell.interval.high)}` : ""}`
          : `${formatPercent(value)} mean over ${formatInteger(aggregate.denominator)} rows`;
    }
    if (any) rows.push(row);
  }
  return {
    series,
    rows,
    height: rows.length === 0 ? 0 : AXIS_HEIGHT + rows.length * (series.length * BAR_HEIGHT + GROUP_PADDING),
    labelWidth: categoryAxisWidth(rows.map((row) => row.label)),
    description: rows
      .map((row) => `${row.label}: ${series.map((s) => `${s.name} ${row[s.textKey]}`).join(", ")}`)
      .join("; "),
  };
}
