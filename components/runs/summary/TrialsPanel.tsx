import Link from "next/link";
import { CardFrame } from "@/components/ui/Card";
import { ColumnHeaders } from "@/components/ui/ColumnHeaders";
import { MetricName } from "@/components/ui/MetricName";
import { getDb } from "@/lib/db/client";
import { readTrialCounts } from "@/lib/db/judgments/trialQueries";
import { formatPercent } from "@/lib/charts/format";
import { summarizeTrialGroups, type TrialSummary } from "@/lib/stats/trialAgreement";
import { runRowsViewHref, type RunRowQuery } from "@/lib/urlState/runRowQuery";

/**
 * A run that judged each row several times (trials): per metric, how often a row passes at least once
 * (pass@k) and every time (pass^k), the mean of the rows' pass rates, and how far the judge agrees with
 * itself (the share of rows whose trials all agree, Fleiss' κ across trials). The bar shows the same rows
 * at a glance: every trial failed, the trials disagree (flaky, a link to them), every trial passed.
 */
export async function TrialsPanel({
  runId,
  trials,
  metrics,
  query,
}: {
  runId: string;
  trials: number;
  metrics: readonly string[];
  query: RunRowQuery;
}) {
  const counts = await readTrialCounts(getDb(), runId);
  const rows = metrics
    .map((metric) => ({ metric, summary: summarizeTrialGroups(counts.get(metric) ?? []) }))
    .filter((row) => row.summary.rows > 0);
  return (
    <CardFrame aria-labelledby="trials-title" data-testid="trials-panel">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="trials-title" className="text-sm font-semibold">
          Trials: each row judged {trials} times
        </h2>
        <Link
          href={runRowsViewHref(runId, query, { filter: "flaky", metric: undefined })}
          className="text-xs text-indigo-700 hover:underline"
          data-testid="trials-flaky-link"
        >
          Flaky rows (trials disagree)
        </Link>
      </div>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No metric has a judged trial with a pass or fail yet.</p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="trials-table">
            <caption className="sr-only">Each metric over its rows&apos; trials</caption>
            <ColumnHeaders
              columns={[
                "Metric",
                "Rows: all fail · flaky · all pass",
                "Mean pass rate",
                `pass@${trials}`,
                `pass^${trials}`,
                "Self-agreement",
                "Fleiss' κ",
              ]}
            />
            <tbody>
              {rows.map(({ metric, summary }) => (
                <TrialRow key={metric} runId={runId} query={query} metric={metric} summary={summary} />
              ))}
            </tbody>
          </table>
          <p className="mt-2 text-xs text-slate-500">
            pass@{trials}: rows where at least one trial passed; pass^{trials}: rows where every trial passed.
            Self-agreement: rows whose trials all agree. Fleiss&apos; κ: agreement across trials beyond chance (1 = the
            judge always repeats itself, 0 = no better than chance). Rows with an errored trial count over the trials
            that finished. Compare tests each row&apos;s mean over its trials.
          </p>
        </div>
      )}
    </CardFrame>
  );
}

function TrialRow({
  runId,
  query,
  metric,
  summary,
}: {
  runId: string;
  query: RunRowQuery;
  metric: string;
  summary: TrialSummary;
}) {
  const allFail = 1 - summary.passAtK;
  const flaky = 1 - summary.unanimous;
  const flakyRows = Math.round(flaky * summary.rows);
  return (
    <tr className="border-t border-slate-100 align-middle" data-metric={metric}>
      <th scope="row" className="py-1.5 pr-3 font-normal">
        <MetricName name={metric} />
      </th>
      <td className="py-1.5 pr-3">
        <div
          className="flex h-3 w-40 overflow-hidden rounded bg-slate-100"
          role="img"
          aria-label={`${formatPercent(allFail)} of rows failed every trial, ${formatPercent(flaky)} are flaky, ${formatPercent(summary.passAllK)} passed every trial`}
        >
          <span className="bg-rose-500" style={{ width: `${allFail * 100}%` }} />
          <span className="bg-amber-400" style={{ width: `${flaky * 100}%` }} />
          <span className="bg-emerald-500" style={{ width: `${summary.passAllK * 100}%` }} />
        </div>
        <Link
          href={runRowsViewHref(runId, query, { filter: "flaky", metric })}
          className="text-xs text-indigo-700 hover:underline"
          data-testid="trials-flaky-count"
        >
          {flakyRows} flaky of {summary.rows}
        </Link>
      </td>
      <td className="py-1.5 pr-3 tabular-nums" data-testid="trials-mean">
        {formatPercent(summary.meanPassRate)}
      </td>
      <td className="py-1.5 pr-3 tabular-nums" data-testid="trials-pass-at-k">
        {formatPercent(summary.passAtK)}
      </td>
      <td className="py-1.5 pr-3 tabular-nums" data-testid="trials-pass-all-k">
        {formatPercent(summary.passAllK)}
      </td>
      <td className="py-1.5 pr-3 tabular-nums" data-testid="trials-unanimous">
        {formatPercent(summary.unanimous)}
      </td>
      <td className="py-1.5 pr-3 tabular-nums" data-testid="trials-kappa">
        {summary.fleissKappa === null ? "–" : summary.fleissKappa.toFixed(2)}
      </td>
    </tr>
  );
}
