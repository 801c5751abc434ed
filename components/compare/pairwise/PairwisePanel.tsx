import { AutoRefresh } from "@/components/ui/AutoRefresh";
import { DownloadButton } from "@/components/ui/Button";
import { compareExportHref } from "@/lib/urlState/compareQuery";
import { CardFrame } from "@/components/ui/Card";
import { ProgressBar } from "@/components/ui/ProgressBar";
import type { PairwiseView } from "@/lib/compare/pairwiseResults";
import type { PairwiseAgreement } from "@/lib/compare/pairwiseAgreement";
import { PairwiseAgreementLine } from "./PairwiseAgreementLine";
import { PairwiseDiagnostics } from "./PairwiseDiagnostics";
import { PairwiseOutcomeBar } from "./PairwiseOutcomeBar";
import { PairwiseStartForm } from "./PairwiseStartForm";
import { ResumePairwiseButton } from "./ResumePairwiseButton";

type Side = { id: string; name: string };

const VERDICT_TONE = {
  better: "text-emerald-800",
  worse: "text-rose-800",
  noise: "text-slate-700",
  pending: "text-slate-500",
  "n/a": "text-slate-500",
} as const;

/**
 * Pairwise judging on the compare page, for the candidate shown: the form that starts it (with its call count),
 * its progress while it is judged, then per criterion B's result against A (a bar of wins, ties and losses, the
 * verdict in compare's words) and the judge's diagnostics.
 */
export function PairwisePanel({
  view,
  baseline,
  candidate,
  pairs,
  judgeLabel,
  agreement,
}: {
  view: PairwiseView | null;
  /** People's A/B verdicts against the judge's, when there is a comparison. */
  agreement: PairwiseAgreement | null;
  baseline: Side;
  candidate: Side;
  /** Rows the two runs pair on: what a new comparison would judge. */
  pairs: number;
  judgeLabel: string;
}) {
  return (
    <CardFrame id="pairwise" aria-labelledby="pairwise-title" data-testid="pairwise-panel" className="space-y-3">
      <div>
        <h2 id="pairwise-title" className="text-sm font-semibold">
          Which answer is better? Pairwise judgment of B ({candidate.name}) against A ({baseline.name})
        </h2>
        <p className="text-xs text-slate-500">
          For each paired row, a judge reads the request, both answers side by side (and the expected answer and
          retrieved context when the row has them) and says which is better, or tie. More sensitive than comparing two
          pass rates, and judged in both orders so the judge&apos;s preference for the first-shown answer cannot decide.
        </p>
      </div>
      {view ? (
        <>
          <PairwiseState view={view} baseline={baseline} candidate={candidate} />
          {agreement && <PairwiseAgreementLine agreement={agreement} />}
          <DownloadButton
            href={compareExportHref([baseline.id, candidate.id], "csv", { baseline: baseline.id, part: "pairwise" })}
            size="xs"
          >
            Export pairwise verdicts CSV (both orders, rationales, people&apos;s verdicts)
          </DownloadButton>
        </>
      ) : (
        <PairwiseStartForm
          baselineRunId={baseline.id}
          candidateRunId={candidate.id}
          pairs={pairs}
          judgeLabel={judgeLabel}
        />
      )}
    </CardFrame>
  );
}

