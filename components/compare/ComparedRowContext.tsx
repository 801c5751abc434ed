import { ChunkList, type ChunkVerdictView } from "@/components/content/ChunkList";
import { InertMarkdown } from "@/components/content/InertMarkdown";
import { Card } from "@/components/ui/Card";
import { decodeFacts, splitChunks } from "@/lib/db/rowView";
import type { getRunRowDetail } from "@/lib/db/runRowQueries";

type RowDetail = NonNullable<Awaited<ReturnType<typeof getRunRowDetail>>>;

/**
 * What a reviewer needs to decide why a flipped row flipped, without leaving the page: the row's ground truth
 * (expected response or facts, expected documents) and its retrieved chunks, each with both runs' per-chunk
 * verdicts, the baseline's above the candidate's.
 */
export function ComparedRowContext({ sides }: { sides: { label: string; row: RowDetail }[] }) {
  const row = sides[0].row;
  const facts = decodeFacts(row.expectedFacts);
  const { retrieved, expectedUris } = splitChunks(row.chunks);
  return (
    <div className="grid gap-4 lg:grid-cols-[2fr_3fr]">
      <Card title="Ground truth" testId="ground-truth">
        {row.expectedResponse !== null && <InertMarkdown text={row.expectedResponse} />}
        {facts && (
          <ul className="list-disc space-y-0.5 pl-5 text-sm">
            {facts.map((fact, i) => (
              <li key={i}>{fact}</li>
            ))}
          </ul>
        )}
        {row.expectedResponse === null && !facts && (
          <p className="text-sm text-slate-400">No expected response or facts on this row.</p>
        )}
        {expectedUris.size > 0 && (
          <p className="mt-2 text-xs text-slate-500">
            Expected documents:{" "}
            {[...expectedUris].map((uri) => (
              <code key={uri} className="mr-1 break-all font-mono">
                {uri}
              </code>
            ))}
          </p>
        )}
      </Card>
      <Card
        title={`Retrieved context (${retrieved.length})`}
        subtitle="Each chunk with both runs' per-chunk verdicts."
        testId="retrieved-context"
      >
        <ChunkList
          chunks={retrieved.map((chunk) => ({
            position: chunk.position,
            docUri: chunk.docUri,
            content: chunk.content,
            expected: expectedUris.size > 0 ? expectedUris.has(chunk.docUri) : undefined,
            verdicts: sides.flatMap(({ label, row: side }) => chunkVerdicts(side, chunk.position, label)),
          }))}
          emptyText="No retrieved context on this row."
        />
      </Card>
    </div>
  );
}

function chunkVerdicts(row: RowDetail, position: number, source: string): ChunkVerdictView[] {
  return row.judgments.flatMap((judgment) => {
    const verdict = judgment.chunks.find((c) => c.position === position);
    if (!verdict) return [];
    return [
      {
        key: `${source}-${judgment.id}`,
        metric: judgment.metric,
        source,
        verdict: {
          status: verdict.errorMessage ? "error" : "done",
          rating: verdict.rating,
          score: null,
          passed: verdict.rating === null ? null : verdict.rating === "yes",
        },
        text: verdict.errorMessage ?? verdict.rationale,
      },
    ];
  });
}
