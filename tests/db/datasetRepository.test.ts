import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import {
  getDataset,
  getDatasetRow,
  getInputCoverage,
  getNeighbourRows,
  listDatasetRows,
  listDatasets,
} from "@/lib/db/datasets/datasetQueries";
import { createDatasetSink, deleteAbandonedImports } from "@/lib/db/datasets/datasetWrites";
import { ingestFile } from "@/lib/ingest/ingestFile";
import { ingestUpload } from "@/lib/ingest/ingestUpload";
import { metricAvailability } from "@/lib/metrics/availability";
import { byteChunks, toJsonl } from "../support/evalFiles";
import { createTempDb } from "../support/tempDb";

const SAMPLE = path.resolve(import.meta.dirname, "../../prisma/sample/sample-eval-set.jsonl");
const baseQuery = { page: 1, pageSize: 25, sort: "rowNumber" as const, dir: "asc" as const, q: "" };

describe("dataset repository on a real store", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let sampleId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    const result = await ingestFile(SAMPLE, { name: "sample", mode: "strict", sink: createDatasetSink(db) });
    if (!result.ok) throw new Error(`sample did not import: ${JSON.stringify(result.issues)}`);
    sampleId = result.datasetId;
  });
  afterAll(async () => cleanup());

  it("stores every row and every chunk as real rows", async () => {
    expect((await getDataset(db, sampleId))?.rowCount).toBe(50);
    expect(await db.datasetRow.count({ where: { datasetId: sampleId } })).toBe(50);
    const retrieved = await db.contextChunk.count({ where: { kind: "retrieved", row: { datasetId: sampleId } } });
    const perRow = await db.datasetRow.aggregate({
      where: { datasetId: sampleId },
      _sum: { retrievedChunkCount: true },
    });
    expect(retrieved).toBe(perRow._sum.retrievedChunkCount);
    expect(retrieved).toBeGreaterThan(100);
  });

  it("derives the response, the last retrieval, tokens and latency from a trace", async () => {
    // nw-007 has two retriever spans; the later re-rank holds the 2 chunks the answer used.
    const row = await db.datasetRow.findFirstOrThrow({
      where: { datasetId: sampleId, requestId: "nw-007" },
      include: { chunks: true },
    });
    expect(row.responseSource).toBe("trace");
    expect(row.response).toBeTruthy();
    expect(row.chunks.filter((c) => c.kind === "retrieved")).toHaveLength(2);
    expect(row.chunks.every((c) => c.kind !== "retrieved" || c.source === "trace")).toBe(true);
    expect(row.latencySeconds).toBeGreaterThan(0);
    // nw-014 has two LLM spans: 412+54 and 1684+187 tokens.
    const multi = await db.datasetRow.findFirstOrThrow({ where: { datasetId: sampleId, requestId: "nw-014" } });
    expect([multi.inputTokenCount, multi.outputTokenCount, multi.totalTokenCount]).toEqual([2096, 241, 2337]);
  });

  it("counts inputs and metric availability in SQL, matching a count by hand", async () => {
    const coverage = await getInputCoverage(db, sampleId);
    const rows = await db.datasetRow.findMany({ where: { datasetId: sampleId } });
    const byHand = (predicate: (row: (typeof rows)[number]) => boolean) => rows.filter(predicate).length;
    expect(coverage.rowCount).toBe(50);
    expect(coverage.columns.expected_facts).toBe(20);
    expect(coverage.columns.expected_response).toBe(20);
    expect(coverage.columns.trace).toBe(6);
    expect(coverage.metrics["response/llm_judged/correctness"]).toBe(
      byHand((r) => r.hasResponse && (r.hasExpectedFacts || r.hasExpectedResponse)),
    );
    expect(coverage.metrics["retrieval/ground_truth/document_recall"]).toBe(
      byHand((r) => r.hasRetrievedContext && r.hasExpectedRetrievedContext),
    );
    expect(coverage.metrics["agent/latency_seconds"]).toBe(6);
    const availability = metricAvailability(coverage);
    const safety = availability.find((a) => a.metric.name === "response/llm_judged/safety")!;
    expect(safety.status).toBe("all");
    const recall = availability.find((a) => a.metric.name === "retrieval/ground_truth/document_recall")!;
    expect(recall.status).toBe("some");
    expect(recall.missing.map((m) => m.input)).toContain("expected_retrieved_context");
    // A run that generates responses supplies the response itself.
    const generated = metricAvailability(coverage, { generatesResponses: true });
    expect(generated.find((a) => a.metric.name === "response/llm_judged/relevance_to_query")!.rows).toBe(50);
  });

  it("pages, sorts and searches rows in SQL", async () => {
    const first = await listDatasetRows(db, sampleId, baseQuery);
    expect(first.total).toBe(50);
    expect(first.pageCount).toBe(2);
    expect(first.items.map((r) => r.rowNumber)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    const second = await listDatasetRows(db, sampleId, { ...baseQuery, page: 2 });
    expect(second.items[0].rowNumber).toBe(26);

    const byLatency = await listDatasetRows(db, sampleId, { ...baseQuery, sort: "latencySeconds", dir: "desc" });
    const latencies = byLatency.items.map((r) => r.latencySeconds);
    const withValues = latencies.filter((v): v is number => v !== null);
    expect(withValues).toHaveLength(6);
    expect(withValues).toEqual([...withValues].sort((a, b) => b - a));
    expect(latencies.slice(0, 6).every((v) => v !== null)).toBe(true); // nulls last

    const search = await listDatasetRows(db, sampleId, { ...baseQuery, q: "CORS" });
    expect(search.total).toBeGreaterThan(0);
    expect(search.items.every((r) => `${r.requestText} ${r.response}`.toLowerCase().includes("cors"))).toBe(true);
  });

  it("searches rows ignoring case, on either store", async () => {
    const rows = await db.datasetRow.findMany({ where: { datasetId: sampleId } });
    const byHand = rows.filter((r) =>
      [r.requestText, r.response, r.requestId, r.expectedResponse].some((text) => text?.toLowerCase().includes("cors")),
    ).length;
    // The sample writes both "CORS" and "cors": every spelling finds the rows of either.
    expect(byHand).toBeGreaterThan(0);
    for (const q of ["cors", "CORS", "CoRs"])
      expect((await listDatasetRows(db, sampleId, { ...baseQuery, q })).total, q).toBe(byHand);
  });

  it("loads one row with its chunks in rank order and its neighbours", async () => {
    const page = await listDatasetRows(db, sampleId, baseQuery);
    const row = await getDatasetRow(db, sampleId, page.items[4].id);
    expect(row?.rowNumber).toBe(5);
    const retrieved = row!.chunks.filter((c) => c.kind === "retrieved").map((c) => c.position);
    expect(retrieved).toEqual([...retrieved].sort((a, b) => a - b));
    const neighbours = await getNeighbourRows(db, sampleId, 5);
    expect(neighbours).toEqual({ previousId: page.items[3].id, nextId: page.items[5].id });
    expect(await getDatasetRow(db, "another-dataset", page.items[4].id)).toBeNull();
  });

  it("stores an upload's human labels with their rows, in the same batch", async () => {
    const before = new Date(Date.now() - 1000);
    const result = await ingestUpload({
      chunks: byteChunks(
        toJsonl([
          { request: "q1", response: "a1", human_labels: { correctness: "yes" } },
          { request: "q2", response: "a2", human_labels: { correctness: "no", safety: "yes" } },
        ]),
        4096,
      ),
      filename: "labelled.jsonl",
      mode: "strict",
      sink: createDatasetSink(db),
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const labels = await db.humanLabel.findMany({
      where: { datasetId: result.datasetId },
      orderBy: [{ metric: "asc" }, { rating: "asc" }],
      select: { metric: true, rating: true, source: true, labelledAt: true },
    });
    expect(labels.map(({ metric, rating, source }) => [metric, rating, source])).toEqual([
      ["response/llm_judged/correctness", "no", "upload"],
      ["response/llm_judged/correctness", "yes", "upload"],
      ["response/llm_judged/safety", "yes", "upload"],
    ]);
    // Written as UTC whatever the server's time zone: within a minute of now.
    for (const { labelledAt } of labels) expect(Math.abs(labelledAt.getTime() - before.getTime())).toBeLessThan(60_000);
    await db.dataset.delete({ where: { id: result.datasetId } });
  });

  it("leaves nothing behind when a strict upload has errors", async () => {
    const before = await db.datasetRow.count();
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      request: `q${i}`,
      retrieved_context: [{ content: "c", doc_uri: "d" }],
    }));
    rows[1100] = { request: 7 } as never; // after two batches were already written
    const result = await ingestUpload({
      chunks: byteChunks(toJsonl(rows), 4096),
      filename: "x.jsonl",
      mode: "strict",
      sink: createDatasetSink(db),
    });
    expect(result.ok).toBe(false);
    expect(await db.datasetRow.count()).toBe(before);
    expect(await db.dataset.count({ where: { status: "importing" } })).toBe(0);
  });

  it("hides an import in progress and removes it when abandoned", async () => {
    const sink = createDatasetSink(db);
    const id = await sink.begin({ name: "half", sourceFilename: "half.jsonl", sourceFormat: "jsonl" });
    expect((await listDatasets(db)).some((d) => d.id === id)).toBe(false);
    expect(await getDataset(db, id)).toBeNull();
    expect(await deleteAbandonedImports(db, new Date(Date.now() + 1000))).toBe(1);
    expect(await db.dataset.findUnique({ where: { id } })).toBeNull();
  });
});