function PairwiseState({ view, baseline, candidate }: { view: PairwiseView; baseline: Side; candidate: Side }) {
  const { comparison } = view;
  const judging = comparison.status === "judging" || comparison.status === "planning";
  const progress = comparison.progress.total > 0 ? comparison.progress.done / comparison.progress.total : 0;
  return (
    <div className="space-y-3">
      {/* Refreshed while judged, and while it waits for a process: a worker's sweep picks a stopped one up. */}
      <AutoRefresh active={judging} />
      <p className="text-xs text-slate-600" data-testid="pairwise-judge">
        Judge:{" "}
        {comparison.judgeProvider === "heuristic"
          ? "offline approximation from the heuristic judge's pointwise rules (not a model's comparison)"
          : comparison.judgeModel}
        {" · "}
        {comparison.orders === "both"
          ? "both orders"
          : `one order per row, drawn from seed ${comparison.seed} (weaker: position bias averaged, not caught)`}
        {" · "}
        {comparison.spent.llmCalls.toLocaleString("en-US")} calls
        {comparison.spent.costUsd !== null && ` · $${comparison.spent.costUsd.toFixed(2)}`}
      </p>
      {view.selfPreference && (
        <p
          role="note"
          className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900"
          data-testid="self-preference"
        >
          {view.selfPreference}
        </p>
      )}
      {judging && (
        <div className="space-y-1" data-testid="pairwise-progress">
          <ProgressBar value={progress} label="Pairwise judging progress" />
          <p className="flex items-center gap-2 text-xs text-slate-600">
            {comparison.progress.done.toLocaleString("en-US")} of {comparison.progress.total.toLocaleString("en-US")}{" "}
            judgments
            {comparison.stopped &&
              (comparison.progress.done > 0
                ? " · no process is judging it (its server stopped): a worker resumes it within seconds, or resume it here"
                : " · waiting for the server or a worker to start judging it")}
            {comparison.stopped && <ResumePairwiseButton comparisonId={comparison.id} label="Resume" />}
          </p>
        </div>
      )}
      {comparison.status === "failed" && (
        <p role="alert" className="flex items-center gap-2 text-xs text-rose-800">
          {comparison.errorMessage ?? "Judging failed."}
          <ResumePairwiseButton
            comparisonId={comparison.id}
            label="Judge what is left"
            raiseCallsFrom={
              comparison.budget.calls !== null && comparison.spent.llmCalls >= comparison.budget.calls
                ? comparison.budget.calls
                : null
            }
          />
        </p>
      )}
      {view.criteria.map(({ criterion, metric, delta, statuses }) => (
        <section
          key={metric}
          className="space-y-2 border-t border-slate-100 pt-2"
          data-testid={`pairwise-${criterion.name}`}
        >
          <h3 className="text-sm font-medium">
            <code className="font-mono text-xs">{metric}</code>
            {criterion.instructions && (
              <span className="ml-2 text-xs font-normal text-slate-500">{criterion.instructions}</span>
            )}
          </h3>
          <p className={`text-sm font-medium ${VERDICT_TONE[delta.verdict]}`} data-testid="pairwise-verdict">
            {delta.words}
          </p>
          {delta.pairwise && (
            <>
              <PairwiseOutcomeBar
                summary={delta.pairwise}
                baselineName={baseline.name}
                candidateName={candidate.name}
              />
              {delta.pairwise.winRateWithoutTies && (
                <p className="text-xs text-slate-600">
                  Without ties: B wins {(delta.pairwise.winRateWithoutTies.value * 100).toFixed(1)}% of{" "}
                  {delta.pairwise.winRateWithoutTies.of} decisive pairs (95% CI{" "}
                  {(delta.pairwise.winRateWithoutTies.low * 100).toFixed(1)} to{" "}
                  {(delta.pairwise.winRateWithoutTies.high * 100).toFixed(1)}).
                </p>
              )}
              <PairwiseDiagnostics summary={delta.pairwise} orders={comparison.orders} />
            </>
          )}
          {(statuses.error > 0 || statuses.skipped > 0) && (
            <p className="flex items-center gap-2 text-xs text-amber-800">
              {statuses.error > 0 && `${statuses.error} judgments failed (no verdict). `}
              {statuses.skipped > 0 && `${statuses.skipped} skipped: a side had no response.`}
              {statuses.error > 0 && !judging && (
                <ResumePairwiseButton comparisonId={comparison.id} label="Try the failed ones again" />
              )}
            </p>
          )}
        </section>
      ))}
    </div>
  );
}
