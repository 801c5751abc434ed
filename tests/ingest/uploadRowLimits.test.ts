import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { FileError } from "@/lib/ingest/errors";
import { DEFAULT_LIMITS, limitsFromEnv } from "@/lib/ingest/limits";
import { readParquet } from "@/lib/ingest/readers/readParquet";
import { parquetBomb } from "../fixtures/parquet/parquetBomb";
import { byteChunks, toJsonl } from "../support/evalFiles";
import { createTempDb } from "../support/tempDb";
import { ingestIntoDb } from "./ingestIntoTempDb";

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTempDb()));
afterAll(async () => cleanup());

describe("a Parquet decompression bomb", () => {
  it("is refused with the row-group limit named and how to rewrite the file, and nothing is stored", async () => {
    // 5,000,000 copies of one request in one dictionary-encoded row group: a few hundred bytes.
    const bomb = parquetBomb({ rows: 5_000_000 });
    expect(bomb.length).toBeLessThan(2000);
    const { result, added } = await ingestIntoDb(db, "bomb.parquet", bomb, "validRowsOnly");
    expect(result).toMatchObject({
      ok: false,
      rowsRead: 0,
      fileError:
        "Row group 1 holds 5,000,000 rows; Assay reads at most 200,000 rows per row group (ASSAY_MAX_PARQUET_ROW_GROUP_ROWS). Write the file with smaller row groups (pyarrow: `pq.write_table(table, path, row_group_size=100_000)`) or split it.",
    });
    expect(added).toEqual({ datasets: 0, rows: 0 });
  });

  it("is refused by the reader before any row group is decoded: no row, little heap", async () => {
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const rows: unknown[] = [];
    const reading = (async () => {
      for await (const record of readParquet(byteChunks(parquetBomb({ rows: 5_000_000 })), DEFAULT_LIMITS, {
        bytes: 0,
      }))
        rows.push(record);
    })();
    await expect(reading).rejects.toThrow(FileError);
    expect(rows).toEqual([]);
    // Decoding it took about +500 MB of heap; the footer check takes next to nothing.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 1024 * 1024);
  });

  it("is refused when its footer understates the rows its page holds (the page headers are checked too)", async () => {
    const liar = parquetBomb({ rows: 5_000_000, footerRows: 10 });
    const { result, added } = await ingestIntoDb(db, "liar.parquet", liar, "validRowsOnly");
    expect(result).toMatchObject({
      ok: false,
      rowsRead: 0,
      fileError:
        "Row group 1, column request: its pages hold more values (5,000,000 so far) than the file's footer announces (10). The file is damaged or was crafted; write it again (pyarrow, pandas or Spark) and upload that.",
    });
    expect(added).toEqual({ datasets: 0, rows: 0 });
  });

  it("is refused when a column holds millions of values in few rows (as a list column can)", async () => {
    const listLike = parquetBomb({ rows: 5_000_000, footerRows: 10, footerValues: 5_000_000 });
    const { result, added } = await ingestIntoDb(db, "list.parquet", listLike, "validRowsOnly");
    expect(result).toMatchObject({
      ok: false,
      rowsRead: 0,
      fileError:
        "Row group 1, column request holds 5,000,000 values; Assay reads at most 4,000,000 values per column in a row group (20 per row of ASSAY_MAX_PARQUET_ROW_GROUP_ROWS). Write the file with smaller row groups (pyarrow: `pq.write_table(table, path, row_group_size=100_000)`) or split it.",
    });
    expect(added).toEqual({ datasets: 0, rows: 0 });
  });

  it("is refused when a row group's uncompressed size is over ASSAY_MAX_PARQUET_ROW_GROUP_MB", async () => {
    const wide = parquetBomb({ rows: 10, footerUncompressedBytes: 65 * 1024 * 1024 });
    const { result, added } = await ingestIntoDb(db, "wide.parquet", wide, "validRowsOnly");
    expect(result).toMatchObject({
      ok: false,
      fileError: expect.stringMatching(
        /^Row group 1 holds 65\.0 MB of uncompressed data; Assay reads at most 64\.0 MB per row group \(ASSAY_MAX_PARQUET_ROW_GROUP_MB\)\. Write the file with smaller row groups/,
      ),
    });
    expect(added).toEqual({ datasets: 0, rows: 0 });
  });
});

describe("rows per upload (ASSAY_MAX_UPLOAD_ROWS)", () => {
  const limits = { ...DEFAULT_LIMITS, maxRows: 10 };
  const refusal =
    "This file holds more than 10 rows; Assay reads at most 10 rows per upload (ASSAY_MAX_UPLOAD_ROWS). Split it into files of at most 10 rows and upload each as its own dataset.";

  it("counts the rows of every row group from the footer, before reading any", async () => {
    const fits = await ingestIntoDb(db, "ten.parquet", parquetBomb({ rows: 5, groups: 2 }), "strict", limits);
    expect(fits.result).toMatchObject({ ok: true, rowCount: 10 });
    const over = await ingestIntoDb(db, "fifteen.parquet", parquetBomb({ rows: 5, groups: 3 }), "strict", limits);
    expect(over.result).toMatchObject({
      ok: false,
      rowsRead: 0,
      fileError: refusal.replace("more than 10 rows", "15 rows"),
    });
    expect(over.added).toEqual({ datasets: 0, rows: 0 });
  });

  it("stops a streamed JSON Lines file at the first row over the limit and stores nothing", async () => {
    const rows = Array.from({ length: 11 }, (_, index) => ({ request_id: `r${index}`, request: `question ${index}` }));
    const fits = await ingestIntoDb(db, "ten.jsonl", toJsonl(rows.slice(0, 10)), "strict", limits);
    expect(fits.result).toMatchObject({ ok: true, rowCount: 10 });
    const over = await ingestIntoDb(db, "eleven.jsonl", toJsonl(rows), "validRowsOnly", limits);
    expect(over.result).toMatchObject({ ok: false, fileError: refusal });
    expect(over.added).toEqual({ datasets: 0, rows: 0 });
  });

  it("takes its limits from the environment", () => {
    expect(
      limitsFromEnv({
        ASSAY_MAX_UPLOAD_ROWS: "2000000",
        ASSAY_MAX_PARQUET_ROW_GROUP_ROWS: "50000",
        ASSAY_MAX_PARQUET_ROW_GROUP_MB: "16",
      }),
    ).toMatchObject({ maxRows: 2_000_000, maxParquetRowGroupRows: 50_000, maxParquetRowGroupBytes: 16 * 1024 * 1024 });
    expect(limitsFromEnv({ ASSAY_MAX_UPLOAD_ROWS: "lots" })).toMatchObject({
      maxRows: 1_000_000,
      maxParquetRowGroupRows: 200_000,
    });
  });
});
