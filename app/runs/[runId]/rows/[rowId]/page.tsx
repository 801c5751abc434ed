import { AgentFactsCard } from "@/components/content/AgentFactsCard";
import { judgesHiddenFrom } from "@/lib/labels/hiddenJudges";
import { claimQueueSlot } from "@/lib/labels/queueSlots";
import { parseLabelQueueQuery } from "@/lib/urlState/labelQueueQuery";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageRole } from "@/components/auth/requirePageRole";
import { roleCan } from "@/lib/auth/permissions";
import { ChatTranscript } from "@/components/content/ChatTranscript";
import { ChunkList } from "@/components/content/ChunkList";
import { GroundTruthCard } from "@/components/content/GroundTruthCard";
import { InertMarkdown } from "@/components/content/InertMarkdown";
import { RowHeader } from "@/components/content/RowHeader";
import { GenerationPrompt } from "@/components/runs/GenerationProvenance";
import { JudgeLabel } from "@/components/runs/JudgeLabel";
import { JudgmentPanel } from "@/components/runs/row/JudgmentPanel";
import { TrialVerdicts } from "@/components/runs/row/TrialVerdicts";
import { Card } from "@/components/ui/Card";
import { RowLabelsCard } from "@/components/labels/RowLabelsCard";
import { ConversationCard } from "@/components/conversations/ConversationCard";
import { ToolCallsCard } from "@/components/traces/ToolCallsCard";
import { TrajectoryCard } from "@/components/traces/TrajectoryCard";
import { decodeAvailableTools, decodeStoredToolCalls } from "@/lib/contract/toolCalls";
import { readRowToolCalls } from "@/lib/db/datasets/toolCallQueries";
import { readAnchorConversationJudgments, readConversation } from "@/lib/db/datasets/conversationQueries";
import { buildTrajectory } from "@/lib/traces/trajectory";
import { nextRowToLabel } from "@/components/labels/nextRowToLabel";
import { getDb } from "@/lib/db/client";
import { decodeFacts, decodeMessages, splitChunks, summarizeTrace } from "@/lib/db/datasets/rowView";
import { getRun } from "@/lib/db/runs/runQueries";
import { getRunRowDetail, getRunRowPlace } from "@/lib/db/runs/runRowQueries";
import { describeRowPlace, parseRunRowQuery, runRowHref, runRowsHref } from "@/lib/urlState/runRowQuery";
import type { SearchParams } from "@/lib/urlState/searchParams";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Row" };

type Props = { params: Promise<{ runId: string; rowId: string }>; searchParams: Promise<SearchParams> };

