import { requirePageRole } from "@/components/auth/requirePageRole";
import { roleCan } from "@/lib/auth/permissions";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunBreadcrumb } from "@/components/runs/header/RunBreadcrumb";
import { AlignForm } from "@/components/alignment/AlignForm";
import { AlignmentHistory } from "@/components/alignment/AlignmentHistory";
import { CardFrame } from "@/components/ui/Card";
import { formatInteger, formatUsd } from "@/lib/charts/format";
import { getDb } from "@/lib/db/client";
import { getRun } from "@/lib/db/runs/runQueries";
import { previewAlignment } from "@/lib/engine/alignment/previewAlignment";
import { configuredPrices } from "@/lib/server/runSpendingGuard";
import { metricShortName } from "@/lib/urlState/runRowQuery";
import { firstValue, type SearchParams } from "@/lib/urlState/searchParams";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Align a judge" };

type Props = { params: Promise<{ runId: string }>; searchParams: Promise<SearchParams> };

/**
 * Align one of a run's judges with its labels: what the labels are, how they will be split, what measuring
 * the aligned version will cost; the optional guidance draft; and the judge's earlier aligned versions.
 */
export default async function AlignJudgePage({ params, searchParams }: Props) {
  const { runId } = await params;
  const user = await requirePageRole("data.read", `/runs/${runId}/align`);
  const db = getDb();
  const run = await getRun(db, runId);
  if (!run) notFound();
  const metric = firstValue((await searchParams).metric) ?? "";
  const preview = await previewAlignment(db, run, metric, configuredPrices());
  const name = metricShortName(metric);
  const { estimate } = preview;
  return (
    <div className="space-y-4">
      <div>
        <RunBreadcrumb run={run} />
        <h1 className="text-xl font-semibold tracking-tight">Align {name} with its labels</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Assay splits this judge&apos;s labelled rows into a training part and a held-out part (stratified by label,
          seeded, stored), builds a new version of the judge that shows labelled training rows as worked examples, and
          measures it on the held-out rows only, beside this run&apos;s verdicts on the same rows. The new version is a
          judge of its own; {name} itself does not change.
        </p>
      </div>
      <CardFrame data-testid="alignment-preview">
        <h2 className="text-sm font-semibold">Labels and split</h2>
        <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
          <Figure term="Labelled yes / no" value={`${preview.labels.yes} / ${preview.labels.no}`} />
          <Figure term="Judge disagrees" value={String(preview.labels.disagreements)} />
          <Figure term="Training (examples from it)" value={`${preview.training} (${preview.examples} shown)`} />
          <Figure
            term="Held out (never shown)"
            value={`${preview.heldOut}${preview.keptHeldOut > 0 ? `, ${preview.keptHeldOut} kept from earlier` : ""}`}
          />
        </dl>
        <p className="mt-2 text-xs text-slate-600" data-testid="alignment-estimate">
          Measuring it: {formatInteger(estimate.llmCalls)} LLM calls to {run.judgeModel} (one per held-out row; the
          original&apos;s verdicts are this run&apos;s), about {formatInteger(estimate.inputTokens)} input and{" "}
          {formatInteger(estimate.outputTokens)} output tokens,{" "}
          {estimate.usd === null ? "price unknown (no price set for this model)" : `about ${formatUsd(estimate.usd)}`}.
          A guidance draft is one call more. Counted against this server&apos;s spending limit per run.
        </p>
      </CardFrame>
      <CardFrame>
        {!roleCan(user.role, "judge.align") ? (
          <p className="text-sm text-slate-600">Aligning a judge needs the runner role.</p>
        ) : preview.problem ? (
          <p className="text-sm text-rose-800" role="alert" data-testid="alignment-problem">
            This judge cannot be aligned: {preview.problem}.
          </p>
        ) : (
          <AlignForm
            runId={run.id}
            metric={metric}
            heldOut={preview.heldOut}
            canDraft={(preview.guidanceContext?.disagreements.length ?? 0) > 0}
          />
        )}
      </CardFrame>
      <AlignmentHistory alignments={preview.earlier} />
    </div>
  );
}

function Figure({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{term}</dt>
      <dd className="font-medium">{value}</dd>
    </div>
  );
}
