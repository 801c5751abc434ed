"use client";

import { FAMILY_LABELS } from "@/lib/contract/metricCatalog";
import { FAMILY_NAMES } from "@/lib/metrics/metricNames";
import { formatInteger } from "@/lib/charts/format";
import type { MetricOption } from "./runFormTypes";

const KIND_LABEL: Record<string, string> = {
  llm_judged: "LLM judge",
  ground_truth: "deterministic",
  agent: "from the trace",
  statistical: "statistical",
};

/** Rows a metric will judge with the chosen judge: none when the offline judge has no rule for it. */
export function effectiveRows(metric: MetricOption, offline: boolean): number {
  return offline && metric.unavailableOffline ? 0 : metric.rows;
}

/**
 * The judges grouped by family (Databricks, DeepEval, Mastra, statistical), each group saying how many
 * of its metrics can run on this dataset with the chosen judge, and each metric why its other rows are skipped.
 */
export function JudgeFamilyTable({
  metrics,
  selected,
  offline,
  onToggle,
  agentSource = KIND_LABEL.agent,
}: {
  metrics: MetricOption[];
  selected: ReadonlySet<string>;
  offline: boolean;
  onToggle: (name: string) => void;
  /** Where the agent/* values come from: the trace, or a generating run's own calls. */
  agentSource?: string;
}) {
  return (
    <div className="space-y-4">
      {FAMILY_NAMES.map((family) => {
        const members = metrics.filter((metric) => metric.family === family);
        if (members.length === 0) return null;
        const available = members.filter((metric) => effectiveRows(metric, offline) > 0).length;
        const offlineOnly = offline && members.every((metric) => metric.unavailableOffline);
        const headingId = `family-${family}`;
        return (
          <section key={family} aria-labelledby={headingId} data-testid={`judge-family-${family}`}>
            <h3 id={headingId} className="flex flex-wrap items-baseline gap-x-2 text-sm font-semibold text-slate-800">
              {FAMILY_LABELS[family]}
              <span className="text-xs font-normal text-slate-500" data-testid="family-availability">
                {available} of {members.length} available
                {offlineOnly ? " (needs an LLM judge: the offline judge has no rule for these)" : ""}
              </span>
            </h3>
            {/* Fixed columns, so the row counts line up from one family's table to the next. */}
            <table className="mt-1 w-full table-fixed text-sm">
              <colgroup>
                <col className="w-8" />
                <col />
                <col className="w-32" />
                <col className="w-2/5" />
              </colgroup>
              <tbody className="divide-y divide-slate-100">
                {members.map((metric) => {
                  const rows = effectiveRows(metric, offline);
                  const why = [
                    ...(offline && metric.unavailableOffline ? [metric.unavailableOffline] : []),
                    ...metric.missing,
                  ];
                  return (
                    <tr key={metric.name} className={rows === 0 ? "text-slate-500" : ""}>
                      <td className="w-8 py-1.5 align-top">
                        <input
                          type="checkbox"
                          name="metrics"
                          value={metric.name}
                          checked={selected.has(metric.name)}
                          onChange={() => onToggle(metric.name)}
                          aria-label={metric.label}
                        />
                      </td>
                      <td className="py-1.5 pr-2">
                        <div className="font-medium">
                          {metric.label}{" "}
                          <span className="ml-1 rounded bg-slate-100 px-1 text-[10px] font-normal uppercase text-slate-600">
                            {metric.kind === "agent" ? agentSource : (KIND_LABEL[metric.kind] ?? metric.kind)}
                          </span>
                          {metric.score?.direction === "lower" && (
                            <span className="ml-1 text-[11px] font-normal text-slate-600">lower is better</span>
                          )}
                        </div>
                        <code className="font-mono text-[11px] text-slate-600">{metric.name}</code>
                      </td>
                      <td className="py-1.5 pr-2 text-right align-top text-xs tabular-nums">
                        {formatInteger(rows)} / {formatInteger(metric.rowCount)} rows
                      </td>
                      <td className="py-1.5 align-top text-xs text-slate-600">{why.join("; ")}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
        );
      })}
    </div>
  );
}
