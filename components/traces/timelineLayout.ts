import { formatInteger, formatSeconds } from "@/lib/charts/format";
import type { Trajectory, TrajectorySpan } from "@/lib/traces/trajectory";

/**
 * Every decision of the trajectory's drawing, as plain values (the card only renders them): where each
 * span's bar sits on the trace's time axis, how far a line is indented, what its duration and tokens read,
 * and when a long trace is drawn compact.
 */

/** Past this many spans every line stays one row: the error on the line itself, each span's texts cut shorter. */
export const COMPACT_AFTER_SPANS = 200;
/**
 * Each span's inputs and outputs in a compact trajectory, so a trace of thousands of spans (each up to the
 * trajectory's own 20,000-character cut, twice) stays a page a browser opens; the dataset row page keeps
 * the raw trace whole.
 */
export const COMPACT_TEXT_LIMIT = 2_000;
/** Lines indent one step per level down to here; deeper spans stay at this indent and say their depth. */
export const MAX_INDENT_DEPTH = 12;
/** No bar narrower than this share of the trace (percent), so an instantaneous span is still seen. */
const MIN_BAR_PERCENT = 0.5;

export type SpanBar = { leftPercent: number; widthPercent: number };

export type TimelineLine = {
  span: TrajectorySpan;
  /** Levels of indentation (the depth, capped at MAX_INDENT_DEPTH). */
  indent: number;
  /** The depth in words when the indent no longer shows it. */
  deepLabel: string | null;
  /** null: the span or the trace has no times. */
  bar: SpanBar | null;
  duration: string;
  tokens: string | null;
  inputs: string | null;
  outputs: string | null;
};

export type Timeline = {
  lines: TimelineLine[];
  compact: boolean;
  /** "4 spans (AGENT 1, CHAT_MODEL 1, TOOL 2)". */
  spanCounts: string;
  errorCount: number;
  /** The trace's whole duration, "3.00 s", or null without times. */
  total: string | null;
  /** The middle of the time axis, "1.50 s". */
  midpoint: string | null;
};

export function prepareTimeline(trajectory: Trajectory): Timeline {
  const compact = trajectory.spans.length > COMPACT_AFTER_SPANS;
  const cut = (text: string | null) => (compact ? cutText(text, COMPACT_TEXT_LIMIT) : text);
  const { totalMs } = trajectory;
  return {
    lines: trajectory.spans.map((span) => ({
      span,
      indent: Math.min(span.depth, MAX_INDENT_DEPTH),
      deepLabel: span.depth > MAX_INDENT_DEPTH ? `depth ${formatInteger(span.depth)}` : null,
      bar: barOf(span, totalMs),
      duration: formatSpanDuration(span.durationMs),
      tokens: span.tokens ? `${formatInteger(span.tokens.input)} in · ${formatInteger(span.tokens.output)} out` : null,
      inputs: cut(span.inputs),
      outputs: cut(span.outputs),
    })),
    compact,
    spanCounts: `${formatInteger(trajectory.spans.length)} span${trajectory.spans.length === 1 ? "" : "s"} (${trajectory.typeCounts
      .map(({ type, count }) => `${type} ${formatInteger(count)}`)
      .join(", ")})`,
    errorCount: trajectory.spans.filter((span) => span.status === "error").length,
    total: totalMs === null ? null : formatSpanDuration(totalMs),
    midpoint: totalMs === null || totalMs <= 0 ? null : formatSpanDuration(totalMs / 2),
  };
}

/** A span's bar on the trace's axis, in percent of the whole trace; kept inside the track. */
export function barOf(span: Pick<TrajectorySpan, "startMs" | "durationMs">, totalMs: number | null): SpanBar | null {
  if (span.startMs === null || totalMs === null) return null;
  // Every span at one instant: each is a sliver at the start.
  if (totalMs <= 0) return { leftPercent: 0, widthPercent: MIN_BAR_PERCENT };
  const left = clamp((span.startMs / totalMs) * 100, 0, 100 - MIN_BAR_PERCENT);
  const width = clamp(((span.durationMs ?? 0) / totalMs) * 100, MIN_BAR_PERCENT, 100 - left);
  return { leftPercent: round(left), widthPercent: round(width) };
}

/** "850 ms", "1.25 s"; under a millisecond "<1 ms" rather than a misleading "0 ms". */
export function formatSpanDuration(ms: number | null): string {
  if (ms === null) return "—";
  if (ms > 0 && ms < 0.5) return "<1 ms";
  return formatSeconds(ms / 1000);
}

/** Text cut at `limit` characters, saying how many more there were. */
export function cutText(text: string | null, limit: number): string | null {
  if (text === null || text.length <= limit) return text;
  return `${text.slice(0, limit)}\n… (${formatInteger(text.length - limit)} more characters not shown in a trace this long)`;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** Three decimals: the markup stays short and the same from one render to the next. */
function round(percent: number): number {
  return Math.round(percent * 1000) / 1000;
}
