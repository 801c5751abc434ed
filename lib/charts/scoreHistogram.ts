import type { ScoreHistogram } from "@/lib/db/judgments/chartQueries";
import { formatInteger, formatScore } from "./format";
import type { HistogramView, HistogramViewBar } from "./histogram";
import { CHART_COLORS } from "./palette";

/** Succeeding bins green, failing ones red, the bin the pass mark cuts through grey. */
export type ScoreHistogramBar = HistogramViewBar;

/** `threshold` is where the pass mark is drawn: the bin whose left edge it is nearest, and the words. */
export type ScoreHistogramData = HistogramView & { summary: string | null };

/**
 * A score metric's distribution (DeepEval, Mastra): fixed bins over [0, top] from getScoreHistogram, each
 * coloured by whether the scores in it succeed against the pass mark (≥, or ≤ where lower is better),
 * and the pass mark drawn at its bin edge.
 */
export function prepareScoreHistogram(
  histogram: ScoreHistogram | null,
  direction: "higher" | "lower",
): ScoreHistogramData {
  if (!histogram || histogram.buckets.length === 0) {
    const empty = "No row has a score yet.";
    return { bars: [], threshold: null, summary: null, caption: null, emptyMessage: empty, description: empty };
  }
  const total = histogram.buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  const threshold = histogram.threshold;
  const bars = histogram.buckets.map((bucket, index) => {
    const last = index === histogram.buckets.length - 1;
    const tick = `${bucket.from.toFixed(1)}–${bucket.to.toFixed(1)}`;
    let fill: string = CHART_COLORS.neutral;
    if (threshold !== null) {
      // Every score in [from, to) (or [from, to] in the last bin) succeeds, or every one fails; else the bin is mixed.
      const passesAll = direction === "higher" ? bucket.from >= threshold : bucket.to <= threshold;
      const failsAll =
        direction === "higher" ? (last ? bucket.to < threshold : bucket.to <= threshold) : bucket.from > threshold;
      fill = passesAll ? CHART_COLORS.good : failsAll ? CHART_COLORS.poor : CHART_COLORS.neutral;
    }
    return {
      tick,
      label: `score ${tick}`,
      count: bucket.count,
      countText: `${formatInteger(bucket.count)} row${bucket.count === 1 ? "" : "s"} (${total === 0 ? "0.0" : ((bucket.count / total) * 100).toFixed(1)}%)`,
      fill,
    };
  });
  let marker: ScoreHistogramData["threshold"] = null;
  if (threshold !== null) {
    const width = (histogram.max - histogram.min) / histogram.buckets.length;
    const edge = Math.max(0, Math.round((threshold - histogram.min) / width));
    // The right edge of the last bin is the only edge that is no bin's left edge.
    const atEnd = edge >= histogram.buckets.length;
    marker = {
      tick: bars[atEnd ? bars.length - 1 : edge].tick,
      position: atEnd ? "end" : "start",
      text: `pass mark ${formatScore(threshold)} (${direction === "higher" ? "at least" : "at most; lower is better"})`,
    };
  }
  const summary = `${formatInteger(total)} row${total === 1 ? "" : "s"} scored`;
  return {
    bars,
    threshold: marker,
    summary,
    caption: `${summary}${marker ? ` · ${marker.text}` : ""} · x: score, y: rows`,
    emptyMessage: null,
    description: `${summary}${marker ? `, ${marker.text}` : ""}. ${bars.map((bar) => `${bar.label}: ${bar.count}`).join("; ")}`,
  };
}
