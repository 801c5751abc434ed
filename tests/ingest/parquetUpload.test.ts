import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { DEFAULT_LIMITS } from "@/lib/ingest/limits";
import { toJsonl } from "../support/evalFiles";
import { createTempDb } from "../support/tempDb";
import { ingestIntoDb } from "./ingestIntoTempDb";

// Written by arrow-rs (parquet-rs), not by the reader's own library: see tests/fixtures/parquet/README.md.
const PARQUET = new Uint8Array(
  fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/parquet/eval-set.parquet")),
);

/** The same five rows as JSON Lines, as the fixture's README describes them. */
const SAME_ROWS_AS_JSON = [
  {
    request_id: 101,
    request: "How do I enable versioning?",
    response: "Run nwcli bucket versioning enable.",
    expected_facts: ["versioning is per bucket"],
    retrieved_context: [
      { content: "Versioning keeps every version.", doc_uri: "docs://versioning.md" },
      { content: "Use nwcli.", doc_uri: "docs://cli.md" },
    ],
  },
  { request_id: 102, request: "What is the max object size?", response: "5 TB.", retrieved_context: [] },
  {
    request_id: 103,
    request: "Is egress free?",
    response: "Yes, to the CDN.",
    expected_facts: ["egress to the CDN is free", "other egress is billed"],
    retrieved_context: [{ content: null, doc_uri: "docs://billing.md" }],
  },
  { request_id: 104, request: null, response: "An answer without a question." },
  {
    request_id: 105,
    request: "Où est la doc ?",
    response: "Sur docs.example.com 👍",
    expected_facts: ["la doc est en ligne"],
    retrieved_context: [{ content: "La documentation est en ligne.", doc_uri: "docs://fr.md" }],
  },
];

let db: Db;
let cleanup: () => Promise<void>;
// A temp folder of this file's own (os.tmpdir() reads TMPDIR on every call), so the check that every
// upload's temporary copy is gone sees only this file's uploads, not those of test files running beside it.
const sharedTmpdir = process.env.TMPDIR;
let ownTmpdir: string;
beforeAll(async () => {
  ownTmpdir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-parquet-test-"));
  process.env.TMPDIR = ownTmpdir;
  ({ db, cleanup } = await createTempDb());
});
afterAll(async () => {
  await cleanup();
  if (sharedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = sharedTmpdir;
  fs.rmSync(ownTmpdir, { recursive: true, force: true });
});

/** Stored rows without their ids, so two uploads of the same rows compare equal. */
function comparable(rows: Awaited<ReturnType<typeof ingestIntoDb>>["storedRows"]) {
  return rows.map(({ id: _id, datasetId: _datasetId, chunks, ...row }) => ({
    ...row,
    chunks: chunks.map(({ id: _chunkId, rowId: _rowId, ...chunk }) => chunk),
  }));
}

describe("Parquet upload", () => {
  it("validates every row with the row numbers of the file, across row groups", async () => {
    const { result, messages, added } = await ingestIntoDb(db, "eval-set.parquet", PARQUET, "strict", undefined, 1000);
    expect(result).toMatchObject({ ok: false, fileError: null, issueCount: 1, rowsRead: 5, validRows: 4 });
    expect(messages).toEqual(["row 4, column request: request is required"]);
    expect(added).toEqual({ datasets: 0, rows: 0 });
  });

  it("stores the valid rows exactly as the same rows uploaded as JSON Lines, nested lists and structs included", async () => {
    const parquet = await ingestIntoDb(db, "eval-set.parquet", PARQUET, "validRowsOnly", undefined, 777);
    const jsonl = await ingestIntoDb(db, "eval-set.jsonl", toJsonl(SAME_ROWS_AS_JSON), "validRowsOnly");
    expect(parquet.result).toMatchObject({ ok: true, rowCount: 4, skippedRows: 1 });
    expect(parquet.storedRows.map((row) => [row.rowNumber, row.requestId, row.retrievedChunkCount])).toEqual([
      [1, "101", 2],
      [2, "102", 0],
      [3, "103", 1],
      [5, "105", 1],
    ]);
    expect(parquet.storedRows[0].chunks.map((chunk) => [chunk.kind, chunk.content, chunk.docUri])).toEqual([
      ["retrieved", "Versioning keeps every version.", "docs://versioning.md"],
      ["retrieved", "Use nwcli.", "docs://cli.md"],
    ]);
    expect(comparable(parquet.storedRows)).toEqual(comparable(jsonl.storedRows));
  });

  it("says a truncated file cannot be read, and applies the size limit while it streams to disk", async () => {
    const truncated = await ingestIntoDb(db, "cut.parquet", PARQUET.subarray(0, 3000), "strict");
    expect(truncated.result).toMatchObject({
      ok: false,
      fileError: expect.stringMatching(
        /^This \.parquet file could not be read \(.+\)\. Is it a complete Parquet file\?$/,
      ),
    });
    const limits = { ...DEFAULT_LIMITS, maxFileBytes: 4096 };
    const tooBig = await ingestIntoDb(db, "big.parquet", PARQUET, "strict", limits, 1024);
    expect(tooBig.result).toMatchObject({ ok: false, fileError: "The file is larger than the 4.0 KB limit." });
    // The temporary copy of each upload is gone, whatever happened.
    expect(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith("assay-upload-"))).toEqual([]);
  });
});
