import type { Comparison } from "@/lib/compare/compareRuns";
import { formatPercent } from "./format";
import { categoryAxisWidth, chartMetricLabel, isProportionMetric, type MetricLabeller } from "./labels";
import { BASELINE_SERIES_COLOR, CANDIDATE_SERIES_COLORS } from "./palette";
import { barLabel, barProportion, proportionCaption, proportionText, type BarProportion } from "./proportion";

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
  /** What the bars and whiskers mean: only the kinds drawn. */
  caption: string;
  description: string;
};

const AXIS_HEIGHT = 40;
const BAR_HEIGHT = 13;
const GROUP_PADDING = 16;

/**
 * Grouped horizontal bars, one group per metric whose values are
 * proportions, one bar per run with the baseline first. Yes/no metrics carry
 * their 95% Wilson interval as an error bar, and so do the DeepEval and Mastra scores,
 * drawn as their success percentage (a share of rows, unlike their average
 * score, which the comparison table shows); averages (precision, recall) have none.
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
  const kinds = new Set<BarProportion["kind"]>();
  let anyLowerIsBetter = false;
  for (const metric of comparison.metrics) {
    if (!isProportionMetric(metric.metric)) continue;
    const proportions = series.map((s) => {
      const aggregate = metric.cells[s.runId]?.aggregate;
      return aggregate ? barProportion(aggregate) : null;
    });
    const first = proportions.find((p) => p !== null);
    if (!first) continue;
    const row: CompareRow = { metric: metric.metric, label: barLabel(labelFor(metric.metric), first) };
    kinds.add(first.kind);
    anyLowerIsBetter ||= first.lowerIsBetter;
    series.forEach((s, index) => {
      const proportion = proportions[index];
      if (!proportion) {
        row[s.valueKey] = null;
        row[s.errorKey] = null;
        row[s.textKey] = "—";
        return;
      }
      const { value, interval } = proportion;
      row[s.valueKey] = value * 100;
      row[s.errorKey] = interval ? [(value - interval.low) * 100, (interval.high - value) * 100] : null;
      row[s.textKey] =
        `${proportionText(proportion)}${interval ? ` · 95% CI ${formatPercent(interval.low)}–${formatPercent(interval.high)}` : ""}`;
    });
    rows.push(row);
  }
  return {
    series,
    rows,
    height: rows.length === 0 ? 0 : AXIS_HEIGHT + rows.length * (series.length * BAR_HEIGHT + GROUP_PADDING),
    labelWidth: categoryAxisWidth(rows.map((row) => row.label)),
    caption: proportionCaption(kinds, anyLowerIsBetter),
    description: rows
      .map((row) => `${row.label}: ${series.map((s) => `${s.name} ${row[s.textKey]}`).join(", ")}`)
      .join("; "),
  };
}
