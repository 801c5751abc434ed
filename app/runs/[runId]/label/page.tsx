import { requirePageRole } from "@/components/auth/requirePageRole";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunBreadcrumb } from "@/components/runs/header/RunBreadcrumb";
import { LabellingQueueView } from "@/components/labels/LabellingQueueView";
import { Button } from "@/components/ui/Button";
import { CardFrame } from "@/components/ui/Card";
import { getDb } from "@/lib/db/client";
import { roleCan } from "@/lib/auth/permissions";
import { getRun } from "@/lib/db/runs/runQueries";
import { labellableRunMetrics } from "@/lib/labels/labelKinds";
import { parseLabelQueueQuery, QUEUE_TARGETS } from "@/lib/urlState/labelQueueQuery";
import { metricShortName } from "@/lib/urlState/runRowQuery";
import type { SearchParams } from "@/lib/urlState/searchParams";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Labelling queue" };

type Props = { params: Promise<{ runId: string }>; searchParams: Promise<SearchParams> };

/** Which rows to label next for the most information about one judge of this run. */
export default async function LabelQueuePage({ params, searchParams }: Props) {
  const { runId } = await params;
  const user = await requirePageRole("data.read", `/runs/${runId}/label`);
  const run = await getRun(getDb(), runId);
  if (!run) notFound();
  const query = parseLabelQueueQuery(await searchParams);
  const labellable = labellableRunMetrics(run).map((entry) => entry.metric);
  const metric = query.queue && labellable.includes(query.queue) ? query.queue : labellable[0];

  return (
    <div className="space-y-4">
      <div>
        <RunBreadcrumb run={run} />
        <h1 className="text-xl font-semibold tracking-tight">Labelling queue</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          The rows to label next, stratified by this run&apos;s verdict so a judge that says “yes” 95 % of the time
          still gets its “no”s checked. Rows already labelled are skipped; the order is stable, so two reviewers see the
          same queue. Ask for several labels per row to learn how far your labellers agree with each other.
        </p>
      </div>
      {metric === undefined ? (
        <CardFrame>
          <p className="text-sm text-slate-600">No judge of this run takes a human label.</p>
        </CardFrame>
      ) : (
        <>
          <CardFrame as="form" action={`/runs/${run.id}/label`} method="get" className="flex flex-wrap items-end gap-3">
            <label className="text-sm">
              <span className="block text-xs text-slate-600">Judge</span>
              <select name="queue" defaultValue={metric} className="rounded border border-slate-300 px-1 py-1 text-sm">
                {labellable.map((name) => (
                  <option key={name} value={name}>
                    {metricShortName(name)}
                  </option>
                ))}
              </select>
            </label>
            <label className="text-sm">
              <span className="block text-xs text-slate-600">Target</span>
              <select
                name="target"
                defaultValue={String(query.target)}
                className="rounded border border-slate-300 px-1 py-1 text-sm"
              >
                {[...new Set([...QUEUE_TARGETS, query.target])]
                  .sort((a, b) => a - b)
                  .map((target) => (
                    <option key={target} value={target}>
                      {target}
                    </option>
                  ))}
              </select>
            </label>
            {query.seed !== undefined && <input type="hidden" name="seed" value={query.seed} />}
            <Button size="sm">Show queue</Button>
          </CardFrame>
          <LabellingQueueView
            run={run}
            query={{ ...query, queue: metric }}
            viewer={{ id: user.id, canLabel: roleCan(user.role, "labels.write") }}
          />
        </>
      )}
    </div>
  );
}
