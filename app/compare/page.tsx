import type { Metadata } from "next";
import { isAgentValueMetric } from "@/lib/contract/aggregates";
import { requirePageRole } from "@/components/auth/requirePageRole";
import { CompareBars } from "@/components/charts/CompareBars";
import { FlipList } from "@/components/compare/FlipList";
import { PairwisePanel } from "@/components/compare/pairwise/PairwisePanel";
import { describeJudgeProvider } from "@/lib/config/describeJudgeProvider";
import { MetricComparisonTable } from "@/components/compare/MetricComparisonTable";
import { RunJudgingHeader } from "@/components/compare/RunJudgingHeader";
import { RowPairingNotice } from "@/components/compare/RowPairingNotice";
import { RunPicker } from "@/components/compare/RunPicker";
import { CompareAgreement } from "@/components/labels/CompareAgreementTable";
import { AutoRefresh } from "@/components/ui/AutoRefresh";
import { DownloadButton } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { prepareCompareBars } from "@/lib/charts/compareBars";
import { formatInteger } from "@/lib/charts/format";
import { BOOTSTRAP_MAX_PAIRS, compareRuns, DEFAULT_COMPARE_WAIT_MS } from "@/lib/compare/compareRuns";
import { readFlipPage } from "@/lib/compare/flipPages";
import { readPairwiseFlipPage } from "@/lib/compare/pairwiseFlips";
import { readPairwiseAgreement } from "@/lib/compare/pairwiseAgreement";
import { countVerdicts, describeVerdicts } from "@/lib/compare/verdictSummary";
import { CorrectionChoice } from "@/components/compare/CorrectionChoice";
import { getDb } from "@/lib/db/client";
import { getRun, listRunsForPicker } from "@/lib/db/runs/runQueries";
import {
  compareExportHref,
  compareHref,
  compareParams,
  FLIPS_PER_PAGE,
  parseCompareQuery,
  withoutRuns,
} from "@/lib/urlState/compareQuery";
import type { SearchParams } from "@/lib/urlState/searchParams";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Compare runs" };

