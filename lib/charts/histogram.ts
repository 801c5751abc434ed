import type { ValueHistogram } from "@/lib/db/judgments/chartQueries";
import { formatInteger } from "./format";
import { CHART_COLORS } from "./palette";

export type HistogramUnit = "seconds" | "tokens";

/** One bar of the one Histogram leaf (components/charts/Histogram.tsx), for values and for scores alike. */
export type HistogramViewBar = {
  /** Short axis tick, without the unit ("0.5–1.0", "1,000–1,499"). */
  tick: string;
  /** Full label with the unit ("0.5–1.0 s", "1,000–1,499 tokens", "score 0.5–0.6"). */
  label: string;
  count: number;
  /** "12 rows (24.0%)" for the tooltip. */
  countText: string;
  fill: string;
};

/** What the Histogram leaf draws: bars, an optional marked bin edge (a score's pass mark), a caption. */
export type HistogramView = {
  bars: HistogramViewBar[];
  /** The marked edge: the bin whose left (or, past the last bin, right) edge it is, and its words. */
  threshold: { tick: string; position: "start" | "end"; text: string } | null;
  /** The line under the chart; null when it is empty. */
  caption: string | null;
  /** Shown instead of the chart when no row has a value. */
  emptyMessage: string | null;
  description: string;
};

export type HistogramBar = HistogramViewBar & { from: number; to: number };

export type HistogramChartData = HistogramView & {
  unit: HistogramUnit;
  bars: HistogramBar[];
  total: number;
  /** "50 rows · 0.4 s to 3.2 s"; null when there is nothing to chart. */
  summary: string | null;
  axisLabel: string;
};

const UNIT_WORDS: Record<HistogramUnit, { suffix: string; axis: string; empty: string }> = {
  seconds: { suffix: " s", axis: "seconds", empty: "No row has a latency: it comes from a trace's span timings." },
  tokens: { suffix: " tokens", axis: "tokens", empty: "No row has a token count: it comes from a trace's LLM spans." },
};

/**
 * Bars for a histogram of seconds or tokens. Seconds are labelled with as
 * many decimals as the bucket width needs (at least one). Token counts are
 * integers, so each bucket [from, to) is labelled with the integers it can
 * hold ("1,000–1,499"); a bucket too narrow to hold any integer is dropped,
 * since it is necessarily empty.
 */
export function prepareHistogram(histogram: ValueHistogram | null, unit: HistogramUnit): HistogramChartData {
  const words = UNIT_WORDS[unit];
  const base = { unit, axisLabel: words.axis, threshold: null };
  if (!histogram || histogram.buckets.length === 0) {
    return {
      ...base,
      bars: [],
      total: 0,
      summary: null,
      caption: null,
      emptyMessage: words.empty,
      description: words.empty,
    };
  }
  const total = histogram.buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  const single = histogram.min === histogram.max;
  const width = single ? 0 : (histogram.max - histogram.min) / histogram.buckets.length;
  const format = unit === "seconds" ? secondsFormatter(width) : formatInteger;
  const countText = (count: number) =>
    `${rowsText(count)} (${total === 0 ? "0.0" : ((count / total) * 100).toFixed(1)}%)`;

  const bars: HistogramBar[] = [];
  histogram.buckets.forEach((bucket, index) => {
    const last = index === histogram.buckets.length - 1;
    let tick: string;
    if (single) {
      tick = format(bucket.from);
    } else if (unit === "tokens") {
      const low = Math.ceil(bucket.from);
      // [from, to) holds integers up to ceil(to) − 1; the last bucket is closed and holds the maximum.
      const high = last ? Math.floor(bucket.to) : Math.ceil(bucket.to) - 1;
      if (high < low) return;
      tick = low === high ? format(low) : `${format(low)}–${format(high)}`;
    } else {
      tick = `${format(bucket.from)}–${format(bucket.to)}`;
    }
    bars.push({
      tick,
      label: `${tick}${words.suffix}`,
      count: bucket.count,
      countText: countText(bucket.count),
      fill: CHART_COLORS.neutral,
      from: bucket.from,
      to: bucket.to,
    });
  });

  const summary = single
    ? `${rowsText(total)}, all ${format(histogram.min)}${words.suffix}`
    : `${rowsText(total)} · ${format(histogram.min)}${words.suffix} to ${format(histogram.max)}${words.suffix}`;
  return {
    ...base,
    bars,
    total,
    summary,
    caption: `${summary} · x: ${words.axis}, y: rows`,
    emptyMessage: null,
    description: `${summary}. ${bars.map((bar) => `${bar.label}: ${bar.count}`).join("; ")}`,
  };
}

function rowsText(count: number): string {
  return `${formatInteger(count)} row${count === 1 ? "" : "s"}`;
}

/** Decimals for second labels: enough to tell neighbouring bucket edges apart, between 1 and 3. */
function secondsFormatter(bucketWidth: number): (value: number) => string {
  const decimals = bucketWidth > 0 ? Math.min(3, Math.max(1, Math.ceil(-Math.log10(bucketWidth)))) : 2;
  return (value) => value.toFixed(decimals);
}
