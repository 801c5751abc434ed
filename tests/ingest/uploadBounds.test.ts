import { describe, expect, it } from "vitest";
import type { DatasetSink } from "@/lib/contract/datasetSink";
import { ingestUpload } from "@/lib/ingest/ingestUpload";
import { DEFAULT_LIMITS } from "@/lib/ingest/limits";
import { approximateRowBytes } from "@/lib/ingest/rowSize";
import type { NormalizedRow } from "@/lib/contract/normalizedRow";
import { collectingSink } from "../support/collectingSink";
import { byteChunks, toJsonl } from "../support/evalFiles";

/** A sink that records every batch's approximate size in bytes and rows. */
function batchRecordingSink() {
  const batches: { rows: number; bytes: number }[] = [];
  const { sink, state } = collectingSink();
  const recording: DatasetSink = {
    ...sink,
    async writeRows(id, rows: NormalizedRow[]) {
      batches.push({ rows: rows.length, bytes: rows.reduce((sum, row) => sum + approximateRowBytes(row), 0) });
      await sink.writeRows(id, rows);
    },
  };
  return { sink: recording, state, batches };
}

describe("upload batches are bounded in bytes as well as rows", () => {
  it("40 rows of ~100 KB with a 1 MB batch bound: batches of at most 1 MB, every row stored", async () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({ request: `q${i}`, response: "r".repeat(100_000) }));
    const { sink, state, batches } = batchRecordingSink();
    const limits = { ...DEFAULT_LIMITS, batchBytes: 1_000_000 };
    const result = await ingestUpload({
      chunks: byteChunks(toJsonl(rows), 65_536),
      filename: "b.jsonl",
      mode: "strict",
      sink,
      limits,
    });
    expect(result).toMatchObject({ ok: true, rowCount: 40 });
    expect(state.rows).toHaveLength(40);
    expect(batches.length).toBeGreaterThanOrEqual(4);
    for (const batch of batches) expect(batch.bytes).toBeLessThanOrEqual(1_000_000);
    expect(batches.reduce((sum, batch) => sum + batch.rows, 0)).toBe(40);
  });

  it("a single row larger than the bound is still written, alone", async () => {
    const rows = [
      { request: "small", response: "a" },
      { request: "big", response: "r".repeat(50_000) },
      { request: "small again", response: "b" },
    ];
    const { sink, batches } = batchRecordingSink();
    const result = await ingestUpload({
      chunks: byteChunks(toJsonl(rows), 4096),
      filename: "b.jsonl",
      mode: "strict",
      sink,
      limits: { ...DEFAULT_LIMITS, batchBytes: 10_000 },
    });
    expect(result.ok).toBe(true);
    expect(batches.map((batch) => batch.rows)).toEqual([1, 1, 1]);
  });
});

describe("an upload whose client stops sending is timed out", () => {
  it("no bytes for the idle timeout: the upload fails with the reason and nothing is kept", async () => {
    async function* stalls(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode(`${JSON.stringify({ request: "q", response: "a" })}\n{"request": "par`);
      await new Promise(() => undefined); // the client never sends the rest
    }
    const { sink, state } = collectingSink();
    // The client never sends the rest: only the idle timeout can end this upload (or the test's own timeout fails it).
    const result = await ingestUpload({
      chunks: stalls(),
      filename: "slow.jsonl",
      mode: "strict",
      sink,
      limits: { ...DEFAULT_LIMITS, idleTimeoutMs: 300 },
    });
    expect(result).toMatchObject({
      ok: false,
      fileError: "No data arrived for 0.3 s, so the upload was stopped. Nothing was stored; try again.",
    });
    expect(state.discarded).toBe(true);
    expect(state.committed).toBeNull();
  });

  it("a slow but steady client is not timed out", async () => {
    async function* trickles(): AsyncGenerator<Uint8Array> {
      const text = toJsonl([
        { request: "q1", response: "a" },
        { request: "q2", response: "b" },
      ]);
      for (const char of text) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        yield new TextEncoder().encode(char);
      }
    }
    const { sink } = collectingSink();
    const result = await ingestUpload({
      chunks: trickles(),
      filename: "steady.jsonl",
      mode: "strict",
      sink,
      limits: { ...DEFAULT_LIMITS, idleTimeoutMs: 300 },
    });
    expect(result).toMatchObject({ ok: true, rowCount: 2 });
  });
});
