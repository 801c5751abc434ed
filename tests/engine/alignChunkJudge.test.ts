import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { writeLabels } from "@/lib/db/labels/labelWrites";
import { alignRunJudge } from "@/lib/engine/alignment/alignRunJudge";
import { previewAlignment } from "@/lib/engine/alignment/previewAlignment";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import type { HeldOutComparison } from "@/lib/alignment/heldOutComparison";
import type { FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeExampleFollower } from "../support/fakeExampleFollower";
import { fencedContents } from "../support/fenced";
import { fakeLlmConfig, readRun, runToCompletion } from "../support/engineKit";
import { openServedDataset } from "../support/servedDataset";

// A per-chunk judge aligned with per-chunk labels: chunk_relevance on rows of two chunks, the first on topic
// and the second not, labelled so; the fake judge says yes to every chunk without examples and follows the
// closest labelled chunk with them. A held-out row's chunks are judged in one call, and no held-out chunk is
// an example.

const CHUNK_RELEVANCE = "retrieval/llm_judged/chunk_relevance";
const ROWS = Array.from({ length: 20 }, (_, i) => ({
  request_id: `c${i + 1}`,
  request: `When will order ${i + 1} ship?`,
  response: "Within three days.",
  retrieved_context: [
    { doc_uri: `shipping-${i}`, content: `Orders ship within three days of payment (warehouse ${i + 1}).` },
    { doc_uri: `about-${i}`, content: `Our founder enjoys playing golf on weekends (story ${i + 1}).` },
  ],
}));

describe("aligning a per-chunk judge with per-chunk labels", () => {
  let db: Db;
  let server: FakeOpenAIServer;
  let datasetId: string;
  let close: () => Promise<void>;
  let runId: string;

  beforeAll(async () => {
    ({ db, server, datasetId, close } = await openServedDataset(ROWS, { responder: fakeExampleFollower }));
    ({ runId } = await runToCompletion(
      db,
      { datasetId, metrics: [CHUNK_RELEVANCE], judge: { provider: "openai", model: "judge-model" } },
      server.url,
    ));
    const rows = await db.datasetRow.findMany({ where: { datasetId }, select: { id: true } });
    await writeLabels(
      db,
      datasetId,
      rows.map((row) => ({
        rowId: row.id,
        entries: [0, 1].map((chunkPosition) => ({
          metric: CHUNK_RELEVANCE,
          chunkPosition,
          value: { kind: "rating" as const, rating: chunkPosition === 0 ? ("yes" as const) : ("no" as const) },
        })),
      })),
      { labelledBy: null, source: "upload" },
    );
  }, 60_000);
  afterAll(async () => close());

  it("measures on held-out chunks, one call per held-out row, and agrees more (real)", async () => {
    const run = await readRun(db, runId);
    const preview = await previewAlignment(db, run, CHUNK_RELEVANCE, {});
    expect(preview.labels).toMatchObject({ yes: 20, no: 20 });
    const before = server.requests.length;
    const { judge } = createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) });
    const aligned = await alignRunJudge(
      db,
      run,
      { judge, progressEveryMs: 0 },
      { metric: CHUNK_RELEVANCE, seed: preview.seed },
    );
    const comparison = aligned.comparison as HeldOutComparison;
    expect(aligned.definition).toMatchObject({
      type: "custom",
      judge: { assessmentName: "chunk_relevance_aligned_v1", assessmentType: "RETRIEVAL", basedOn: CHUNK_RELEVANCE },
    });
    expect(aligned.heldOutKeys).toHaveLength(16);
    expect(aligned.heldOutKeys.every((key) => /#[01]$/.test(key))).toBe(true);
    expect([comparison.original.rawAgreement, comparison.aligned.rawAgreement]).toEqual([0.5, 1]);
    expect(comparison.verdict).toBe("agrees more (real)");
    // One call per held-out row, as the estimate said, not one per held-out chunk.
    const heldOutRows = new Set(aligned.heldOutKeys.map((key) => key.split("#")[0]));
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(heldOutRows.size);
    expect(preview.estimate.llmCalls).toBe(heldOutRows.size);
    expect(heldOutRows.size).toBeLessThan(16);
    // No held-out chunk is an example: an example names the chunk it shows, and no held-out chunk is named.
    const heldOutChunks = await heldOutChunkTexts(aligned.heldOutKeys);
    for (const request of sent)
      for (const example of fencedContents(String(request.body.messages[1].content), "example"))
        expect(heldOutChunks.some((chunk) => example.includes(`Retrieved chunk: ${chunk}\n`))).toBe(false);
  });

  async function heldOutChunkTexts(keys: string[]): Promise<string[]> {
    const rows = await db.datasetRow.findMany({
      where: { id: { in: keys.map((key) => key.split("#")[0]) } },
      select: { id: true, requestText: true },
    });
    const byId = new Map(rows.map((row) => [row.id, row.requestText]));
    return keys.map((key) => {
      const [rowId, chunk] = key.split("#");
      const number = /order (\d+)/.exec(byId.get(rowId) ?? "")?.[1] ?? "";
      return Number(chunk) === 0
        ? `Orders ship within three days of payment (warehouse ${number}).`
        : `Our founder enjoys playing golf on weekends (story ${number}).`;
    });
  }
});
