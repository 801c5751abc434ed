import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/components/auth/requirePageRole";
import { JudgeLabel } from "@/components/runs/JudgeLabel";
import { RunStatusBadge } from "@/components/runs/RunStatusBadge";
import { AutoRefresh } from "@/components/ui/AutoRefresh";
import { LinkButton } from "@/components/ui/Button";
import { CardFrame } from "@/components/ui/Card";
import { EmptyState } from "@/components/ui/EmptyState";
import { ProgressBar } from "@/components/ui/ProgressBar";
import { formatCount, formatDateTime, formatInteger, formatPercent, formatSeconds } from "@/lib/charts/format";
import { creatorLabel } from "@/lib/auth/creatorLabel";
import { getDb } from "@/lib/db/client";
import { listRuns } from "@/lib/db/runs/runQueries";
import { userIdentitiesById } from "@/lib/db/accounts/userQueries";
import { listRecentWorkers } from "@/lib/db/work/workers";
import { workerTimeoutMs } from "@/lib/engine/worker/workerSettings";
import { RunTag } from "@/components/runs/list/RunTag";
import { WorkersPanel } from "@/components/runs/list/WorkersPanel";
import { firstValues, type SearchParams } from "@/lib/urlState/searchParams";
import { z } from "zod";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePageRole("data.read", "/runs");
  const db = getDb();
  // ?tag=branch=main: only the runs with that tag (a CI job's --tag), as the API's run list filters them.
  const tag = z
    .string()
    .trim()
    .min(1)
    .max(60)
    .safeParse(firstValues(await searchParams).tag).data;
  const runs = await listRuns(db, 200, undefined, tag);
  const creators = await userIdentitiesById(
    db,
    runs.map((run) => run.createdById),
  );
  const timeoutMs = workerTimeoutMs();
  const workers = await listRecentWorkers(db, { timeoutMs, windowMs: 60 * 60 * 1000 });
  return (
    <div className="space-y-4">
      <AutoRefresh
        active={
          runs.some((run) => run.status === "running" || run.status === "pending") ||
          workers.some((w) => !w.gone && w.runId !== null)
        }
      />
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Runs</h1>
        <p className="text-sm text-slate-500">Every evaluation run, newest first. Start one from a dataset.</p>
        {tag && (
          <p role="status" className="mt-1 text-sm text-slate-700" data-testid="runs-tag-filter">
            Runs tagged <RunTag tag={tag} /> ·{" "}
            <Link href="/runs" className="text-indigo-700 hover:underline">
              all runs
            </Link>
          </p>
        )}
      </div>
      {runs.length === 0 ? (
        <EmptyState
          title={tag ? `No run has the tag ${tag}` : "No runs yet"}
          body={
            tag
              ? "Tags are given when a run starts (the run form, or --tag in the CLI)."
              : "Open a dataset and choose “New run” to judge it."
          }
          action={
            <LinkButton href="/datasets" variant="primary" size="lg" className="text-sm">
              Go to datasets
            </LinkButton>
          }
        />
      ) : (
        <CardFrame as="div" padding="none" className="overflow-x-auto">
          <table className="w-full text-sm" data-testid="runs-table">
            <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
              <tr>
                <th className="px-3 py-2">Run</th>
                <th className="px-3 py-2">Dataset</th>
                <th className="px-3 py-2">Judge</th>
                <th className="px-3 py-2 w-56">Progress</th>
                <th className="px-3 py-2">Pass rates</th>
                <th className="px-3 py-2">Started</th>
                <th className="px-3 py-2">By</th>
                <th
                  className="px-3 py-2 text-right"
                  title="Time spent working, without the time an interrupted run waited to be resumed"
                >
                  Working time
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {runs.map((run) => {
                const c = run.counts;
                const toJudge = (c.pending ?? 0) + (c.running ?? 0) + (c.done ?? 0) + (c.error ?? 0);
                const judged = (c.done ?? 0) + (c.error ?? 0);
                const wallClock = run.startedAt
                  ? ((run.finishedAt ?? new Date()).getTime() - run.startedAt.getTime()) / 1000
                  : null;
                // Working time when it was recorded (runs from before it was, show their wall-clock span).
                const duration = run.workingMs > 0 ? run.workingMs / 1000 : wallClock;
                const rejudging = (run.status === "running" || run.status === "pending") && run.rejudgeTotal !== null;
                const rejudged = rejudging
                  ? Math.max(0, (run.rejudgeTotal ?? 0) - (c.pending ?? 0) - (c.running ?? 0))
                  : 0;
                return (
                  <tr key={run.id} className="align-top hover:bg-slate-50">
                    <td className="px-3 py-2">
                      <Link href={`/runs/${run.id}`} className="font-medium text-indigo-700 hover:underline">
                        {run.name}
                      </Link>
                      <div className="mt-0.5">
                        <RunStatusBadge status={run.status} rejudgeTotal={run.rejudgeTotal} />
                      </div>
                      {run.tags.length > 0 && (
                        <div className="mt-1 flex max-w-xs flex-wrap gap-1" data-testid="run-tags">
                          {run.tags.map((runTag) => (
                            <Link
                              key={runTag}
                              href={`/runs?tag=${encodeURIComponent(runTag)}`}
                              title={`Runs tagged ${runTag}`}
                            >
                              <RunTag tag={runTag} />
                            </Link>
                          ))}
                        </div>
                      )}
                    </td>
                    <td className="px-3 py-2">
                      <Link href={`/datasets/${run.dataset.id}`} className="hover:underline">
                        {run.dataset.name}
                      </Link>
                    </td>
                    <td className="px-3 py-2">
                      <JudgeLabel provider={run.judgeProvider} model={run.judgeModel} />
                      {run.generationModel && (
                        <div className="mt-1 text-xs text-violet-700">generated by {run.generationModel}</div>
                      )}
                    </td>
                    <td className="px-3 py-2">
                      <ProgressBar
                        value={
                          rejudging
                            ? (run.rejudgeTotal ?? 0) === 0
                              ? 1
                              : rejudged / (run.rejudgeTotal ?? 1)
                            : toJudge === 0
                              ? 1
                              : judged / toJudge
                        }
                        label={`Progress of ${run.name}`}
                        tone={run.status === "running" || run.status === "pending" ? "indigo" : "emerald"}
                      />
                      <div className="mt-0.5 text-xs tabular-nums text-slate-500">
                        {rejudging
                          ? `${formatCount(rejudged)} of ${formatCount(run.rejudgeTotal)} re-judged`
                          : `${formatCount(judged)} / ${formatCount(toJudge)}`}
                        {c.error ? <span className="text-red-700"> · {c.error} errors</span> : null}
                      </div>
                    </td>
                    <td className="px-3 py-2 text-xs">
                      <div className="flex max-w-xs flex-wrap gap-x-3 gap-y-0.5">
                        {run.headlines.slice(0, 4).map((h) => (
                          <span
                            key={h.metric}
                            className="whitespace-nowrap tabular-nums"
                            title={`${h.metric}: ${formatInteger(h.judged)} judged rows`}
                          >
                            {h.metric.split("/").pop()}{" "}
                            <b
                              className={
                                h.rate >= 0.8 ? "text-emerald-700" : h.rate >= 0.6 ? "text-amber-700" : "text-rose-700"
                              }
                            >
                              {formatPercent(h.rate, 0)}
                            </b>
                          </span>
                        ))}
                        {run.headlines.length > 4 && (
                          <span
                            className="whitespace-nowrap text-slate-500"
                            title={run.headlines
                              .slice(4)
                              .map((h) => `${h.metric.split("/").pop()} ${formatPercent(h.rate, 0)}`)
                              .join(", ")}
                          >
                            +{run.headlines.length - 4} more
                          </span>
                        )}
                      </div>
                    </td>
                    <td className="px-3 py-2 text-slate-600">{run.startedAt ? formatDateTime(run.startedAt) : "—"}</td>
                    <td className="px-3 py-2 text-slate-600">{creatorLabel(run.createdById, creators)}</td>
                    <td className="px-3 py-2 text-right tabular-nums text-slate-600">{formatSeconds(duration)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </CardFrame>
      )}
      <WorkersPanel workers={workers} timeoutMs={timeoutMs} />
    </div>
  );
}
