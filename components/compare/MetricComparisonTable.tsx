import { metricLabel } from "@/components/runs/metricLabel";
import { agentValueUnit, isAgentValueMetric } from "@/lib/contract/aggregates";
import type { Comparison } from "@/lib/compare/compareRuns";
import type { Aggregate } from "@/lib/contract/aggregates";
import { scoreDirection } from "@/lib/contract/metricCatalog";
import { LOWER_IS_BETTER_MARK } from "@/lib/charts/proportion";
import { CardFrame } from "@/components/ui/Card";
import { formatConfidenceInterval, formatInteger, formatMetricValue, formatPercent } from "@/lib/charts/format";
import { breakAtSeparators, MetricName } from "@/components/ui/MetricName";

const VERDICT_STYLE = {
  better: "bg-emerald-100 text-emerald-800",
  worse: "bg-rose-100 text-rose-800",
  noise: "bg-slate-100 text-slate-600",
  "n/a": "bg-slate-50 text-slate-400",
  pending: "bg-sky-50 text-sky-700",
} as const;

/**
 * Each metric's value per run with its 95% interval; for each candidate, the delta against the baseline and
 * whether it is real or noise. A score metric shows its average score and, beside it, its success percentage
 * (`…/success/percentage`) with that share's Wilson interval; its delta is the paired bootstrap on the scores (the normal approximation on large runs).
 */
