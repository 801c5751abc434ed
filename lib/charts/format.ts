/**
 * Every number the app prints goes through here: counts, percentages, intervals,
 * durations, tokens, cost, sizes and times. One fixed locale (en-US digits,
 * thousands with commas) and UTC, so server and browser render the same text
 * and "1,000 of 1,000" never stands beside "7000". Pages, components and the
 * chart builders in lib/charts all import from this one module.
 */

import { agentValueUnit, isAgentValueMetric, isScoreMetric } from "@/lib/contract/aggregates";

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** How many extra decimals a percentage may grow so a value that is not 0 or 1 never reads "0%" or "100%". */
const MAX_EXTRA_DIGITS = 3;

export function formatDateTime(date: Date): string {
  return `${dateTime.format(date)} UTC`;
}

/** An integer count with thousands separators: 1,000. */
export function formatInteger(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** A count that may be missing: "—" when it is. */
export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : formatInteger(value);
}

/** "1 row", "1,000 rows". */
export function formatCountOf(count: number, noun: string, plural = `${noun}s`): string {
  return `${formatInteger(count)} ${count === 1 ? noun : plural}`;
}

/**
 * A fraction as a percentage with `digits` decimals. A value short of 1 never
 * reads "100%" and a value above 0 never reads "0%": decimals are added until it
 * shows where it stands (0.9996 → "99.96%" at 0 digits), up to three more.
 */
export function formatPercent(fraction: number, digits = 1): string {
  return `${percentNumber(fraction, digits)}%`;
}

function percentNumber(fraction: number, digits: number): string {
  const percent = fraction * 100;
  for (let d = digits; d <= digits + MAX_EXTRA_DIGITS; d++) {
    const text = percent.toFixed(d);
    const reads = Number(text);
    const honest = (reads !== 100 || fraction >= 1) && (reads !== 0 || fraction <= 0);
    if (honest) return text;
  }
  return fraction > 0.5
    ? `>${(100 - 10 ** -(digits + MAX_EXTRA_DIGITS)).toFixed(digits + MAX_EXTRA_DIGITS)}`
    : `<${(10 ** -(digits + MAX_EXTRA_DIGITS)).toFixed(digits + MAX_EXTRA_DIGITS)}`;
}

/**
 * A confidence interval of a rate, one unit sign at the end: "58–83%". The
 * bounds get the decimals they need to stay distinct, so an interval at the
 * edge reads "99.6–100%" (its Wilson bound), never "100–100%"; an interval of
 * zero width reads as the single value it is.
 */
export function formatPercentInterval(low: number, high: number, digits = 0): string {
  if (low === high) return `${percentNumber(low, digits)}%`;
  let d = digits;
  while (percentNumber(low, d) === percentNumber(high, d) && d < digits + MAX_EXTRA_DIGITS) d++;
  return `${percentNumber(low, d)}–${percentNumber(high, d)}%`;
}

/** "95% CI 99.6–100%", or "" without an interval. */
export function formatConfidenceInterval(interval: { low: number; high: number } | null, digits = 0): string {
  return interval ? `95% CI ${formatPercentInterval(interval.low, interval.high, digits)}` : "";
}

/**
 * A DeepEval or Mastra score as DeepEval prints it, two decimals ("0.64"): a score is not a share of rows,
 * so it never reads as a percentage. A value short of 1 never reads "1.00", nor one above 0 "0.00".
 */
export function formatScore(score: number): string {
  for (let d = 2; d <= 2 + MAX_EXTRA_DIGITS; d++) {
    const text = score.toFixed(d);
    const reads = Number(text);
    if ((reads !== 1 || score === 1) && (reads !== 0 || score === 0)) return text;
  }
  return score.toFixed(2 + MAX_EXTRA_DIGITS);
}

/** A short duration in seconds: "850 ms", "1.25 s". */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "—";
  return seconds < 1 ? `${Math.round(seconds * 1000)} ms` : `${seconds.toFixed(2)} s`;
}

/** A duration a person reads: "850 ms", "42 s", "12 min 5 s", "3 h 4 min". */
export function formatDuration(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${formatInteger(Math.floor(minutes / 60))} h ${minutes % 60} min`;
}

/** Dollars: two significant digits under $0.0001, four decimals under $1, so judge costs of a fraction of a cent line up and stay distinct; cents above. */
export function formatUsd(value: number): string {
  if (value === 0) return "$0.00";
  // A single judgment can cost less than $0.0001: two significant digits rather than a "$0.0000" that reads as free.
  if (Math.abs(value) < 0.0001) return `$${value.toLocaleString("en-US", { maximumSignificantDigits: 2 })}`;
  if (Math.abs(value) < 1) return `$${value.toFixed(4)}`;
  return `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** A file size: "812 B", "3.4 KB", "12.0 MB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024)
    return `${(bytes / 1024 / 1024).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${formatInteger(bytes)} B`;
}

