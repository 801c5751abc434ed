/** Formatting shared by server and client components; fixed locale and UTC so server and browser render the same text. */
const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export function formatDateTime(date: Date): string {
  return `${dateTime.format(date)} UTC`;
}

export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "—";
  return seconds < 1 ? `${Math.round(seconds * 1000)} ms` : `${seconds.toFixed(2)} s`;
}

export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : value.toLocaleString("en-US");
}

/**
 * A per-row or aggregate metric value in its unit: latency in seconds, token
 * counts as counts, and every other score (precision, recall, custom scores
 * in [0, 1]) as a percentage. The unit comes from the metric's name, never
 * from the value, so a 0.05 s latency is never shown as "5%".
 */
export function formatMetricValue(
  metric: string,
  value: number,
  options: { percentDigits?: number; tokenUnit?: boolean } = {},
): string {
  if (metric === "agent/latency_seconds") return formatSeconds(value);
  if (metric.startsWith("agent/"))
    return `${Math.round(value).toLocaleString("en-US")}${options.tokenUnit ? " tokens" : ""}`;
  return `${(value * 100).toFixed(options.percentDigits ?? 0)}%`;
}