export function MetricComparisonTable({ comparison }: { comparison: Comparison }) {
  const { runs, baselineId } = comparison;
  return (
    <CardFrame as="div" padding="none" className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="metric-comparison">
        <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs text-slate-500">
          <tr>
            <th className="px-3 py-2">Metric</th>
            {runs.map((run) => (
              <th key={run.id} className="px-3 py-2">
                {run.name}
                {run.id === baselineId && (
                  <span className="ml-1 rounded bg-slate-800 px-1 text-[10px] uppercase text-white">baseline</span>
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {comparison.metrics.map((row) => (
            <tr key={row.metric} className="align-top" data-metric={row.metric}>
              <td className="px-3 py-2">
                <div className="font-medium">{breakAtSeparators(metricLabel(row.metric))}</div>
                <MetricName
                  name={row.cells[baselineId]?.aggregate?.name ?? row.metric}
                  className="text-[11px] text-slate-500"
                />
                {(scoreDirection(row.metric) === "lower" || isAgentValueMetric(row.metric)) && (
                  <div className="text-[11px] font-medium text-amber-800" data-testid="lower-is-better">
                    {LOWER_IS_BETTER_MARK} lower is better
                  </div>
                )}
              </td>
              {runs.map((run) => {
                const cell = row.cells[run.id];
                const delta = row.deltas[run.id];
                return (
                  <td key={run.id} className="px-3 py-2">
                    <div className="font-semibold tabular-nums">{formatValue(cell?.aggregate ?? null)}</div>
                    {cell?.interval && (
                      <div className="text-[11px] tabular-nums text-slate-500">
                        {formatConfidenceInterval(cell.interval, 1)}
                      </div>
                    )}
                    {cell?.aggregate?.success && <SuccessCell success={cell.aggregate.success} cell={cell} />}
                    {cell?.aggregate && cell.aggregate.errors > 0 && (
                      <div className="text-[11px] text-red-700">{formatInteger(cell.aggregate.errors)} errors</div>
                    )}
                    {delta && (
                      <div className="mt-1">
                        <span
                          className={`rounded px-1.5 py-0.5 text-[11px] font-medium ${VERDICT_STYLE[delta.verdict]}`}
                        >
                          {delta.verdict === "better"
                            ? "real improvement"
                            : delta.verdict === "worse"
                              ? "real regression"
                              : delta.verdict === "noise"
                                ? "likely noise"
                                : delta.verdict === "pending"
                                  ? "computing…"
                                  : "n/a"}
                        </span>
                        <div className="mt-0.5 text-[11px] text-slate-600" data-testid="delta-words">
                          {delta.words}
                        </div>
                        {delta.judgedDifferently && (
                          <div className="text-[11px] font-medium text-amber-800" data-testid="judged-differently">
                            {delta.judgedDifferently}
                          </div>
                        )}
                        {delta.flips && (
                          <div className="text-[11px] text-slate-500">
                            {formatInteger(delta.flips.regressions)} yes→no, {formatInteger(delta.flips.improvements)}{" "}
                            no→yes over {formatInteger(delta.pairs)} paired rows
                          </div>
                        )}
                        {delta.method && (
                          <div className="text-[11px] text-slate-500" data-testid="score-interval-method">
                            Over {formatInteger(delta.pairs)} paired rows (
                            {delta.method === "paired_normal" ? "normal approximation" : "paired bootstrap"})
                          </div>
                        )}
                        {delta.flips && delta.delta !== null && delta.interval && (
                          <div className="text-[11px] tabular-nums text-slate-500" data-testid="paired-delta">
                            Paired delta {signedPoints(delta.delta)} points (95% CI {signedPoints(delta.interval.low)}{" "}
                            to {signedPoints(delta.interval.high)}) on the rows both runs judged
                          </div>
                        )}
                        {delta.overallDelta !== undefined && (
                          <div className="text-[11px] tabular-nums text-amber-700" data-testid="overall-delta">
                            {overallDifference(row.metric, row.shape, delta.overallDelta)}
                          </div>
                        )}
                        {delta.unpaired > 0 && (
                          <div className="text-[11px] text-amber-700">
                            {formatInteger(delta.unpaired)} rows judged in only one run
                          </div>
                        )}
                      </div>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </CardFrame>
  );
}

/** A score's success percentage in one run, with its counts and 95% Wilson interval. */
function SuccessCell({
  success,
  cell,
}: {
  success: NonNullable<Aggregate["success"]>;
  cell: Comparison["metrics"][number]["cells"][string];
}) {
  return (
    <div className="text-xs tabular-nums text-slate-700" data-testid="success-cell">
      {success.value === null ? (
        "no row scored"
      ) : (
        <>
          <span className="font-medium">{formatPercent(success.value, 1)}</span> succeed (
          {formatInteger(success.numerator)}/{formatInteger(success.denominator)})
        </>
      )}
      {cell.successInterval && (
        <div className="text-[11px] text-slate-500">{formatConfidenceInterval(cell.successInterval, 1)}</div>
      )}
    </div>
  );
}

/** A difference of yes-rates in percentage points, signed: "+14.3", "−2.0", "0.0". */
function signedPoints(difference: number): string {
  const shown = Number((Math.abs(difference) * 100).toFixed(1));
  const sign = shown === 0 ? "" : difference > 0 ? "+" : "\u2212";
  return `${sign}${shown.toFixed(1)}`;
}

/**
 * The difference of the two aggregates shown in the cells, when it is not the tested (paired) delta: they
 * also count rows judged in one run only.
 */
function overallDifference(metric: string, shape: string, difference: number): string {
  const signed = (text: string) => `${difference > 0 ? "+" : difference < 0 ? "\u2212" : ""}${text}`;
  const size = Math.abs(difference);
  const amount =
    shape === "rating"
      ? `${signed((size * 100).toFixed(1))} points`
      : metric === "agent/latency_seconds"
        ? `${signed(size.toFixed(2))} s`
        : isAgentValueMetric(metric)
          ? agentValueUnit(metric) === "calls"
            ? `${signed(size.toFixed(2))} calls`
            : `${signed(size.toFixed(0))} tokens`
          : signed(size.toFixed(2));
  const what = shape === "rating" ? "Overall yes-rates" : "Averages";
  return `${what} differ by ${amount} over every judged row (not tested; the delta above is on the rows both runs judged)`;
}

function formatValue(aggregate: Aggregate | null): string {
  if (!aggregate || aggregate.value === null) return "—";
  if (aggregate.kind === "percentage")
    return `${formatPercent(aggregate.value, 1)} yes (${formatInteger(aggregate.numerator)}/${formatInteger(aggregate.denominator)})`;
  const value = formatMetricValue(aggregate.metric, aggregate.value, { percentDigits: 1, tokenUnit: true });
  return aggregate.success ? `${value} average` : value;
}
