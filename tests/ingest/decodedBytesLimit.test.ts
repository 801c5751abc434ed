// The decoded bytes of one upload (ASSAY_MAX_UPLOAD_DECODED_MB), in every format. A Parquet dictionary
// stores a value once and decoding repeats it in every row: 2,000 rows whose request and response are one
// 50,000-character value made a file of a few KB that was stored as about 400 MB.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatasetSink } from "@/lib/db/datasets/datasetWrites";
import type { Db } from "@/lib/db/client";
import { FileError } from "@/lib/ingest/errors";
import { ingestUpload, type ImportMode } from "@/lib/ingest/ingestUpload";
import { DEFAULT_LIMITS, limitsFromEnv, type IngestLimits } from "@/lib/ingest/limits";
import { readParquet } from "@/lib/ingest/readers/readParquet";
import { dictionaryParquet } from "../fixtures/parquet/dictionaryParquet";
import { byteChunks, toCsv, toJsonArray, toJsonl } from "../support/evalFiles";
import { createTempDb } from "../support/tempDb";

const KB = 1024;
const MB = 1024 * KB;
let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTempDb()));
afterAll(async () => cleanup());

/** Uploads through the real ingest into the store, counting the rows handed to the store's writer. */
async function upload(filename: string, content: string | Uint8Array, limits: IngestLimits, mode: ImportMode) {
  const before = { datasets: await db.dataset.count(), rows: await db.datasetRow.count() };
  const sink = createDatasetSink(db);
  let rowsWritten = 0;
  const result = await ingestUpload({
    chunks: byteChunks(content, 64 * KB),
    filename,
    mode,
    limits,
    sink: { ...sink, writeRows: async (id, rows) => ((rowsWritten += rows.length), sink.writeRows(id, rows)) },
  });
  const added = {
    datasets: (await db.dataset.count()) - before.datasets,
    rows: (await db.datasetRow.count()) - before.rows,
  };
  return { result, rowsWritten, added };
}

/** The 2,000-row file of the review: request and response one 50,000-character dictionary value each. */
function reviewedFile(): Uint8Array {
  return dictionaryParquet({
    columns: { request: "How do I enable versioning? ".repeat(1786).slice(0, 50_000), response: "x".repeat(50_000) },
    rowsPerGroup: 2000,
  });
}

describe("a Parquet file whose dictionary values repeat in every row", () => {
  it("is refused with the decoded limit named before any of its rows is read, and nothing is written", async () => {
    const file = reviewedFile();
    expect(file.length).toBeLessThan(40 * KB);
    const { result, rowsWritten, added } = await upload("dictionary.parquet", file, DEFAULT_LIMITS, "validRowsOnly");
    expect(result).toMatchObject({
      ok: false,
      rowsRead: 0,
      fileError:
        "Rows 1–2,000 of this file decode to 190.7 MB (a value a Parquet dictionary stores once counts again for every row that repeats it); Assay reads at most 128.0 MB of decoded data per upload (ASSAY_MAX_UPLOAD_DECODED_MB). Split it into smaller files and upload each as its own dataset.",
    });
    expect(rowsWritten).toBe(0);
    expect(added).toEqual({ datasets: 0, rows: 0 });
  });

  it("is refused by the reader right after its row group is decoded, before the group's first row", async () => {
    const records: unknown[] = [];
    const reading = (async () => {
      // Stops at the first record, so that the old reader (which yielded them all) cannot fill memory here.
      for await (const record of readParquet(byteChunks(reviewedFile()), DEFAULT_LIMITS, { bytes: 0 })) {
        records.push(record);
        break;
      }
    })();
    await expect(reading).rejects.toThrow(FileError);
    await expect(reading).rejects.toThrow(/ASSAY_MAX_UPLOAD_DECODED_MB/);
    expect(records).toEqual([]);
  });

  it("counts every row group: the group that takes the file past the limit is refused, the rows before it discarded", async () => {
    const file = dictionaryParquet({
      columns: { request: "q".repeat(512), response: "r".repeat(512) },
      rowsPerGroup: 10,
      groups: 5,
    });
    // 10 KB a group: the first two fit in 25 KB, the third takes the file to 30 KB.
    const limits = { ...DEFAULT_LIMITS, maxDecodedBytes: 25 * KB, batchSize: 5 };
    const { result, rowsWritten, added } = await upload("groups.parquet", file, limits, "validRowsOnly");
    expect(result).toMatchObject({
      ok: false,
      rowsRead: 20,
      fileError:
        "Rows 1–30 of this file decode to 30.0 KB (a value a Parquet dictionary stores once counts again for every row that repeats it); Assay reads at most 25.0 KB of decoded data per upload (ASSAY_MAX_UPLOAD_DECODED_MB). Split it into smaller files and upload each as its own dataset.",
    });
    expect(rowsWritten).toBe(20);
    expect(added).toEqual({ datasets: 0, rows: 0 });
    // Under the limit the same file imports whole.
    const fits = await upload("groups.parquet", file, { ...limits, maxDecodedBytes: 50 * KB }, "strict");
    expect(fits.result).toMatchObject({ ok: true, rowCount: 50 });
  });

  it("refuses 1,000,000 rows of two 1,000,000-character cells (2 TB decoded) at its first row group, memory bounded", async () => {
    // Five row groups of 200,000 rows (ASSAY_MAX_PARQUET_ROW_GROUP_ROWS): every footer and page-header bound holds.
    const file = dictionaryParquet({
      columns: { request: "Why? ".repeat(200_000), response: "Because. ".repeat(111_112).slice(0, 1_000_000) },
      rowsPerGroup: 200_000,
      groups: 5,
    });
    expect(file.length).toBeLessThan(3 * MB);
    const peakBefore = process.resourceUsage().maxRSS * KB;
    const { result, rowsWritten, added } = await upload("huge.parquet", file, DEFAULT_LIMITS, "validRowsOnly");
    const peakGrowth = process.resourceUsage().maxRSS * KB - peakBefore;
    expect(result).toMatchObject({
      ok: false,
      rowsRead: 0,
      fileError: expect.stringMatching(
        /^Rows 1–200,000 of this file decode to 381469\.7 MB .*; Assay reads at most 128\.0 MB of decoded data per upload \(ASSAY_MAX_UPLOAD_DECODED_MB\)\./,
      ),
    });
    expect(rowsWritten).toBe(0);
    expect(added).toEqual({ datasets: 0, rows: 0 });
    // Decoding the group shares the two dictionary strings across its rows: the process's peak grows by tens of MB.
    console.log(
      `1,000,000-row dictionary file (${file.length} bytes): peak RSS grew ${(peakGrowth / MB).toFixed(0)} MB`,
    );
    expect(peakGrowth).toBeLessThan(300 * MB);
  });
});

