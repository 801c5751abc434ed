// Hostile Parquet files against the real server. A few hundred bytes that
// decode to 5,000,000 rows in one row group: refused from its footer, with
// the limit named, nothing is stored, and the server's memory stays low
// (decoding it used to take the server past 1.2 GB). And files within every
// row-group bound whose dictionary value repeats in every row: refused at the
// decoded limit before a row is written (a 37 KB one of 2,000 rows used to be
// stored, growing the database by 400 MB with the server at 1.44 GB).
import fs from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { uploadEventSchema } from "@/lib/ingest/uploadProtocol";
import { dictionaryParquet } from "../fixtures/parquet/dictionaryParquet";
import { parquetBomb } from "../fixtures/parquet/parquetBomb";
import type { AppServer } from "./appServer";
import { chooseFile, clickUpload, expectNoCrashText, openApp, tempDir, writeFile, type OpenedApp } from "./helpers";
import { peakRssDuring, treePeakRss } from "./processMemory";

const MB = 1024 * 1024;
const files = tempDir();
const ROW_GROUP_REFUSAL =
  "Row group 1 holds 5,000,000 rows; Assay reads at most 200,000 rows per row group (ASSAY_MAX_PARQUET_ROW_GROUP_ROWS). Write the file with smaller row groups (pyarrow: `pq.write_table(table, path, row_group_size=100_000)`) or split it.";

let app: OpenedApp;
let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];

beforeAll(async () => {
  app = await openApp();
  ({ server, db, page, problems } = app);
});
afterAll(async () => app?.close());

describe("a Parquet decompression bomb uploaded to the server", () => {
  it("is refused with the limit named, stores nothing, and the server's peak memory stays under 300 MB", async () => {
    const bomb = parquetBomb({ rows: 5_000_000 });
    const before = { datasets: await db.dataset.count(), rows: await db.datasetRow.count() };
    let peak = treePeakRss(server.pid);
    const sampler = setInterval(() => (peak = Math.max(peak, treePeakRss(server.pid))), 20);
    const response = await fetch(`${server.baseUrl}/api/datasets/upload?filename=bomb.parquet&name=bomb`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: Buffer.from(bomb),
    });
    const events = (await response.text())
      .trim()
      .split("\n")
      .map((line) => uploadEventSchema.parse(JSON.parse(line)));
    clearInterval(sampler);
    peak = Math.max(peak, treePeakRss(server.pid));
    console.log(`bomb upload (${bomb.length} bytes): server peak RSS ${(peak / MB).toFixed(0)} MB (VmHWM)`);

    expect(events.at(-1)).toMatchObject({ type: "result", ok: false, fileError: ROW_GROUP_REFUSAL });
    expect({ datasets: await db.dataset.count(), rows: await db.datasetRow.count() }).toEqual(before);
    // VmHWM is the process's highest RSS since it started, so page loads before the upload count too.
    expect(peak).toBeLessThan(300 * MB);
  });

  it("shows the refusal in the upload panel", async () => {
    await chooseFile(page, server.baseUrl, writeFile(files, "bomb.parquet", parquetBomb({ rows: 5_000_000 })));
    await clickUpload(page, "Bomb");
    const errorBox = page.locator("[data-testid=upload-errors]");
    await errorBox.waitFor();
    expect((await errorBox.innerText()).trim()).toBe(ROW_GROUP_REFUSAL);
    await expectNoCrashText(page);
    expect(problems).toEqual([]);
  });
});

describe("a Parquet file whose one dictionary value repeats in every row, uploaded to the server", () => {
  const decodedRefusal = (rows: string, decoded: string) =>
    `Rows 1–${rows} of this file decode to ${decoded} (a value a Parquet dictionary stores once counts again for every row that repeats it); Assay reads at most 128.0 MB of decoded data per upload (ASSAY_MAX_UPLOAD_DECODED_MB). Split it into smaller files and upload each as its own dataset.`;

  it("2,000 rows of two 50,000-character cells: refused at the decoded limit, the database does not grow", async () => {
    const file = dictionaryParquet({
      columns: { request: "How do I enable versioning? ".repeat(1786).slice(0, 50_000), response: "x".repeat(50_000) },
      rowsPerGroup: 2000,
    });
    const before = { datasets: await db.dataset.count(), rows: await db.datasetRow.count() };
    const sizeBefore = databaseBytes(server.databaseUrl);
    const { result: events, peak } = await peakRssDuring(server.pid, () => uploadFile("dictionary.parquet", file));
    const growth = databaseBytes(server.databaseUrl) - sizeBefore;
    console.log(
      `dictionary upload (${file.length} bytes): server peak RSS ${(peak / MB).toFixed(0)} MB, database grew ${(growth / 1024).toFixed(0)} KB`,
    );

    expect(events.at(-1)).toMatchObject({ type: "result", ok: false, fileError: decodedRefusal("2,000", "190.7 MB") });
    expect({ datasets: await db.dataset.count(), rows: await db.datasetRow.count() }).toEqual(before);
    // The refused upload's dataset is made and removed: a few pages of the database and its write-ahead log.
    expect(growth).toBeLessThan(5 * MB);
    expect(peak).toBeLessThan(400 * MB);
  });

  it("1,000,000 rows of two 1,000,000-character cells (2 TB decoded): refused at its first row group", async () => {
    const file = dictionaryParquet({
      columns: { request: "Why? ".repeat(200_000), response: "Because. ".repeat(111_112).slice(0, 1_000_000) },
      rowsPerGroup: 200_000,
      groups: 5,
    });
    const before = { datasets: await db.dataset.count(), rows: await db.datasetRow.count() };
    const sizeBefore = databaseBytes(server.databaseUrl);
    const { result: events, peak } = await peakRssDuring(server.pid, () => uploadFile("huge.parquet", file));
    const growth = databaseBytes(server.databaseUrl) - sizeBefore;
    console.log(
      `1,000,000-row dictionary upload (${file.length} bytes): server peak RSS ${(peak / MB).toFixed(0)} MB, database grew ${(growth / 1024).toFixed(0)} KB`,
    );

    expect(events.at(-1)).toMatchObject({
      type: "result",
      ok: false,
      fileError: decodedRefusal("200,000", "381469.7 MB"),
    });
    expect({ datasets: await db.dataset.count(), rows: await db.datasetRow.count() }).toEqual(before);
    expect(growth).toBeLessThan(5 * MB);
    // The row group (200,000 rows) is decoded whole, its two dictionary strings shared by every row.
    expect(peak).toBeLessThan(400 * MB);
  });
});

/** Uploads a file through the browser's upload route and returns its progress events, the result last. */
async function uploadFile(filename: string, bytes: Uint8Array) {
  const response = await fetch(`${server.baseUrl}/api/datasets/upload?filename=${filename}&name=${filename}`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream" },
    body: Buffer.from(bytes),
  });
  return (await response.text())
    .trim()
    .split("\n")
    .map((line) => uploadEventSchema.parse(JSON.parse(line)));
}

/** The SQLite database's bytes on disk: its file and its write-ahead log. */
function databaseBytes(databaseUrl: string): number {
  const file = databaseUrl.replace(/^file:/, "");
  return [file, `${file}-wal`].reduce((sum, name) => sum + (fs.existsSync(name) ? fs.statSync(name).size : 0), 0);
}
