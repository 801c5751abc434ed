import { metricLabel } from "@/components/runs/metricLabel";
import { VerdictChip, type VerdictView } from "@/components/runs/VerdictChip";
import { Card } from "@/components/ui/Card";
import { formatMetricValue } from "@/lib/charts/format";
import { scoreDirection } from "@/lib/contract/metricCatalog";

export type FlipSide = {
  label: string;
  runName: string;
  judgment: (VerdictView & { threshold: number | null }) | undefined;
};

/**
 * The flipped metric in both runs, one line each: the verdict or score, the pass mark, and the success it
 * gives. A score's colour alone would not say which side of the pass mark it fell on, so success is written out.
 */
export function FlipSummary({ metric, sides }: { metric: string; sides: FlipSide[] }) {
  const lower = scoreDirection(metric) === "lower";
  return (
    <Card
      title={metricLabel(metric)}
      subtitle={lower ? "Lower is better: a score passes at or below its pass mark." : undefined}
      testId="flip-summary"
    >
      <table className="w-full text-sm">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="py-1 pr-3 font-medium">Run</th>
            <th className="py-1 pr-3 font-medium">Result</th>
            <th className="py-1 pr-3 font-medium">Pass mark</th>
            <th className="py-1 font-medium">Success</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {sides.map(({ label, runName, judgment }) => (
            <tr key={label} data-testid="flip-summary-side">
              <td className="py-1.5 pr-3">
                <span className="text-xs uppercase tracking-wide text-slate-500">{label}</span> {runName}
              </td>
              <td className="py-1.5 pr-3">
                <VerdictChip verdict={judgment} metric={metric} />
              </td>
              <td className="py-1.5 pr-3 tabular-nums">
                {judgment?.threshold === null || judgment?.threshold === undefined
                  ? "—"
                  : `${formatMetricValue(metric, judgment.threshold)}${lower ? " (at most)" : ""}`}
              </td>
              <td className="py-1.5">{successWord(judgment)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function successWord(judgment: VerdictView | undefined): string {
  if (!judgment) return "not judged";
  if (judgment.status === "error") return "error";
  if (judgment.status === "skipped") return "skipped";
  if (judgment.passed === true) return "pass";
  if (judgment.passed === false) return "fail";
  return "—";
}
