import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { cancelRun } from "@/app/actions/cancelRun";
import { requirePageRole } from "@/components/auth/requirePageRole";
import { RunChartsSection } from "@/components/charts/RunChartsSection";
import { AgreementPanel } from "@/components/labels/AgreementPanel";
import { RunAlignedJudges } from "@/components/alignment/RunAlignedJudges";
import { JudgeLabel } from "@/components/runs/JudgeLabel";
import { RejudgeButton } from "@/components/runs/header/RejudgeButton";
import { ResumeRunButton } from "@/components/runs/header/ResumeRunButton";
import { RunStatusBadge } from "@/components/runs/RunStatusBadge";
import { RunDuration, RunTimeline } from "@/components/runs/header/RunTimeline";
import { LiveProgress } from "@/components/runs/summary/LiveProgress";
import { GEvalStepsPanel } from "@/components/runs/summary/GEvalStepsPanel";
import { MetricCards } from "@/components/runs/summary/MetricCards";
import { TrialsPanel } from "@/components/runs/summary/TrialsPanel";
import { trialsOf } from "@/lib/db/runs/storedRun";
import { RunRowFilters } from "@/components/runs/rows/RunRowFilters";
import { RunRowsTable } from "@/components/runs/rows/RunRowsTable";
import { RunSettings } from "@/components/runs/header/RunSettings";
import { metricSettingsText } from "@/lib/metrics/metricSettingsText";
import { SkipToRows } from "@/components/runs/rows/SkipToRows";
import { RememberFocus } from "@/components/table/RememberFocus";
import { GenerationTemplates } from "@/components/runs/GenerationProvenance";
import { Button, DownloadButton } from "@/components/ui/Button";
import { CardFrame } from "@/components/ui/Card";
import { CardSkeleton } from "@/components/ui/Skeleton";
import { formatDateTime, formatInteger } from "@/lib/charts/format";
import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import { getDb } from "@/lib/db/client";
import { datasetHasSeveralLabellers } from "@/lib/db/labels/peopleLabelQueries";
import { creatorLabel } from "@/lib/auth/creatorLabel";
import { roleCan } from "@/lib/auth/permissions";
import { currentUser } from "@/lib/auth/requireRole";
import { mayChangeRunBudget, runBudgetRefusal } from "@/lib/auth/runOwnership";
import { listGenerationTemplates } from "@/lib/db/runs/generationQueries";
import { listRunEvents } from "@/lib/db/runs/runEvents";
import { listSkipReasons } from "@/lib/db/judgments/skipReasonQueries";
import { getRun, getRunProgress } from "@/lib/db/runs/runQueries";
import { listRunRows } from "@/lib/db/runs/runRowQueries";
import { userIdentitiesById } from "@/lib/db/accounts/userQueries";
import { parseRunRowQuery, shownMetricColumns, type RunRowQuery } from "@/lib/urlState/runRowQuery";
import type { SearchParams } from "@/lib/urlState/searchParams";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ runId: string }>; searchParams: Promise<SearchParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  // A signed-out visitor (sent on to the sign-in page) learns no run's name from the title.
  if (!(await currentUser())) return { title: "Run" };
  const run = await getRun(getDb(), (await params).runId);
  return { title: run?.name ?? "Run not found" };
}

