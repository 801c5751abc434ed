import type { Aggregate } from "@/lib/metrics/aggregates";
import { wilsonInterval } from "@/lib/stats";
import { formatInteger, formatPercent } from "./format";
import { categoryAxisWidth, chartMetricLabel, isProportionMetric, type MetricLabeller } from "./labels";
import { CHART_COLORS } from "./palette";

export type ValueBand = "good" | "fair" | "poor";

/** Bands for a yes-rate or mean score: at or above 80% reads as good, 60% as fair, anything lower as poor. */
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
  /** The yes-rate or mean score in percent (0–100). */
  percent: number;
  /** ErrorBar offsets below and above `percent`, in percentage points: the 95% Wilson interval. Null for averages. */
  error: [number, number] | null;
  band: ValueBand;
  /** Read by recharts as the bar's fill. */
  fill: string;
  /** Tooltip lines with the exact numbers. */
  valueText: string;
  basisText: string;
  intervalText: string | null;
  errorsText: string | null;
};

export type PassRateChartData = {
  bars: PassRateBar[];
  /** Chart height in pixels: a row per bar plus the axis. */
  height: number;
  /** Category axis width in pixels, sized to the longest label. */
  labelWidth: number;
  legend: { label: string; color: string }[];
  /** Accessible summary of every bar, for the SVG's description. */
  description: string;
};

const ROW_HEIGHT = 30;
const AXIS_HEIGHT = 36;

/**
 * One horizontal bar per yes/no or score metric that has a value: the
 * percentage of yes for yes/no judges, the mean for precision and recall.
 * Agent metrics (seconds, tokens) are not proportions and get histograms instead.
 */
export function preparePassRateChart(
  aggregates: Aggregate[],
  labelFor: MetricLabeller = chartMetricLabel,
): PassRateChartData {
  const bars = aggregates
    .filter(
      (aggregate): aggregate is Aggregate & { value: number } =>
        isProportionMetric(aggregate.metric) && aggregate.value !== null,
    )
    .map((aggregate): PassRateBar => {
      const value = aggregate.value;
      const interval =
        aggregate.kind === "percentage" ? wilsonInterval(aggregate.numerator, aggregate.denominator) : null;
      const band = valueBand(value);
      return {
        metric: aggregate.metric,
        label: labelFor(aggregate.metric),
        percent: value * 100,
        error: interval ? [(value - interval.low) * 100, (interval.high - value) * 100] : null,
        band: band.band,
        fill: band.color,
        valueText: aggregate.kind === "percentage" ? `${formatPercent(value)} yes` : `${formatPercent(value)} mean`,
        basisText:
          aggregate.kind === "percentage"
            ? `${formatInteger(aggregate.numerator)} of ${formatInteger(aggregate.denominator)} judged rows`
            : `averaged over ${formatInteger(aggregate.denominator)} rows`,
        intervalText: interval ? `95% CI ${formatPercent(interval.low)}–${formatPercent(interval.high)}` : null,
        errorsText:
          aggregate.errors > 0
            ? `${formatInteger(aggregate.errors)} error${aggregate.errors === 1 ? "" : "s"} not counted`
            : null,
      };
    });
  return {
    bars,
    height: bars.length === 0 ? 0 : AXIS_HEIGHT + bars.length * ROW_HEIGHT,
    labelWidth: categoryAxisWidth(bars.map((bar) => bar.label)),
    legend: VALUE_BANDS.map(({ label, color }) => ({ label, color })),
    description: bars
      .map((bar) => `${bar.label}: ${bar.valueText}${bar.intervalText ? ` (${bar.intervalText})` : ""}`)
      .join("; "),
  };
}
