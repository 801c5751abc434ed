import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageRole } from "@/components/auth/requirePageRole";
import { ChatTranscript } from "@/components/content/ChatTranscript";
import { RowHeader } from "@/components/content/RowHeader";
import { ComparedRowContext } from "@/components/compare/ComparedRowContext";
import { FlipSteps } from "@/components/compare/FlipSteps";
import { FlipSummary } from "@/components/compare/FlipSummary";
import { ComparedResponses } from "@/components/compare/ComparedResponses";
import { ComparedTrajectories } from "@/components/compare/ComparedTrajectories";
import { PairVerdicts } from "@/components/compare/pairwise/PairVerdicts";
import { PreferenceButtons } from "@/components/compare/pairwise/PreferenceButtons";
import { userIdentitiesById } from "@/lib/db/accounts/userQueries";
import { listPairwiseComparisons } from "@/lib/db/pairwise/pairwiseComparisons";
import { listPreferencesOfPair } from "@/lib/db/pairwise/pairwisePreferences";
import { readPairVerdicts } from "@/lib/db/pairwise/pairwiseVerdicts";
import { readPairResponses } from "@/lib/server/pairResponses";
import { JudgmentPanel } from "@/components/runs/row/JudgmentPanel";
import { Card } from "@/components/ui/Card";
import { getDb, type Db } from "@/lib/db/client";
import { decodeStoredToolCalls, type ToolCall } from "@/lib/contract/toolCalls";
import { readRowToolCalls } from "@/lib/db/datasets/toolCallQueries";
import { decodeMessages } from "@/lib/db/datasets/rowView";
import { readListPlace } from "@/lib/compare/listPlace";
import { isPairwiseMetric } from "@/lib/compare/pairwiseDelta";
import { pairedCandidateRowId } from "@/lib/db/judgments/rowPairing";
import { getRun } from "@/lib/db/runs/runQueries";
import { getRunRowDetail } from "@/lib/db/runs/runRowQueries";
import { compareListHref, compareRowHref, parseCompareRowQuery } from "@/lib/urlState/compareQuery";
import type { SearchParams } from "@/lib/urlState/searchParams";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Flipped row" };

/**
 * One row judged by two runs, side by side: the flipped metric in both runs (verdict or score, pass mark,
 * success), the request, then the two responses with their differences marked, the two versions' tool calls
 * lined up (when either called a tool), the pairwise judge's verdict in each order and the reviewer's own A/B
 * verdict, both runs' judgments (the flipped metric first), and last the row's ground truth and retrieved chunks
 * with both runs' per-chunk verdicts. j / k / n step through the flip list it was opened from; a / t / b give
 * the reviewer's verdict.
 */
export default async function CompareRowPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePageRole("data.read", "/compare");
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
  // The newest pairwise judgment of the two runs, its verdicts on this pair, and people's verdicts on these responses.
  const [pairwise] = await listPairwiseComparisons(db, baseline, candidate);
  const place = metric
    ? await readListPlace(
        db,
        { baseline, candidate },
        { metric: query.listMetric, direction: query.direction },
        { rowId, metric },
        pairwise,
      )
    : null;
  const pairVerdicts = pairwise ? await readPairVerdicts(db, pairwise.id, rowId) : [];
  const pair = await readPairResponses(db, baseline, candidate, rowId);
  const preferences = pair
    ? await listPreferencesOfPair(db, {
        baselineRowId: pair.baselineRowId,
        candidateRowId: pair.candidateRowId,
        baselineResponseHash: pair.baseline.hash,
        candidateResponseHash: pair.candidate.hash,
      })
    : [];
  const [baseCalls, candCalls] = await Promise.all([calledToolCalls(db, baseRow), calledToolCalls(db, candRow)]);
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
      {metric && !isPairwiseMetric(metric) && (
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
      <ComparedResponses
        sides={[
          { label: "A (baseline)", run: baseRun, rowId: baseRow.id, response: responseOf(sides[0]) },
          { label: "B (candidate)", run: candRun, rowId: candRow.id, response: responseOf(sides[1]) },
        ]}
      />
      <ComparedTrajectories
        baseline={{ label: "A (baseline)", runName: baseRun.name, calls: baseCalls }}
        candidate={{ label: "B (candidate)", runName: candRun.name, calls: candCalls }}
        notes={trajectoryNotes(sides, baseRow.id === candRow.id)}
      />
      <Card
        title="Which is better?"
        subtitle="The pairwise judge's verdict in each order, and yours: a, t or b (x withdraws it)."
        testId="pairwise-row"
      >
        <div className="space-y-3">
          <PairVerdicts
            comparison={pairwise ?? null}
            verdicts={pairVerdicts}
            preferences={preferences}
            names={await userIdentitiesById(
              db,
              preferences.map((p) => p.labelledBy),
            )}
          />
          {pair && (
            <PreferenceButtons
              baselineRunId={baseline}
              candidateRunId={candidate}
              baselineRowId={rowId}
              current={preferences.find((p) => p.labelledBy === user.id)?.choice ?? null}
            />
          )}
        </div>
      </Card>
      <div className="grid gap-4 lg:grid-cols-2" data-testid="side-by-side-judgments">
        {sides.map(({ run, row, label }) => {
          const judgments = [...row.judgments].sort(
            (a, b) => Number(b.metric === metric) - Number(a.metric === metric),
          );
          return (
            <section key={run.id} className="space-y-2" aria-label={`${label} judgments`}>
              <h2 className="text-sm font-semibold">
                {label}: {run.name}
              </h2>
              <ul className="space-y-2">
                {judgments
                  .filter((j) => j.status !== "skipped")
                  .map((judgment) => (
                    <JudgmentPanel key={judgment.id} judgment={judgment} />
                  ))}
              </ul>
            </section>
          );
        })}
      </div>
      <ComparedRowContext sides={sides} />
    </div>
  );
}

/** The response a side judged: its generated one when the run generates, else the dataset row's. */
function responseOf(side: { run: { generationModel: string | null }; row: RowDetail }): string | null {
  return side.run.generationModel ? (side.row.generations[0]?.response ?? null) : side.row.response;
}

/** The calls a row's agent made, as its dataset row records them; null when it records none. */
async function calledToolCalls(db: Db, row: RowDetail): Promise<ToolCall[] | null> {
  if (!row.hasToolCalls) return null;
  return decodeStoredToolCalls(await readRowToolCalls(db, row.id), row).called;
}

/**
 * Whose calls the card shows: the uploaded row's, which a run that generated its own responses did not make,
 * and one row's alone when both runs judged the same dataset (then they cannot differ).
 */
function trajectoryNotes(
  sides: { run: { name: string; generationModel: string | null } }[],
  sameRow: boolean,
): string[] {
  return [
    ...(sameRow ? ["Both runs judged the same dataset row: these are its calls, on both sides."] : []),
    ...sides
      .filter(({ run }) => run.generationModel !== null)
      .map(
        ({ run }) =>
          `${run.name} generated its own responses: its side shows the uploaded row's calls, not what it did.`,
      ),
  ];
}

type RowDetail = NonNullable<Awaited<ReturnType<typeof getRunRowDetail>>>;

/** A row's detail with only trial 1's judgments and response. */
function firstTrial<T extends { judgments: { trial: number }[]; generations: { trial: number }[] }>(row: T): T {
  return {
    ...row,
    judgments: row.judgments.filter((j) => j.trial === 1),
    generations: row.generations.filter((g) => g.trial === 1),
  };
}
