import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageRole } from "@/components/auth/requirePageRole";
import { ChatTranscript } from "@/components/content/ChatTranscript";
import { RowHeader } from "@/components/content/RowHeader";
import { ComparedRowContext } from "@/components/compare/ComparedRowContext";
import { FlipSteps } from "@/components/compare/FlipSteps";
import { FlipSummary } from "@/components/compare/FlipSummary";
import { InertMarkdown } from "@/components/content/InertMarkdown";
import { JudgeLabel } from "@/components/runs/JudgeLabel";
import { JudgmentPanel } from "@/components/runs/row/JudgmentPanel";
import { Card } from "@/components/ui/Card";
import { getDb } from "@/lib/db/client";
import { decodeMessages } from "@/lib/db/datasets/rowView";
import { getFlipPlace } from "@/lib/db/runs/flipNavigation";
import { pairedCandidateRowId } from "@/lib/db/judgments/rowPairing";
import { getRun } from "@/lib/db/runs/runQueries";
import { getRunRowDetail } from "@/lib/db/runs/runRowQueries";
import { compareListHref, compareRowHref, parseCompareRowQuery } from "@/lib/urlState/compareQuery";
import type { SearchParams } from "@/lib/urlState/searchParams";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Flipped row" };

/**
 * One row judged by two runs, side by side: the flipped metric in both runs (verdict or score, pass mark,
 * success), the row's ground truth and retrieved chunks with both runs' per-chunk verdicts, then both responses
 * and both sets of rationales, the flipped metric first. j / k / n step through the flip list it was opened from.
 */
export default async function CompareRowPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePageRole("data.read", "/compare");
  const query = parseCompareRowQuery(await searchParams);
  if (!query) notFound();
  const { baseline, candidate, row: rowId, metric } = query;
  const db = getDb();
  // The candidate's row is the baseline row itself on one dataset, or its partner by request on another.
  const candidateRowId = await pairedCandidateRowId(db, rowId, candidate);
  const [baseRun, candRun, baseRow, candRow] = await Promise.all([
    getRun(db, baseline),
    getRun(db, candidate),
    getRunRowDetail(db, baseline, rowId),
    candidateRowId ? getRunRowDetail(db, candidate, candidateRowId) : null,
  ]);
  if (!baseRun || !candRun || !baseRow || !candRow) notFound();
  // Flips pair trial 1 with trial 1 (a run with trials shows its first trial here, as its rows table does).
  const sides = [
    { run: baseRun, row: firstTrial(baseRow), label: "Baseline" },
    { run: candRun, row: firstTrial(candRow), label: "Candidate" },
  ];
  const place = metric
    ? await getFlipPlace(
        db,
        baseline,
        candidate,
        { metric: query.listMetric, direction: query.direction },
        { rowId, metric },
      )
    : null;
  const stepHref = (flip: { rowId: string; metric: string } | null) =>
    flip ? compareRowHref({ ...query, row: flip.rowId, metric: flip.metric }) : null;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <RowHeader
          crumbs={[{ href: compareListHref(query, place?.position ?? null), label: "Compare" }]}
          rowNumber={baseRow.rowNumber}
          requestId={baseRow.requestId}
        />
        {place && (
          <FlipSteps
            position={place.position}
            total={place.total}
            filter={{ metric: query.listMetric, direction: query.direction }}
            previousHref={stepHref(place.previous)}
            nextHref={stepHref(place.next)}
            nextRegressionHref={stepHref(place.nextRegression)}
          />
        )}
      </div>
      {metric && (
        <FlipSummary
          metric={metric}
          sides={sides.map(({ run, row, label }) => ({
            label,
            runName: run.name,
            judgment: row.judgments.find((j) => j.metric === metric),
          }))}
        />
      )}
      <Card title="Request">
        <ChatTranscript messages={decodeMessages(baseRow.messages)} />
      </Card>
      <ComparedRowContext sides={sides} />
      <div className="grid gap-4 lg:grid-cols-2" data-testid="side-by-side">
        {sides.map(({ run, row, label }) => {
          const response = run.generationModel ? (row.generations[0]?.response ?? null) : row.response;
          const judgments = [...row.judgments].sort(
            (a, b) => Number(b.metric === metric) - Number(a.metric === metric),
          );
          return (
            <div key={run.id} className="space-y-3">
              <div>
                <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</p>
                <h2 className="font-semibold">
                  <Link href={`/runs/${run.id}/rows/${row.id}`} className="hover:underline">
                    {run.name}
                  </Link>
                </h2>
                <JudgeLabel provider={run.judgeProvider} model={run.judgeModel} />
              </div>
              <Card title="Response" subtitle={run.generationModel ? `generated by ${run.generationModel}` : undefined}>
                {response === null ? (
                  <p className="text-sm text-slate-400">No response.</p>
                ) : (
                  <InertMarkdown text={response} />
                )}
              </Card>
              <ul className="space-y-2">
                {judgments
                  .filter((j) => j.status !== "skipped")
                  .map((judgment) => (
                    <JudgmentPanel key={judgment.id} judgment={judgment} />
                  ))}
              </ul>
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** A row's detail with only trial 1's judgments and response. */
function firstTrial<T extends { judgments: { trial: number }[]; generations: { trial: number }[] }>(row: T): T {
  return {
    ...row,
    judgments: row.judgments.filter((j) => j.trial === 1),
    generations: row.generations.filter((g) => g.trial === 1),
  };
}