/**
 * A per-row or aggregate metric value in its unit: latency in seconds, token
 * counts as counts, and every other score (precision, recall, custom scores
 * in [0, 1]) as a percentage, and the DeepEval and Mastra scores as scores ("0.64").
 * The unit comes from the metric's name, never from the value, so a 0.05 s
 * latency is never shown as "5%".
 */
export function formatMetricValue(
  metric: string,
  value: number,
  options: { percentDigits?: number; tokenUnit?: boolean } = {},
): string {
  if (metric === "agent/latency_seconds") return formatSeconds(value);
  if (agentValueUnit(metric) === "calls" && isAgentValueMetric(metric))
    return `${Number.isInteger(value) ? formatInteger(value) : value.toFixed(2)}${options.tokenUnit ? " calls" : ""}`;
  if (isAgentValueMetric(metric)) return `${formatInteger(value)}${options.tokenUnit ? " tokens" : ""}`;
  if (isScoreMetric(metric)) return formatScore(value);
  return formatPercent(value, options.percentDigits ?? 0);
}

/**
 * A label broken into at most `maxLines` lines of about `maxChars`, only after a space, "/", "_" or "-",
 * never inside a word: what a chart axis does with a long custom metric name. When the whole label does not
 * fit, the last line ends in "…" at such a boundary and `abbreviated` is true, so the caller shows the full
 * label on hover. A single segment longer than a line is the one case that must be cut; it is cut with "…".
 */
export function wrapLabel(label: string, maxChars: number, maxLines = 2): { lines: string[]; abbreviated: boolean } {
  const pieces = label.match(/[^ /_-]+(?:[/_-]+| +|$)|[ /_-]+/g) ?? [label];
  const pack = (from: number, limit: number): { text: string; next: number } => {
    let text = "";
    let next = from;
    while (next < pieces.length && (text === "" || (text + pieces[next]).trimEnd().length <= limit)) {
      text += pieces[next];
      next++;
    }
    return { text: text.trimEnd(), next };
  };
  const cut = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit - 1)}…` : text);

  const lines: string[] = [];
  let next = 0;
  while (next < pieces.length && lines.length < maxLines) {
    const packed = pack(next, maxChars);
    lines.push(packed.text);
    next = packed.next;
  }
  if (next >= pieces.length && lines.every((line) => line.length <= maxChars)) return { lines, abbreviated: false };

  // Too long: redo the last line with room for the ellipsis, still breaking only between pieces.
  let lastStart = 0;
  for (let i = 0; i < lines.length - 1; i++) lastStart = pack(lastStart, maxChars).next;
  const last = pack(lastStart, maxChars - 1).text;
  const kept = lines.slice(0, -1).map((line) => cut(line, maxChars));
  kept.push(last.length > maxChars - 1 ? cut(last, maxChars) : `${last.replace(/[ /_-]+$/, "")}…`);
  return { lines: kept, abbreviated: true };
}

/**
 * Each id without the beginning that every id shares ("northwind-support-0042" → "…0042" among its page's
 * neighbours), cut back to just after a separator (-, _, ., /, :) so a number is not split; an id with nothing
 * shared, or the one id of a list, stays whole. For labels too narrow for whole ids, where a common prefix
 * would make every label look the same.
 */
export function distinguishingTails(ids: readonly string[]): string[] {
  if (ids.length < 2) return [...ids];
  let shared = ids[0].length;
  for (const id of ids) {
    let i = 0;
    while (i < shared && i < id.length && id[i] === ids[0][i]) i++;
    shared = i;
  }
  // Back to a separator, so "q-09" and "q-10" keep "09" and "10", not "9" and "0".
  const prefix = ids[0].slice(0, shared);
  const boundary = Math.max(...["-", "_", ".", "/", ":"].map((separator) => prefix.lastIndexOf(separator)));
  const cut = boundary + 1;
  if (cut <= 0) return [...ids];
  return ids.map((id) => (id.length > cut ? `…${id.slice(cut)}` : id));
}
