import { AgentFactsCard } from "@/components/content/AgentFactsCard";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageRole } from "@/components/auth/requirePageRole";
import { ChatTranscript } from "@/components/content/ChatTranscript";
import { ChunkList } from "@/components/content/ChunkList";
import { InertMarkdown } from "@/components/content/InertMarkdown";
import { RowHeader } from "@/components/content/RowHeader";
import { ConversationCard } from "@/components/conversations/ConversationCard";
import { ToolCallsCard } from "@/components/traces/ToolCallsCard";
import { TrajectoryCard } from "@/components/traces/TrajectoryCard";
import { Card, CardFrame } from "@/components/ui/Card";
import { decodeAvailableTools, decodeStoredToolCalls } from "@/lib/contract/toolCalls";
import { getDb } from "@/lib/db/client";
import { getDataset, getDatasetRow, getNeighbourRows } from "@/lib/db/datasets/datasetQueries";
import { decodeFacts, decodeMessages, prettyJson, splitChunks, summarizeTrace } from "@/lib/db/datasets/rowView";
import { readRowToolCalls } from "@/lib/db/datasets/toolCallQueries";
import { readConversation } from "@/lib/db/datasets/conversationQueries";
import { buildTrajectory } from "@/lib/traces/trajectory";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ datasetId: string; rowId: string }> };

export const metadata: Metadata = { title: "Row" };

export default async function DatasetRowPage({ params }: Props) {
  const { datasetId, rowId } = await params;
  await requirePageRole("data.read", `/datasets/${datasetId}/rows/${rowId}`);
  const db = getDb();
  const [dataset, row] = await Promise.all([getDataset(db, datasetId), getDatasetRow(db, datasetId, rowId)]);
  if (!dataset || !row) notFound();
  const { previousId, nextId } = await getNeighbourRows(db, datasetId, row.rowNumber);
  const base = `/datasets/${datasetId}`;
  const rowHref = (id: string | null) => (id ? `${base}/rows/${id}` : null);

  const messages = decodeMessages(row.messages);
  const facts = decodeFacts(row.expectedFacts);
  const { retrieved, expected: expectedDocs, expectedUris } = splitChunks(row.chunks);
  const trace = summarizeTrace(row.trace);
  // Read only for a row that carries calls or expects some; the stored trace is JSON the upload already read.
  const toolCalls =
    row.hasToolCalls || row.hasExpectedToolCalls
      ? decodeStoredToolCalls(await readRowToolCalls(db, row.id), row)
      : { called: null, expected: null };
  const storedTrace: unknown = row.trace === null ? null : JSON.parse(row.trace);
  const trajectory = buildTrajectory(storedTrace);
  const conversation = await readConversation(db, row.id);

  return (
    <div className="space-y-4">
      <RowHeader
        crumbs={[
          { href: "/datasets", label: "Datasets" },
          { href: base, label: dataset.name },
        ]}
        rowNumber={row.rowNumber}
        requestId={row.requestId}
        navigation={{ previousHref: rowHref(previousId), nextHref: rowHref(nextId) }}
      />

      <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
        <div className="space-y-4">
          <Card
            title="Request"
            subtitle={`${row.requestFormat === "string" ? "plain string" : row.requestFormat === "messages" ? "OpenAI chat messages" : "query + history"} · ${messages.length} turn${messages.length === 1 ? "" : "s"}`}
          >
            <ChatTranscript messages={messages} />
          </Card>
          <Card
            title="Response"
            subtitle={
              row.responseSource === "trace"
                ? "derived from the trace's root span"
                : row.response === null
                  ? undefined
                  : "from the response column"
            }
            testId="response"
          >
            {row.response === null ? (
              <p className="text-sm text-slate-400">No response. A run can generate one with a chat model.</p>
            ) : (
              <InertMarkdown text={row.response} />
            )}
          </Card>
          <ToolCallsCard
            called={toolCalls.called}
            expected={toolCalls.expected}
            source={row.toolCallsSource}
            tools={decodeAvailableTools(row.availableTools)}
          />
        </div>
        <div className="space-y-4">
          <Card title="Ground truth">
            {row.expectedResponse !== null && (
              <div>
                <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">expected_response</h3>
                <InertMarkdown text={row.expectedResponse} />
              </div>
            )}
            {facts && (
              <div>
                <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">expected_facts</h3>
                <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm">
                  {facts.map((fact, i) => (
                    <li key={i}>{fact}</li>
                  ))}
                </ul>
              </div>
            )}
            {expectedDocs.length > 0 && (
              <div className="mt-3">
                <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">
                  expected_retrieved_context
                </h3>
                <ul className="mt-1 space-y-0.5">
                  {expectedDocs.map((doc) => (
                    <li key={doc.id}>
                      <code className="break-all font-mono text-xs">{doc.docUri}</code>
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {row.expectedResponse === null && !facts && expectedDocs.length === 0 && (
              <p className="text-sm text-slate-400">
                No ground truth on this row: correctness, context sufficiency and document recall will be skipped.
              </p>
            )}
          </Card>
          <AgentFactsCard
            subtitle={trace ? "from the MLflow trace" : "no trace on this row"}
            facts={row}
            trace={trace}
          />
        </div>
      </div>

      {conversation && <ConversationCard conversation={conversation} rowId={row.id} rowsPath={`${base}/rows`} />}

      {trajectory && <TrajectoryCard trajectory={trajectory} />}

      <Card
        title={`Retrieved context (${retrieved.length})`}
        subtitle={retrieved[0]?.source === "trace" ? "from the trace's last retriever span" : undefined}
        testId="retrieved-context"
      >
        <ChunkList
          chunks={retrieved.map((chunk) => ({
            position: chunk.position,
            docUri: chunk.docUri,
            content: chunk.content,
            expected: expectedDocs.length > 0 ? expectedUris.has(chunk.docUri) : undefined,
          }))}
          emptyText="No retrieved context on this row."
        />
      </Card>

      <CardFrame as="details" className="text-sm">
        <summary className="cursor-pointer font-semibold">Raw request{row.trace ? " and trace" : ""}</summary>
        <pre className="mt-2 max-h-96 overflow-auto rounded bg-slate-50 p-2 font-mono text-xs">
          {prettyJson(row.requestRaw)}
        </pre>
        {row.trace && (
          <pre className="mt-2 max-h-96 overflow-auto rounded bg-slate-50 p-2 font-mono text-xs">
            {prettyJson(row.trace)}
          </pre>
        )}
      </CardFrame>
    </div>
  );
}
