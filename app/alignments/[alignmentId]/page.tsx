import { requirePageRole } from "@/components/auth/requirePageRole";
import { adoptionAdvice } from "@/lib/alignment/adoptionAdvice";
import { roleCan } from "@/lib/auth/permissions";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { decideJudgeAlignment } from "@/app/actions/decideJudgeAlignment";
import { remeasureAlignment } from "@/app/actions/remeasureAlignment";
import { AlignmentComparison } from "@/components/alignment/AlignmentComparison";
import { AlignmentExamples } from "@/components/alignment/AlignmentExamples";
import { AutoRefresh } from "@/components/ui/AutoRefresh";
import { Button, LinkButton } from "@/components/ui/Button";
import { CardFrame } from "@/components/ui/Card";
import { ProgressBar } from "@/components/ui/ProgressBar";
import { alignedMetricName } from "@/lib/alignment/alignedDefinition";
import { storedComparison } from "@/lib/alignment/heldOutComparison";
import { formatInteger, formatUsd } from "@/lib/charts/format";
import { getAlignment, isAlignmentMeasurementStopped } from "@/lib/db/alignments/judgeAlignments";
import { getDb } from "@/lib/db/client";
import { getRun } from "@/lib/db/runs/runQueries";
import { metricShortName } from "@/lib/urlState/runRowQuery";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Aligned judge" };

type Props = { params: Promise<{ alignmentId: string }> };

/**
 * One aligned version of a judge: its measurement's progress, then the proof on the held-out rows beside
 * the original, what its prompt adds, and the decision (adopt for later runs, or discard).
 */