export default async function ComparePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePageRole("data.read", "/compare");
  const asked = parseCompareQuery(await searchParams);
  const db = getDb();
  // A link kept after a run was deleted still compares the runs that remain, and says which one is gone.
  const [picker, found] = await Promise.all([
    listRunsForPicker(db),
    Promise.all(asked.runs.map((id) => getRun(db, id))),
  ]);
  const missing = asked.runs.filter((_, i) => found[i] === null);
  const query = withoutRuns(asked, missing);
  const missingNotice = missing.length > 0 && <MissingRunsNotice missing={missing} remaining={query.runs.length} />;
  if (query.runs.length < 2) {
    return (
      <div className="space-y-4">
        <h1 className="text-xl font-semibold tracking-tight">Compare runs</h1>
        {missingNotice}
        {picker.length < 2 ? (
          <EmptyState
            title="Two runs are needed"
            body="Start at least two runs on a dataset (for example two judge models, or generation with two chat models), then compare them here."
          />
        ) : (
          <RunPicker runs={picker} selected={query.runs} baseline={query.baseline} />
        )}
      </div>
    );
  }
  const baselineId = query.baseline && query.runs.includes(query.baseline) ? query.baseline : query.runs[0];
  const comparison = await compareRuns(db, query.runs, baselineId, {
    correction: query.correction,
    waitMs: DEFAULT_COMPARE_WAIT_MS,
  });
  if (!comparison)
    return (
      <EmptyState
        title="A run was not found"
        body="One of the runs in the link no longer exists. Pick the runs again."
      />
    );
  // Candidates with rows paired to the baseline's (on its dataset, or by request on another) have flips to list.
  const candidates = comparison.runs.filter((run) => run.id !== baselineId && comparison.paired?.[run.id]);
  const candidateId =
    query.candidate && candidates.some((c) => c.id === query.candidate) ? query.candidate : candidates[0]?.id;
  // The runs as loaded above (status and finish time): a completed pair's pages are kept (flipPages.ts).
  const loadedRun = (id: string) => found.find((run) => run?.id === id);
  const baselineRun = loadedRun(baselineId);
  const candidateRun = candidateId ? loadedRun(candidateId) : undefined;
  // A pairwise criterion picked as the list's metric lists the pairs its judge decided (B lost, B won).
  const pairwiseFlips =
    candidateRun &&
    (await readPairwiseFlipPage(db, comparison.pairwise?.[candidateRun.id], {
      metric: query.metric,
      direction: query.direction,
      page: query.page,
      pageSize: FLIPS_PER_PAGE,
    }));
  const flips = pairwiseFlips
    ? pairwiseFlips
    : baselineRun && candidateRun
      ? await readFlipPage(db, baselineRun, candidateRun, {
          metric: query.metric,
          direction: query.direction,
          page: query.page,
          pageSize: FLIPS_PER_PAGE,
          paired: comparison.paired?.[candidateRun.id],
        })
      : null;
  const params = compareParams(query, baselineId, candidateId);

  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Compare runs</h1>
        <p className="text-sm text-slate-500">
          Deltas are against the baseline. Yes/no metrics: exact McNemar test on rows both runs judged. Scores: paired
          bootstrap of the mean difference (1,000 resamples, cached per pair of runs; a large comparison shows
          &ldquo;computing&hellip;&rdquo; until it is done); above {formatInteger(BOOTSTRAP_MAX_PAIRS)} paired rows, the
          normal interval of the mean difference, from its sums in SQL. The metrics compared are read together: their
          p-values are adjusted (Holm&apos;s method by default) before a change is called real.
        </p>
        <p className="mt-1 flex gap-2 text-sm">
          <DownloadButton
            href={compareExportHref(query.runs, "csv", { baseline: baselineId, correction: query.correction })}
            size="xs"
          >
            Export rows CSV
          </DownloadButton>
          <DownloadButton
            href={compareExportHref(query.runs, "csv", {
              baseline: baselineId,
              part: "statistics",
              correction: query.correction,
            })}
            size="xs"
          >
            Export statistics CSV
          </DownloadButton>
          <DownloadButton
            href={compareExportHref(query.runs, "csv", {
              baseline: baselineId,
              part: "flips",
              correction: query.correction,
            })}
            size="xs"
          >
            Export flipped rows CSV
          </DownloadButton>
          <DownloadButton
            href={compareExportHref(query.runs, "json", { baseline: baselineId, correction: query.correction })}
            size="xs"
          >
            Export JSON (statistics, flips, rows)
          </DownloadButton>
        </p>
      </div>
      {missingNotice}
      {!comparison.sameDataset && <RowPairingNotice comparison={comparison} />}
      {/* Tests and judges still being read in the background show as "computing…" until a refresh finds them. */}
      <AutoRefresh
        active={
          (comparison.pendingDeltas ?? 0) > 0 ||
          (comparison.pairedPending?.length ?? 0) > 0 ||
          comparison.runs.some((run) => run.judging.metricJudgesPending)
        }
      />
      <RunJudgingHeader runs={comparison.runs} baselineId={baselineId} />
      <p className="text-sm font-medium text-slate-800" data-testid="verdict-summary">
        {describeVerdicts(countVerdicts(comparison))}
      </p>
      <CorrectionChoice comparison={comparison} params={params} />
      <MetricComparisonTable comparison={comparison} />
      {baselineRun && candidateRun && (
        <PairwisePanel
          view={comparison.pairwise?.[candidateRun.id] ?? null}
          baseline={{ id: baselineRun.id, name: baselineRun.name }}
          candidate={{ id: candidateRun.id, name: candidateRun.name }}
          pairs={
            baselineRun.datasetId === candidateRun.datasetId
              ? baselineRun.dataset.rowCount
              : (comparison.rowPairings?.[candidateRun.id]?.paired ?? 0)
          }
          judgeLabel={describeJudgeProvider().label}
          agreement={
            comparison.pairwise?.[candidateRun.id]
              ? await readPairwiseAgreement(db, comparison.pairwise[candidateRun.id].comparison, {
                  baselineGenerates: baselineRun.generationModel !== null,
                  candidateGenerates: candidateRun.generationModel !== null,
                })
              : null
          }
        />
      )}
      {candidateId && <CompareAgreement runs={comparison.runs} baselineId={baselineId} candidateId={candidateId} />}
      <CompareBars data={prepareCompareBars(comparison)} />
      {flips && candidateId && (
        <>
          {candidates.length > 1 && (
            <nav className="flex gap-1 text-sm" aria-label="Candidate run">
              {candidates.map((c) => (
                <a
                  key={c.id}
                  href={compareHref(query.runs, { baseline: baselineId, candidate: c.id, hash: "flips" })}
                  className={`rounded px-2 py-1 ${c.id === candidateId ? "bg-slate-800 text-white" : "hover:bg-slate-100"}`}
                >
                  {c.name}
                </a>
              ))}
            </nav>
          )}
          <FlipList
            flips={flips.items}
            total={flips.total}
            page={query.page}
            pageSize={FLIPS_PER_PAGE}
            params={params}
            baselineId={baselineId}
            candidateId={candidateId}
            // Yes/no metrics flip on their rating, scores on their success; agent/* values have no pass mark, and a
            // metric only one of the two runs judged has nothing to flip.
            metrics={comparison.metrics
              .filter(
                (m) =>
                  !isAgentValueMetric(m.metric) &&
                  m.cells[baselineId]?.aggregate != null &&
                  m.cells[candidateId]?.aggregate != null,
              )
              .map((m) => m.metric)
              .concat((comparison.pairwise?.[candidateId]?.criteria ?? []).map((c) => c.metric))}
          />
        </>
      )}
      {!flips && (comparison.pairedPending?.length ?? 0) > 0 && (
        <p className="text-sm text-slate-500" data-testid="flips-pending">
          Flipped rows: computing the paired counts of every row&hellip;
        </p>
      )}
      <details className="text-sm" open={missing.length > 0}>
        <summary className="cursor-pointer text-slate-600">Change the runs</summary>
        <div className="mt-2">
          <RunPicker runs={picker} selected={query.runs} baseline={baselineId} />
        </div>
      </details>
    </div>
  );
}

/** Which runs of the link no longer exist, and what the page does instead of giving up. */
function MissingRunsNotice({ missing, remaining }: { missing: string[]; remaining: number }) {
  const ids = missing.map((id, i) => (
    <span key={id}>
      {i > 0 && ", "}
      <code className="font-mono">{id}</code>
    </span>
  ));
  return (
    <p
      role="status"
      data-testid="missing-runs"
      className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      {missing.length === 1 ? "Run " : "Runs "}
      {ids} {missing.length === 1 ? "no longer exists" : "no longer exist"} (deleted since this link was made).{" "}
      {remaining >= 2
        ? `Comparing the ${remaining} remaining runs; pick others below.`
        : "Pick the runs to compare below."}
    </p>
  );
}
