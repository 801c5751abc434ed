import { ChunkList, type ChunkVerdictView } from "@/components/content/ChunkList";
import { GroundTruthCard } from "@/components/content/GroundTruthCard";
import { Card } from "@/components/ui/Card";
import { decodeFacts, splitChunks } from "@/lib/db/datasets/rowView";
import type { getRunRowDetail } from "@/lib/db/runs/runRowQueries";

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
      <GroundTruthCard
        expectedResponse={row.expectedResponse}
        facts={facts}
        expectedUris={expectedUris}
        emptyText="No expected response or facts on this row."
      />
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
