import type { Aggregate } from "@/lib/contract/aggregates";
import { formatInteger, formatPercent, formatScore } from "./format";
import { categoryAxisWidth, chartMetricLabel, isProportionMetric, type MetricLabeller } from "./labels";
import { CHART_COLORS } from "./palette";
import { barLabel, barProportion, proportionCaption, type BarProportion } from "./proportion";

export type ValueBand = "good" | "fair" | "poor";

/** Bands for a yes-rate, success rate or mean: at or above 80% reads as good, 60% as fair, anything lower as poor. */
export const VALUE_BANDS: { band: ValueBand; min: number; label: string; color: string }[] = [
  { band: "good", min: 0.8, label: "≥ 80%", color: CHART_COLORS.good },
  { band: "fair", min: 0.6, label: "60–80%", color: CHART_COLORS.fair },
  { band: "poor", min: 0, label: "< 60%", color: CHART_COLORS.poor },
];

export function valueBand(value: number): (typeof VALUE_BANDS)[number] {
  return VALUE_BANDS.find((band) => value >= band.min) ?? VALUE_BANDS[VALUE_BANDS.length - 1];
}

export type PassRateBar = {
  metric: string;
  label: string;
  kind: BarProportion["kind"];
  lowerIsBetter: boolean;
  /** The yes-rate, success rate or mean in percent (0–100). */
  percent: number;
  /** ErrorBar offsets below and above `percent`, in percentage points: the 95% Wilson interval. Null for means. */
  error: [number, number] | null;
  band: ValueBand;
  /** Read by recharts as the bar's fill. */
  fill: string;
  /** Tooltip lines with the exact numbers. */
  valueText: string;
  basisText: string;
  intervalText: string | null;
  /** For a score: its average on the 0–1 scale and its direction, which the bar itself does not show. */
  scoreText: string | null;
  errorsText: string | null;
};

export type PassRateChartData = {
  bars: PassRateBar[];
  /** Card title and subtitle: "Success rate" when every bar is a score's success rate. */
  title: string;
  subtitle: string;
  /** Chart height in pixels: a row per bar plus the axis, never shorter than MIN_HEIGHT. */
  height: number;
  /** Bar thickness: thicker when there are few bars, so one bar does not look like a sliver. */
  barSize: number;
  /** Category axis width in pixels, sized to the longest label. */
  labelWidth: number;
  legend: { label: string; color: string }[];
  /** What the bars and whiskers mean, for the caption under the chart. */
  caption: string;
  /** Accessible summary of every bar, for the SVG's description. */
  description: string;
};

const ROW_HEIGHT = 34;
const AXIS_HEIGHT = 40;
/** One or two bars still get a chart of a readable height that fills its card beside the usage table. */
const MIN_HEIGHT = 150;

/**
 * One horizontal bar per metric that has a value: the percentage of yes for
 * yes/no judges, the success percentage for the DeepEval and Mastra scores (their
 * average is not a percentage and is drawn on its 0–1 scale in the score
 * histograms), the mean for precision and recall. Agent metrics (seconds,
 * tokens) are not proportions and get histograms instead.
 */
export function preparePassRateChart(
  aggregates: Aggregate[],
  labelFor: MetricLabeller = chartMetricLabel,
): PassRateChartData {
  const bars: PassRateBar[] = [];
  for (const aggregate of aggregates) {
    if (!isProportionMetric(aggregate.metric)) continue;
    const proportion = barProportion(aggregate);
    if (!proportion) continue;
    const { value, interval, kind } = proportion;
    const band = valueBand(value);
    bars.push({
      metric: aggregate.metric,
      label: barLabel(labelFor(aggregate.metric), proportion),
      kind,
      lowerIsBetter: proportion.lowerIsBetter,
      percent: value * 100,
      error: interval ? [(value - interval.low) * 100, (interval.high - value) * 100] : null,
      band: band.band,
      fill: band.color,
      valueText: `${formatPercent(value)} ${kind === "success" ? "succeed" : kind}`,
      basisText:
        kind === "mean"
          ? `averaged over ${formatInteger(proportion.denominator)} rows`
          : `${formatInteger(proportion.numerator)} of ${formatInteger(proportion.denominator)} ${kind === "success" ? "scored rows" : "judged rows"}`,
      intervalText: interval ? `95% CI ${formatPercent(interval.low)}–${formatPercent(interval.high)}` : null,
      scoreText:
        kind === "success" && aggregate.value !== null
          ? `average score ${formatScore(aggregate.value)}${proportion.lowerIsBetter ? " (lower is better)" : ""}`
          : null,
      errorsText:
        aggregate.errors > 0
          ? `${formatInteger(aggregate.errors)} error${aggregate.errors === 1 ? "" : "s"} not counted`
          : null,
    });
  }
  const kinds = new Set(bars.map((bar) => bar.kind));
  const onlyScores = bars.length > 0 && bars.every((bar) => bar.kind === "success");
  return {
    bars,
    title: onlyScores ? "Success rate by metric" : "Pass rate by metric",
    subtitle: subtitleFor(kinds),
    height: bars.length === 0 ? 0 : Math.max(MIN_HEIGHT, AXIS_HEIGHT + bars.length * ROW_HEIGHT),
    barSize: bars.length <= 2 ? 28 : 18,
    labelWidth: categoryAxisWidth(bars.map((bar) => bar.label)),
    legend: VALUE_BANDS.map(({ label, color }) => ({ label, color })),
    caption: proportionCaption(
      kinds,
      bars.some((bar) => bar.lowerIsBetter),
    ),
    description: bars
      .map((bar) => `${bar.label}: ${bar.valueText}${bar.intervalText ? ` (${bar.intervalText})` : ""}`)
      .join("; "),
  };
}

function subtitleFor(kinds: Set<PassRateBar["kind"]>): string {
  const parts: string[] = [];
  if (kinds.has("yes")) parts.push("% yes for yes/no judges");
  if (kinds.has("success")) parts.push("% of rows meeting the pass mark for scores");
  if (kinds.has("mean")) parts.push("mean per row for precision and recall");
  return parts.length === 0 ? "% yes for yes/no judges, % of rows meeting the pass mark for scores" : parts.join(", ");
}