export default async function RunRowPage({ params, searchParams }: Props) {
  const { runId, rowId } = await params;
  const user = await requirePageRole("data.read", `/runs/${runId}/rows/${rowId}`);
  const search = await searchParams;
  const db = getDb();
  const [run, row] = await Promise.all([getRun(db, runId), getRunRowDetail(db, runId, rowId)]);
  if (!run || !row) notFound();
  // Parsed with the run's metrics, so a metric sort from the table is kept rather than dropped.
  const query = parseRunRowQuery(search, run.config.metrics);
  // j / k / n and the "12 of 322" all stay within the filter the reviewer came from, in the table's order.
  const { neighbours, position } = await getRunRowPlace(db, run, row, query);
  const href = (id: string | null) => (id ? runRowHref(runId, id, query) : null);
  // Back to the table's page that holds this row (j / k may have walked past the page the reviewer left).
  const tablePage = position.index === null ? query.page : Math.ceil(position.index / query.pageSize);
  const nextToLabelHref = await nextRowToLabel(db, run, row, search, href(neighbours.nextId), user.id);
  // Opened from a queue asking for several labels per row: this row's last slot is held for this labeller.
  const queueMetric = parseLabelQueueQuery(search).queue;
  const slot =
    queueMetric && roleCan(user.role, "labels.write")
      ? await claimQueueSlot(db, { datasetId: run.datasetId, rowId: row.id, metric: queueMetric }, user.id)
      : "none";

  const generation = row.generations.find((g) => g.trial === 1) ?? null;
  // A run with trials: the page's verdicts are trial 1's, as the table shows them; each judge lists every trial.
  const judgments = row.judgments.filter((j) => j.trial === 1);
  const trialsOf = (metric: string) => row.judgments.filter((j) => j.metric === metric);
  const withTrials = row.judgments.length > judgments.length;
  const trialResponses = run.generationModel
    ? new Map(
        row.generations.map((g) => [g.trial, g.errorMessage ? `Generation failed: ${g.errorMessage}` : g.response]),
      )
    : undefined;
  const response = run.generationModel ? (generation?.response ?? null) : row.response;
  const facts = decodeFacts(row.expectedFacts);
  const { retrieved, expectedUris } = splitChunks(row.chunks);
  // Blind labelling that hides the judge: its verdict and rationale wait until this labeller labelled.
  const viewer = { id: user.id, adjudicates: roleCan(user.role, "labels.adjudicate") };
  const hidden = await judgesHiddenFrom(db, { datasetId: run.datasetId, rowId: row.id }, viewer);
  const chunkJudgments = judgments.filter((j) => j.chunks.length > 0 && !hidden.has(j.metric));
  const trace = summarizeTrace(row.trace);
  // Read only for a row that carries calls or expects some; the stored trace is JSON the upload already read.
  const toolCalls =
    row.hasToolCalls || row.hasExpectedToolCalls
      ? decodeStoredToolCalls(await readRowToolCalls(db, row.id), row)
      : { called: null, expected: null };
  const storedTrace: unknown = row.trace === null ? null : JSON.parse(row.trace);
  const trajectory = buildTrajectory(storedTrace);
  // A run that generated its own response judged none of the uploaded calls: the cards say whose they are.
  const uploadedNote = run.generationModel
    ? "As uploaded: this run generated its own response, which made none of these calls; its tool metrics were skipped."
    : undefined;
  // The conversation's judges ran on its anchor: every turn's page shows their verdicts from there, hidden as
  // blind labelling hides them on the anchor.
  const conversation = await readConversation(db, row.id);
  const [conversationJudgments, conversationHidden] = conversation
    ? await Promise.all([
        readAnchorConversationJudgments(db, runId, conversation.anchorRowId),
        conversation.anchorRowId === row.id
          ? hidden
          : judgesHiddenFrom(db, { datasetId: run.datasetId, rowId: conversation.anchorRowId }, viewer),
      ])
    : [[], hidden];

  return (
    <div className="space-y-4">
      <RowHeader
        crumbs={[
          { href: "/runs", label: "Runs" },
          { href: runRowsHref(runId, { ...query, page: tablePage }), label: run.name },
        ]}
        rowNumber={row.rowNumber}
        requestId={row.requestId}
        place={describeRowPlace(query, position)}
        navigation={{
          previousHref: href(neighbours.previousId),
          nextHref: href(neighbours.nextId),
          nextFailedHref: href(neighbours.nextFailedId),
        }}
      >
        <div className="mt-1">
          <JudgeLabel provider={run.judgeProvider} model={run.judgeModel} />
        </div>
      </RowHeader>

      <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
        <div className="space-y-4">
          <Card title="Request">
            <ChatTranscript messages={decodeMessages(row.messages)} />
          </Card>
          <Card
            title="Response"
            subtitle={
              run.generationModel
                ? `generated by ${run.generationModel}`
                : row.responseSource === "trace"
                  ? "from the trace"
                  : undefined
            }
            testId="response"
          >
            {generation?.errorMessage && (
              <p className="mb-2 rounded bg-red-50 px-2 py-1 text-sm text-red-800">
                Generation failed: {generation.errorMessage}
              </p>
            )}
            {response === null ? (
              <p className="text-sm text-slate-400">No response.</p>
            ) : (
              <InertMarkdown text={response} />
            )}
            {run.generationModel && generation && <GenerationPrompt generation={generation} />}
          </Card>
          <Card title="Judges" subtitle="Every judge's verdict on this row, with its rationale.">
            <ul className="space-y-2">
              {hidden.size > 0 && (
                <li className="text-sm text-slate-600" data-testid="judges-hidden">
                  {[...hidden].map((metric) => metric.split("/").pop()).join(", ")}: hidden until you give your label
                  (blind labelling).
                </li>
              )}
              {[...judgments]
                .filter((judgment) => !hidden.has(judgment.metric))
                .sort((a, b) => judgmentRank(a) - judgmentRank(b))
                .map((judgment) => (
                  <JudgmentPanel key={judgment.id} judgment={judgment}>
                    {withTrials && judgment.status !== "skipped" && (
                      <TrialVerdicts
                        metric={judgment.metric}
                        trials={trialsOf(judgment.metric)}
                        responses={trialResponses}
                      />
                    )}
                  </JudgmentPanel>
                ))}
            </ul>
          </Card>
          <ToolCallsCard
            called={toolCalls.called}
            expected={toolCalls.expected}
            source={row.toolCallsSource}
            tools={decodeAvailableTools(row.availableTools)}
            note={uploadedNote}
          />
        </div>
        <div className="space-y-4">
          <GroundTruthCard expectedResponse={row.expectedResponse} facts={facts} expectedUris={expectedUris} />
          {slot === "held" && (
            <p className="rounded bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status" data-testid="slot-held">
              Someone else is giving this row its last label; the queue&apos;s next row is yours (] or Shift+N).
            </p>
          )}
          <RowLabelsCard
            run={run}
            rowId={row.id}
            judgments={judgments}
            retrievedChunkCount={retrieved.length}
            nextToLabelHref={nextToLabelHref}
            canLabel={roleCan(user.role, "labels.write")}
            viewer={viewer}
            hiddenJudges={hidden}
          />
          <AgentFactsCard
            subtitle={run.generationModel ? "from the generation call" : trace ? "from the MLflow trace" : undefined}
            facts={
              run.generationModel
                ? {
                    latencySeconds: generation?.latencySeconds,
                    inputTokenCount: generation?.inputTokenCount,
                    outputTokenCount: generation?.outputTokenCount,
                  }
                : {
                    latencySeconds: row.latencySeconds,
                    inputTokenCount: row.inputTokenCount,
                    outputTokenCount: row.outputTokenCount,
                  }
            }
            trace={trace}
          />
        </div>
      </div>

      {conversation && (
        <ConversationCard
          conversation={conversation}
          rowId={row.id}
          rowsPath={`/runs/${runId}/rows`}
          judgments={conversationJudgments.filter((judgment) => !conversationHidden.has(judgment.metric))}
          note={
            run.generationModel
              ? "As uploaded: this run generated its own response, not a conversation; its conversation judges were skipped."
              : undefined
          }
        />
      )}

      {trajectory && <TrajectoryCard trajectory={trajectory} note={uploadedNote} />}

      <Card title={`Retrieved context (${retrieved.length})`} testId="retrieved-context">
        <ChunkList
          chunks={retrieved.map((chunk) => ({
            position: chunk.position,
            docUri: chunk.docUri,
            content: chunk.content,
            expected: expectedUris.size > 0 ? expectedUris.has(chunk.docUri) : undefined,
            verdicts: chunkJudgments.flatMap((judgment) => {
              const verdict = judgment.chunks.find((c) => c.position === chunk.position);
              if (!verdict) return [];
              return [
                {
                  key: judgment.id,
                  metric: judgment.metric,
                  verdict: {
                    status: verdict.errorMessage ? "error" : "done",
                    rating: verdict.rating,
                    score: null,
                    passed: verdict.rating === null ? null : verdict.rating === "yes",
                  },
                  text: verdict.errorMessage ?? verdict.rationale,
                },
              ];
            }),
          }))}
          emptyText="No retrieved context on this row."
        />
      </Card>
    </div>
  );
}

/** Failures and errors first (what a reviewer opened the row for), skipped metrics last. */
function judgmentRank(judgment: { status: string; passed: boolean | null }): number {
  if (judgment.status === "done" && judgment.passed === false) return 0;
  if (judgment.status === "error") return 1;
  if (judgment.status === "skipped") return 3;
  return 2;
}