describe("text uploads over the decoded limit", () => {
  // 512 + 512 characters a row: ten rows are exactly 10 KB, the eleventh is over.
  const rows = Array.from({ length: 30 }, (_, index) => ({
    request: `${index}`.padEnd(512, "q"),
    response: `${index}`.padEnd(512, "r"),
  }));
  const limits = { ...DEFAULT_LIMITS, maxDecodedBytes: 10 * KB, batchSize: 4 };
  const refusal =
    "This file decodes to more than 10.0 KB of data; Assay reads at most 10.0 KB of decoded data per upload (ASSAY_MAX_UPLOAD_DECODED_MB). Split it into smaller files and upload each as its own dataset.";

  for (const [filename, content] of [
    ["rows.jsonl", toJsonl(rows)],
    ["rows.json", toJsonArray(rows)],
    ["rows.csv", toCsv(rows)],
  ] as const) {
    it(`stops ${filename} at the first row over the limit, names it, and stores nothing`, async () => {
      const { result, rowsWritten, added } = await upload(filename, content, limits, "validRowsOnly");
      expect(result).toMatchObject({ ok: false, rowsRead: 11, fileError: refusal });
      // The rows before it went out in batches of 4 and were discarded with the dataset.
      expect(rowsWritten).toBe(8);
      expect(added).toEqual({ datasets: 0, rows: 0 });
    });
  }

  it("never refuses a text file within the upload size limit by default (twice ASSAY_MAX_UPLOAD_MB)", async () => {
    // Text decodes to no more than its own bytes, however its rows are stored: a request is kept three times
    // (as uploaded, as messages, as text), and a list of small numbers takes 2 bytes a number in the file.
    const maxFileBytes = 64 * KB;
    const wide = Array.from({ length: 12 }, (_, index) => ({
      request_id: `r${index}`,
      request: `${index} ${"a question that is long enough to matter ".repeat(107)}`,
      token_ids: Array.from({ length: 300 }, (_, n) => n % 10),
    }));
    for (const [filename, content] of [
      ["wide.jsonl", toJsonl(wide)],
      ["wide.json", JSON.stringify(wide)],
      ["wide.csv", toCsv(wide)],
    ] as const) {
      const size = new TextEncoder().encode(content).length;
      expect(size).toBeGreaterThan(maxFileBytes * 0.9);
      expect(size).toBeLessThanOrEqual(maxFileBytes);
      // No maxDecodedBytes: it follows the upload limit, as limitsFromEnv does when the variable is unset.
      const { result } = await upload(filename, content, { ...DEFAULT_LIMITS, maxFileBytes }, "strict");
      expect(result, filename).toMatchObject({ ok: true, rowCount: 12 });
      // The same file against a decoded limit of half its size is refused: the check is there, and it counts.
      const halved = await upload(filename, content, { ...DEFAULT_LIMITS, maxDecodedBytes: size / 2 }, "strict");
      expect(halved.result, filename).toMatchObject({
        ok: false,
        fileError: expect.stringMatching(/^This file decodes/),
      });
    }
  });
});

describe("ASSAY_MAX_UPLOAD_DECODED_MB", () => {
  it("is read from the environment, and defaults to twice the upload limit", () => {
    expect(limitsFromEnv({})).toMatchObject({ maxFileBytes: 64 * MB, maxDecodedBytes: 128 * MB });
    expect(limitsFromEnv({ ASSAY_MAX_UPLOAD_MB: "100" })).toMatchObject({ maxDecodedBytes: 200 * MB });
    expect(limitsFromEnv({ ASSAY_MAX_UPLOAD_DECODED_MB: "512" })).toMatchObject({
      maxFileBytes: 64 * MB,
      maxDecodedBytes: 512 * MB,
    });
    expect(limitsFromEnv({ ASSAY_MAX_UPLOAD_DECODED_MB: "lots" })).toMatchObject({ maxDecodedBytes: 128 * MB });
  });
});