export default async function AlignmentPage({ params }: Props) {
  const { alignmentId } = await params;
  const user = await requirePageRole("data.read", `/alignments/${alignmentId}`);
  // A viewer reads the proof; adopting, discarding and measuring again need the runner role.
  const canAlign = roleCan(user.role, "judge.align");
  const db = getDb();
  const alignment = await getAlignment(db, alignmentId);
  if (!alignment) notFound();
  const run = alignment.baseRunId ? await getRun(db, alignment.baseRunId) : null;
  const comparison = storedComparison(alignment.comparison);
  const advice = adoptionAdvice(comparison);
  const { progress, spent } = alignment;
  // Stopped by the store's clock, as the claim that measures it again decides, not by this server's.
  const stale = alignment.status === "measuring" && (await isAlignmentMeasurementStopped(db, alignment.id));
  const measuring = alignment.status === "measuring" && !stale;
  const original = metricShortName(alignment.metric);
  return (
    <div className="space-y-4">
      <AutoRefresh active={measuring} intervalMs={1000} />
      <div>
        <p className="text-xs text-slate-500">
          <Link href="/runs" className="hover:underline">
            Runs
          </Link>
          {run && (
            <>
              {" / "}
              <Link href={`/runs/${run.id}`} className="hover:underline">
                {run.name}
              </Link>
              {" / "}
              <Link
                href={`/runs/${run.id}/align?metric=${encodeURIComponent(alignment.metric)}`}
                className="hover:underline"
              >
                Align {original}
              </Link>
            </>
          )}
        </p>
        <h1 className="text-xl font-semibold tracking-tight" data-testid="alignment-title">
          {alignment.judgeName}
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          Version {alignment.version} of {original}, aligned with {alignment.trainingKeys.length} training labels (
          {alignment.examples.length} shown as examples) and measured on {alignment.heldOutKeys.length} held-out labels
          it never saw, with {alignment.judgeModel}. Status:{" "}
          <strong data-testid="alignment-status">{alignment.status}</strong>. Reports as{" "}
          <code className="text-xs">{alignedMetricName(alignment.definition)}</code> in the runs that use it.
        </p>
      </div>
      {(alignment.status === "measuring" || alignment.status === "failed") && (
        <CardFrame data-testid="alignment-progress">
          <h2 className="text-sm font-semibold">Measuring on the held-out labels</h2>
          <div className="mt-2">
            <ProgressBar
              value={progress.total === 0 ? 0 : progress.done / progress.total}
              label="Held-out labels judged"
            />
          </div>
          <p className="mt-1 text-xs text-slate-600">
            {progress.done} of {progress.total} held-out labels judged by the aligned version ·{" "}
            {formatInteger(spent.llmCalls)} LLM calls
            {spent.costUsd !== null ? ` · ${formatUsd(spent.costUsd)}` : ""}
          </p>
          {canAlign && (stale || alignment.status === "failed") && (
            <form action={remeasureAlignment} className="mt-2 flex flex-wrap items-center gap-2">
              <input type="hidden" name="alignmentId" value={alignment.id} />
              <p role="alert" className="text-sm text-rose-800">
                {alignment.status === "failed"
                  ? `Measuring failed: ${alignment.errorMessage ?? "no reason given"}.`
                  : "Measuring stopped: its server gave no sign of life for 30 s (it was stopped or restarted)."}
              </p>
              <Button type="submit" size="sm" className="text-sm">
                Measure again (finished calls come from the cache)
              </Button>
            </form>
          )}
        </CardFrame>
      )}
      {comparison && (
        <CardFrame aria-labelledby="held-out-title">
          <h2 id="held-out-title" className="text-sm font-semibold">
            On {comparison.rows} held-out labels: original and aligned, the same rows, the same labels
          </h2>
          {alignment.definition.type === "g_eval" && (
            <p className="mt-1 text-xs text-slate-600">
              Scores are compared as pass or fail at the pass mark ({alignment.definition.judge.threshold.toFixed(2)}),
              as the agreement panel compares them.
            </p>
          )}
          <div className="mt-2">
            <AlignmentComparison comparison={comparison} />
          </div>
          <p className="mt-2 text-xs text-slate-500">
            Measuring cost {formatInteger(spent.llmCalls)} LLM calls, {formatInteger(spent.inputTokens)} input and{" "}
            {formatInteger(spent.outputTokens)} output tokens
            {spent.costUsd !== null ? `, ${formatUsd(spent.costUsd)}` : ""}.
          </p>
        </CardFrame>
      )}
      <CardFrame>
        <h2 className="mb-2 text-sm font-semibold">What the aligned version adds to the prompt</h2>
        <AlignmentExamples alignment={alignment} />
      </CardFrame>
      <CardFrame className="flex flex-wrap items-center gap-2" data-testid="alignment-decision">
        {!canAlign && <p className="text-sm text-slate-600">Adopting or discarding it needs the runner role.</p>}
        {canAlign && alignment.status === "measured" && (
          <form action={decideJudgeAlignment} className="flex flex-wrap items-center gap-2">
            <input type="hidden" name="alignmentId" value={alignment.id} />
            {advice.primary === "discard" && (
              <Button
                type="submit"
                name="decision"
                value="discard"
                variant="primary"
                className="text-sm"
                data-testid="discard-alignment"
              >
                Discard: keep the original
              </Button>
            )}
            <Button
              type="submit"
              name="decision"
              value="adopt"
              variant={advice.primary === "adopt" ? "primary" : undefined}
              className="text-sm"
              data-testid="adopt-alignment"
            >
              {advice.adoptLabel}: offer {alignment.judgeName} in the run form
            </Button>
            {advice.primary !== "discard" && (
              <Button type="submit" name="decision" value="discard" className="text-sm" data-testid="discard-alignment">
                Discard
              </Button>
            )}
            {advice.note && (
              <p className="w-full text-xs text-slate-600" data-testid="adoption-advice">
                {advice.note}
              </p>
            )}
          </form>
        )}
        {canAlign && alignment.status === "adopted" && (
          <>
            <LinkButton
              href={`/datasets/${alignment.datasetId}/runs/new?aligned=${encodeURIComponent(alignment.id)}`}
              variant="primary"
              className="text-sm"
            >
              Start a run with {alignment.judgeName}
            </LinkButton>
            <form action={decideJudgeAlignment}>
              <input type="hidden" name="alignmentId" value={alignment.id} />
              <Button type="submit" name="decision" value="discard" className="text-sm">
                Discard (no longer offered)
              </Button>
            </form>
          </>
        )}
        {alignment.status === "discarded" && (
          <p className="text-sm text-slate-600">Discarded: the run form no longer offers it.</p>
        )}
        {(alignment.status === "measuring" || alignment.status === "failed") && (
          <p className="text-sm text-slate-600">Adopt or discard it once it is measured.</p>
        )}
      </CardFrame>
    </div>
  );
}
