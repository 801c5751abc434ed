import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { getInputCoverage } from "@/lib/db/datasets/datasetQueries";
import { createDatasetSink } from "@/lib/db/datasets/datasetWrites";
import { ingestUpload } from "@/lib/ingest/ingestUpload";
import { mulberry32 } from "@/lib/stats";
import { byteChunks, toJsonl } from "../support/evalFiles";
import { recountInputCoverage } from "../support/inputCoverageRecount";
import { createTempDb } from "../support/tempDb";

const j = (value: unknown) => JSON.stringify(value);

/** An MLflow trace whose agent span answers, with latency and, when asked, a chat-model call's token usage. */
function trace(answer: string, tokens: boolean) {
  const span = (id: string, parent: string | null, type: string, attributes: Record<string, unknown>) => ({
    span_id: id,
    parent_span_id: parent,
    name: type.toLowerCase(),
    start_time_unix_nano: "1000000000",
    end_time_unix_nano: "2500000000",
    attributes: Object.fromEntries(
      Object.entries({ "mlflow.spanType": type, ...attributes }).map(([key, value]) => [key, j(value)]),
    ),
  });
  const usage = { "mlflow.chat.tokenUsage": { input_tokens: 10, output_tokens: 5, total_tokens: 15 } };
  return {
    info: { trace_id: "tr", execution_duration: "1.5s", state: "OK" },
    data: {
      spans: [
        span("A", null, "AGENT", { "mlflow.spanOutputs": answer }),
        ...(tokens ? [span("C", "A", "CHAT_MODEL", usage)] : []),
      ],
    },
  };
}

/** Chunk contents that have text, none, or only characters JavaScript's trim() removes. */
const CONTENTS = ["Paris is the capital.", "", "   ", "\u00a0\u2003\ufeff", "\n\t", "Le Louvre, 1793.", null];

/** Rows drawn at random over every input the coverage counts, with the edge cases of chunk content. */
function randomRows(count: number, seed: number): Record<string, unknown>[] {
  const random = mulberry32(seed);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  const chunks = (withContent: boolean) =>
    Array.from({ length: Math.floor(random() * 4) }, (_, i) => ({
      doc_uri: `doc-${i}`,
      ...(withContent ? { content: pick(CONTENTS) } : {}),
    }));
  return Array.from({ length: count }, (_, i) => {
    const row: Record<string, unknown> = { request_id: `r${i}`, request: `Question ${i}?` };
    const fromTrace = random() < 0.2;
    if (fromTrace) row.trace = trace(`Answer ${i}.`, random() < 0.5);
    else if (random() < 0.8) row.response = `Answer ${i}.`;
    const expected = random();
    if (expected < 0.3) row.expected_response = `Expected ${i}.`;
    else if (expected < 0.6) row.expected_facts = [`fact ${i}`];
    if (random() < 0.7) row.retrieved_context = chunks(random() < 0.8);
    if (random() < 0.4) row.expected_retrieved_context = chunks(random() < 0.5);
    return row;
  });
}

describe("a dataset's input coverage, kept by the upload", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ db, cleanup } = await createTempDb()));
  afterAll(async () => cleanup());

  async function upload(rows: Record<string, unknown>[]): Promise<string> {
    const result = await ingestUpload({
      chunks: byteChunks(toJsonl(rows), 4096),
      filename: "coverage.jsonl",
      mode: "strict",
      sink: createDatasetSink(db),
    });
    if (!result.ok) throw new Error(`did not import: ${JSON.stringify(result).slice(0, 500)}`);
    return result.datasetId;
  }

  it("equals a count over the rows and their chunks, for every input, metric and column", async () => {
    for (const seed of [1, 2, 3]) {
      const datasetId = await upload(randomRows(400, seed));
      const kept = await db.dataset.findUniqueOrThrow({ where: { id: datasetId }, select: { inputCoverage: true } });
      // Kept as the rows were written, not on the first read.
      expect(kept.inputCoverage, `seed ${seed}`).not.toBeNull();
      const coverage = await getInputCoverage(db, datasetId);
      expect(coverage, `seed ${seed}`).toEqual(await recountInputCoverage(db, datasetId));
      // The draw covers both sides of the inputs that have edge cases.
      for (const input of [
        "retrieved_context_content",
        "expected_context_content",
        "trace_tokens",
        "response",
      ] as const)
        expect(coverage.inputs[input], `${input}, seed ${seed}`).toBeGreaterThan(0);
      expect(coverage.inputs.retrieved_context_content).toBeLessThan(coverage.inputs.retrieved_context_doc_uri);
      expect(coverage.rowCount).toBe(400);
    }
  });

  it("counts a dataset imported before the counts were kept once, from its rows, and keeps them", async () => {
    const datasetId = await upload(randomRows(150, 7));
    const expected = await recountInputCoverage(db, datasetId);
    await db.dataset.update({ where: { id: datasetId }, data: { inputCoverage: null } });
    expect(await getInputCoverage(db, datasetId)).toEqual(expected);
    const kept = await db.dataset.findUniqueOrThrow({ where: { id: datasetId }, select: { inputCoverage: true } });
    expect(kept.inputCoverage).not.toBeNull();
    expect(await getInputCoverage(db, datasetId)).toEqual(expected);
  });

  it("recounts kept counts of another version rather than misreading them", async () => {
    const datasetId = await upload(randomRows(60, 11));
    const expected = await recountInputCoverage(db, datasetId);
    await db.dataset.update({
      where: { id: datasetId },
      data: { inputCoverage: j({ version: 0, signatures: { "1": 60 } }) },
    });
    expect(await getInputCoverage(db, datasetId)).toEqual(expected);
  });
});
