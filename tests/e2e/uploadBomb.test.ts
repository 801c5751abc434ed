// A hostile Parquet file against the real server: a few hundred bytes that
// decode to 5,000,000 rows in one row group. It is refused from its footer,
// with the limit named, nothing is stored, and the server's memory stays low
// (decoding it used to take the server past 1.2 GB).
import fs from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { uploadEventSchema } from "@/lib/ingest/uploadProtocol";
import { parquetBomb } from "../fixtures/parquet/parquetBomb";
import type { AppServer } from "./appServer";
import { chooseFile, clickUpload, expectNoCrashText, openApp, tempDir, writeFile, type OpenedApp } from "./helpers";

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

/** The highest resident memory (VmHWM) of a process and its children, from /proc (Linux). */
function treePeakRss(pid: number): number {
  let total = 0;
  for (const id of [pid, ...childPids(pid)]) {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${id}/status`, "utf8"));
      if (match) total += Number(match[1]) * 1024;
    } catch {
      // the process ended
    }
  }
  return total;
}

function childPids(pid: number): number[] {
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    return children.map(Number).flatMap((child) => [child, ...childPids(child)]);
  } catch {
    return [];
  }
}
