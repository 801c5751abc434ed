import { Card } from "@/components/ui/Card";
import type { MetricAvailability } from "@/lib/metrics/availability";
import { formatInteger } from "@/lib/charts/format";

const STATUS_STYLE = {
  all: "bg-emerald-50 text-emerald-800 border-emerald-200",
  some: "bg-amber-50 text-amber-800 border-amber-200",
  none: "bg-slate-50 text-slate-500 border-slate-200",
} as const;

/** The Agent Evaluation input schema's table applied to this dataset: which metrics a run can compute, on how many rows, and why not on the rest. */
export function MetricAvailabilityCard({ availability }: { availability: MetricAvailability[] }) {
  return (
    <Card
      title="Metrics these rows allow"
      titleId="metrics-heading"
      subtitle="A run computes each metric on the rows that carry its inputs and skips the rest, with the reason."
    >
      <table className="w-full text-sm" data-testid="metric-availability">
        <tbody className="divide-y divide-slate-100">
          {availability.map(({ metric, rows, rowCount, status, missing }) => (
            <tr key={metric.name} className="align-top">
              <td className="py-1.5 pr-2">
                <div className="font-medium text-slate-800">{metric.label}</div>
                <code className="font-mono text-[11px] text-slate-500">{metric.name}</code>
              </td>
              <td className="py-1.5 pr-2 text-right">
                <span
                  className={`inline-block whitespace-nowrap rounded border px-1.5 py-0.5 text-xs tabular-nums ${STATUS_STYLE[status]}`}
                >
                  {formatInteger(rows)} / {formatInteger(rowCount)} rows
                </span>
              </td>
              <td className="py-1.5 text-xs text-slate-500">
                {status === "all" ? (
                  <span className="text-emerald-700">every row</span>
                ) : (
                  missing.map((entry) => (
                    <div key={entry.input}>
                      needs {entry.description}
                      {entry.rowsWithout < rowCount ? ` (${formatInteger(entry.rowsWithout)} rows lack it)` : ""}
                    </div>
                  ))
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
