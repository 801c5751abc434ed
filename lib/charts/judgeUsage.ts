import type { JudgeUsage, JudgeUsageLine } from "@/lib/db/judgments/chartQueries";
import { formatInteger, formatUsd } from "./format";
import { chartMetricLabel, type MetricLabeller } from "./labels";

export type JudgeUsageTableLine = {
  metric: string;
  label: string;
  callsText: string;
  inputText: string;
  outputText: string;
  costText: string;
};

export type JudgeUsageTable = {
  lines: JudgeUsageTableLine[];
  total: Omit<JudgeUsageTableLine, "metric" | "label">;
  /** A caveat under the table (unpriced calls, offline judge); null when none applies. */
  note: string | null;
};

/**
 * Rows of the judge usage table: only LLM-judged metrics, since
 * ground-truth and agent metrics never call a judge.
 */
export function prepareJudgeUsage(usage: JudgeUsage, labelFor: MetricLabeller = chartMetricLabel): JudgeUsageTable {
  const judged = usage.metrics.filter((line) => line.metric.includes("/llm_judged/") || line.metered > 0);
  const note =
    usage.total.metered === 0
      ? "No judge tokens recorded: the offline heuristic judge makes no LLM calls, and a run that has not started has none yet."
      : usage.total.priced === 0
        ? "No price is known for this judge model, so cost is not shown."
        : usage.total.priced < usage.total.metered
          ? `Cost covers ${formatInteger(usage.total.priced)} of ${formatInteger(usage.total.metered)} judge calls; the rest have no known price.`
          : null;
  return {
    lines: judged.map((line) => ({ metric: line.metric, label: labelFor(line.metric), ...texts(line) })),
    total: texts(usage.total),
    note,
  };
}

function texts(line: Omit<JudgeUsageLine, "metric">): Omit<JudgeUsageTableLine, "metric" | "label"> {
  return {
    callsText: `${formatInteger(line.metered)}${line.cacheHits > 0 ? ` (${formatInteger(line.cacheHits)} cached)` : ""}`,
    inputText: formatInteger(line.inputTokens),
    outputText: formatInteger(line.outputTokens),
    costText: line.costUsd === null ? "—" : formatUsd(line.costUsd),
  };
}