export default async function RunPage({ params, searchParams }: Props) {
  const { runId } = await params;
  const user = await requirePageRole("data.read", `/runs/${runId}`);
  const can = {
    cancel: roleCan(user.role, "run.cancel"),
    resume: roleCan(user.role, "run.resume"),
    rejudge: roleCan(user.role, "run.rejudge"),
    update: roleCan(user.role, "run.update"),
    delete: roleCan(user.role, "run.delete"),
  };
  const db = getDb();
  const run = await getRun(db, runId);
  if (!run) notFound();
  const urlParams = await searchParams;
  const query = parseRunRowQuery(urlParams, run.config.metrics);
  const shownColumns = shownMetricColumns(query, run.config.metrics);
  const creatorNames = await userIdentitiesById(db, [run.createdById]);
  const creator = creatorLabel(run.createdById, creatorNames);
  const { config, tags } = run;
  const [aggregates, progress, generationTemplates, events, skipReasons] = await Promise.all([
    getRunAggregates(db, runId, config.metrics),
    getRunProgress(db, runId),
    run.generationModel ? listGenerationTemplates(db, runId) : null,
    listRunEvents(db, runId),
    listSkipReasons(db, runId),
  ]);
  const active = run.status === "pending" || run.status === "running";

  return (
    <div className="space-y-5">
      <SkipToRows />
      <RememberFocus />
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-xs text-slate-500">
            <Link href="/runs" className="hover:underline">
              Runs
            </Link>{" "}
            / on{" "}
            <Link href={`/datasets/${run.dataset.id}`} className="hover:underline">
              {run.dataset.name}
            </Link>
          </p>
          <h1 className="flex items-center gap-2 text-xl font-semibold tracking-tight">
            {run.name}{" "}
            <RunStatusBadge status={run.status} rejudgeTotal={run.rejudgeTotal} pauseReason={run.pauseReason} />
          </h1>
          <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-600">
            <JudgeLabel provider={run.judgeProvider} model={run.judgeModel} />
            {run.generationModel && (
              <span className="rounded-full border border-violet-300 bg-violet-50 px-2 py-0.5 text-violet-800">
                responses generated by {run.generationModel}
              </span>
            )}
            {tags.map((tag) => (
              <span key={tag} className="rounded bg-slate-100 px-1.5 py-0.5">
                {tag}
              </span>
            ))}
            <span>started {run.startedAt ? formatDateTime(run.startedAt) : "—"}</span>
            <span>
              by <span data-testid="created-by">{creator}</span>
            </span>
            <RunDuration startedAt={run.startedAt} finishedAt={run.finishedAt} workingMs={run.workingMs} />
            {metricSettingsText(config, { offline: run.judgeProvider === "heuristic" }).map((line) => (
              <span key={line} data-testid="metric-setting">
                · {line}
              </span>
            ))}
            {run.judgeProvider !== "heuristic" && (
              <span>
                · up to {formatInteger(run.concurrency)} LLM calls in flight per judging process · chunks{" "}
                {config.chunkMode === "batched" ? "batched per row" : "one call each"}
              </span>
            )}
          </div>
          <RunTimeline events={events} />
          {generationTemplates && <GenerationTemplates templates={generationTemplates} />}
          {run.errorMessage && (
            <p
              role={run.status === "paused" ? "status" : "alert"}
              data-testid="run-message"
              className={`mt-2 rounded border px-2 py-1 text-sm ${
                // A pause (budget, busy store) waits for the user or the store; only a failure is an error.
                run.status === "paused"
                  ? "border-amber-200 bg-amber-50 text-amber-900"
                  : "border-red-200 bg-red-50 text-red-800"
              }`}
            >
              {run.errorMessage}
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {active && can.cancel && (
            <form action={cancelRun}>
              <input type="hidden" name="runId" value={run.id} />
              <Button>Cancel run</Button>
            </form>
          )}
          {can.resume && (
            <ResumeRunButton
              runId={run.id}
              status={run.status}
              budgetChange={
                mayChangeRunBudget(user, run)
                  ? { allowed: true }
                  : {
                      allowed: false,
                      refusal: runBudgetRefusal(run.createdById ? (creatorNames.get(run.createdById) ?? null) : null),
                    }
              }
            />
          )}
          {can.rejudge && (run.status === "completed" || run.status === "failed") && progress.judgments.error > 0 && (
            <RejudgeButton
              runId={run.id}
              which="errored"
              label={`Re-judge ${formatInteger(progress.judgments.error)} errored`}
            />
          )}
          {can.rejudge && (run.status === "completed" || run.status === "failed") && (
            <RejudgeButton runId={run.id} which="errored_or_failed" label="Re-judge errored and failed" />
          )}
          <DownloadButton href={`/runs/${run.id}/export?format=csv`}>Export CSV</DownloadButton>
          <DownloadButton href={`/runs/${run.id}/export?format=json`}>Export JSON</DownloadButton>
        </div>
      </div>

      {/* Keyed by status, so a re-judge that makes a finished run active again starts the polling anew. */}
      <LiveProgress
        key={`${run.status}-${run.rejudgeTotal ?? ""}`}
        runId={run.id}
        initial={{ status: run.status, ...progress }}
      />
      {(can.update || can.delete) && (
        <RunSettings runId={run.id} name={run.name} tags={tags} canUpdate={can.update} canDelete={can.delete} />
      )}
      <MetricCards aggregates={aggregates} runId={run.id} active={active} skipReasons={skipReasons} />
      <RunChartsSection runId={run.id} metrics={config.metrics} filter={query} searchParams={urlParams} />
      {trialsOf(config) > 1 && (
        <Suspense fallback={<CardSkeleton />}>
          <TrialsPanel runId={run.id} trials={trialsOf(config)} metrics={config.metrics} query={query} />
        </Suspense>
      )}
      <GEvalStepsPanel
        runId={run.id}
        judges={config.gEvalJudges ?? []}
        thresholds={config.thresholds}
        exact={config.deepEval?.exact === true}
      />
      <Suspense fallback={<CardSkeleton />}>
        <AgreementPanel run={run} query={query} />
      </Suspense>
      <RunAlignedJudges run={run} />

      <CardFrame padding="none" id="rows" aria-label="Rows">
        <RunRowFilters
          runId={run.id}
          query={query}
          metrics={metricColumns(config.metrics)}
          shownColumns={shownColumns}
          trials={trialsOf(config)}
          severalLabellers={await datasetHasSeveralLabellers(db, run.datasetId)}
        />
        <Suspense key={JSON.stringify(query)} fallback={<CardSkeleton tall />}>
          <RunRowsSection run={run} query={query} metrics={shownColumns} />
        </Suspense>
      </CardFrame>
    </div>
  );
}

async function RunRowsSection({
  run,
  query,
  metrics,
}: {
  run: { id: string; datasetId: string };
  query: RunRowQuery;
  metrics: string[];
}) {
  const page = await listRunRows(getDb(), run, query);
  return <RunRowsTable runId={run.id} page={page} query={query} metrics={metricColumns(metrics)} />;
}

function metricColumns(metrics: string[]) {
  return metrics.map((name) => ({ name, short: name.split("/").pop() ?? name }));
}
