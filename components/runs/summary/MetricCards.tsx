import Link from "next/link";
import type { Aggregate } from "@/lib/contract/aggregates";
import { scoreDirection } from "@/lib/contract/metricCatalog";
import { runRowsHref } from "@/lib/urlState/runRowQuery";
import { wilsonInterval } from "@/lib/stats";
import {
  formatConfidenceInterval,
  formatCountOf,
  formatInteger,
  formatMetricValue,
  formatPercent,
  formatScore,
} from "@/lib/charts/format";
import { breakAtSeparators, MetricName } from "@/components/ui/MetricName";
import { metricLabel } from "@/components/runs/metricLabel";
import type { SkipReasonCount } from "@/lib/db/judgments/skipReasonQueries";
import { cardBasis, skippedSentence } from "./metricCardText";

/**
 * One card per metric: Agent Evaluation's aggregate name, the value in words, and what it was computed over.
 * While the run is active, a card whose metric still has pending judgments says its figures are changing.
 */
export function MetricCards({
  aggregates,
  runId,
  active = false,
  skipReasons = new Map(),
}: {
  aggregates: Aggregate[];
  runId: string;
  active?: boolean;
  /** Why each metric's skipped rows were skipped (lib/db/judgments/skipReasonQueries). */
  skipReasons?: Map<string, SkipReasonCount[]>;
}) {
  if (aggregates.length === 0) return null;
  return (
    <section aria-labelledby="metric-cards-heading">
      {/* The page's h1 is the run; the cards' h3 titles sit under this h2, so no heading level is skipped. */}
      <h2 id="metric-cards-heading" className="sr-only">
        Metrics
      </h2>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="metric-cards">
        {aggregates.map((aggregate) => (
          <Link
            prefetch={false}
            key={aggregate.metric}
            href={runRowsHref(runId, { filter: "failed", metric: aggregate.metric, q: "" })}
            title="Show the rows that failed this metric"
            className="block rounded-lg border border-slate-200 bg-white p-3 shadow-sm transition hover:border-indigo-300 hover:shadow"
            data-metric={aggregate.metric}
            // The jump lands the focus on the filter summary, a few Tabs from the first failed row (useKeepFocus).
            data-focus-after="row-filter-summary"
          >
            <h3 className="text-sm font-medium break-normal text-slate-800">
              {breakAtSeparators(metricLabel(aggregate.metric))}
            </h3>
            {active && aggregate.pending > 0 && (
              <p className="text-xs font-medium text-indigo-700" data-testid="metric-card-updating">
                updating… these figures change as judgments finish
              </p>
            )}
            <p className="mt-1 text-2xl font-semibold tabular-nums tracking-tight">{headline(aggregate)}</p>
            <p className="text-xs text-slate-600" data-testid="metric-card-basis">
              {cardBasis(aggregate, skipReasons.get(aggregate.metric))}
            </p>
            {aggregate.kind === "percentage" && (
              <p className="text-[11px] tabular-nums text-slate-500">{intervalText(aggregate)}</p>
            )}
            {aggregate.success && (aggregate.value !== null || aggregate.pending > 0) && (
              <SuccessLine aggregate={aggregate} success={aggregate.success} />
            )}
            <p className="mt-1 flex flex-wrap gap-x-2 text-xs">
              {aggregate.errors > 0 && (
                <span className="text-red-700">{formatCountOf(aggregate.errors, "error")} (not counted)</span>
              )}
              {/* Without a figure the line above already says how many were skipped and why. */}
              {aggregate.skipped > 0 && aggregate.value !== null && (
                <span
                  className="text-slate-500"
                  title={skippedSentence(aggregate.skipped, skipReasons.get(aggregate.metric) ?? [])}
                >
                  {formatInteger(aggregate.skipped)} skipped
                </span>
              )}
              {aggregate.pending > 0 && (
                <span className="text-indigo-700">{formatInteger(aggregate.pending)} pending</span>
              )}
            </p>
            <MetricName name={aggregate.name} className="mt-2 block text-[11px] text-slate-500" />
          </Link>
        ))}
      </div>
    </section>
  );
}

/** A score metric's success percentage (`…/success/percentage`) with its Wilson interval, and its direction. */
function SuccessLine({ aggregate, success }: { aggregate: Aggregate; success: NonNullable<Aggregate["success"]> }) {
  const lower = scoreDirection(aggregate.metric) === "lower";
  return (
    <div className="mt-1 text-xs text-slate-700" data-testid="score-success">
      <p>
        {success.value === null ? (
          "no row judged yet"
        ) : (
          <>
            <strong className="tabular-nums">{formatPercent(success.value, 0)}</strong> succeed (
            {formatInteger(success.numerator)} of {formatInteger(success.denominator)})
          </>
        )}
        {lower && <span className="ml-1 font-medium text-amber-800">· lower is better</span>}
      </p>
      {success.value !== null && (
        <p className="text-[11px] tabular-nums text-slate-500">
          {formatConfidenceInterval(success.interval ?? wilsonInterval(success.numerator, success.denominator))}
        </p>
      )}
      <MetricName name={success.name} className="block text-[11px] text-slate-500" />
    </div>
  );
}

function headline(a: Aggregate): string {
  if (a.value === null) return "—";
  if (a.success) return formatScore(a.value);
  if (a.kind === "percentage") return `${formatPercent(a.value, 0)} yes`;
  return formatMetricValue(a.metric, a.value, { tokenUnit: true });
}

/** The 95% Wilson interval of a yes-rate: honest about how much 40 rows can tell, and at 1,000 of 1,000 "99.6–100%". */
function intervalText(a: Aggregate): string {
  // With trials, over rows (each its mean over its trials): never the trials counted as rows.
  return formatConfidenceInterval(a.interval ?? wilsonInterval(a.numerator, a.denominator));
}
