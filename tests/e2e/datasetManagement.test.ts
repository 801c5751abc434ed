// Browser tests: files as people save them (UTF-16 from Windows tools, quotes
// inside unquoted CSV cells) import and show their rows; a dataset is renamed
// and deleted from its page, the deletion naming how many runs go with it.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { runToCompletion } from "../support/engineKit";
import { ROOT, type AppServer } from "./appServer";
import {
  chooseFile,
  clickUpload,
  expectNoCrashText,
  openApp,
  screenshot,
  tableRequestIds,
  tableRowTexts,
  tempDir,
  uploadThroughPage,
  waitForDatasetPage,
  waitForHydration,
  writeFile,
  type OpenedApp,
} from "./helpers";

let app: OpenedApp;
let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];
const files = tempDir();
let quotesDatasetId = "";

beforeAll(async () => {
  app = await openApp();
  ({ server, db, page, problems } = app);
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(files, { recursive: true, force: true });
});

/** UTF-16 little-endian with a byte-order mark: what Excel's "Unicode text" writes. */
function utf16le(text: string): Uint8Array {
  const bytes = new Uint8Array(2 + text.length * 2);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, 0xfeff, true);
  for (let i = 0; i < text.length; i++) view.setUint16(2 + i * 2, text.charCodeAt(i), true);
  return bytes;
}

describe("files as people save them", () => {
  it("imports a UTF-16 CSV and shows its rows", async () => {
    const csv =
      "request_id,request,response\r\nu1,Où est la gare ?,À gauche après le café.\r\nu2,東京の天気は？,晴れ 👍\r\n";
    await uploadThroughPage(page, server.baseUrl, writeFile(files, "windows-export.csv", utf16le(csv)), "UTF-16 set");
    expect(await page.locator("[data-testid=row-count]").innerText()).toBe("2 rows");
    const rows = await tableRowTexts(page);
    expect(rows[0]).toContain("Où est la gare ?");
    expect(rows[0]).toContain("À gauche après le café.");
    expect(rows[1]).toContain("東京の天気は？");
    expect(rows[1]).toContain("晴れ 👍");
    await expectNoCrashText(page);
  });

  it("imports a CSV with quotes inside unquoted cells, keeping them literally", async () => {
    const csv =
      'request_id,request,response\r\nq1,Open the report,=HYPERLINK("https://example.com/report")\r\n' +
      'q2,Which screen?,The 5" screen\r\n';
    quotesDatasetId = await uploadThroughPage(page, server.baseUrl, writeFile(files, "quotes.csv", csv), "Quotes set");
    expect(await page.locator("[data-testid=row-count]").innerText()).toBe("2 rows");
    const rows = await tableRowTexts(page);
    expect(rows[0]).toContain('=HYPERLINK("https://example.com/report")');
    expect(rows[1]).toContain('The 5" screen');
  });

  it("imports a Parquet file written by another tool and shows its valid rows", async () => {
    const parquet = fs.readFileSync(path.join(ROOT, "tests/fixtures/parquet/eval-set.parquet"));
    await chooseFile(page, server.baseUrl, writeFile(files, "eval-set.parquet", parquet));
    await clickUpload(page, "Parquet set");
    // Row 4 has no request: the panel names it, then the valid rows go in.
    await expect
      .poll(() => page.locator("[data-testid=upload-errors]").innerText())
      .toContain("row 4, column request: request is required");
    expect(await page.locator("[data-testid=upload-problem-summary]").innerText()).toBe(
      "1 problem in 1 of 5 rows. Nothing was stored.",
    );
    await page.getByRole("button", { name: "Import only the 4 valid rows" }).click();
    await waitForDatasetPage(page);
    expect(await page.locator("[data-testid=row-count]").innerText()).toBe("4 rows");
    expect(await tableRequestIds(page)).toEqual(["101", "102", "103", "105"]);
  });
});

describe("managing a dataset from its page", () => {
  const settings = () => page.locator("[data-testid=dataset-settings]");

  it("renames the dataset", async () => {
    const judge = { provider: "heuristic" as const, model: HEURISTIC_MODEL };
    for (const name of ["baseline", "candidate"])
      await runToCompletion(
        db,
        { datasetId: quotesDatasetId, name, metrics: ["response/llm_judged/relevance_to_query"], judge },
        null,
      );
    await page.goto(`${server.baseUrl}/datasets/${quotesDatasetId}`);
    await waitForHydration(page, "[data-testid=dataset-settings] form");
    await settings().locator("summary").click();
    await settings().getByLabel("Dataset name").fill("Quotes set, cleaned");
    await screenshot(page, "50-dataset-settings");
    await settings().getByRole("button", { name: "Rename" }).click();
    await expect.poll(() => settings().getByRole("status").innerText()).toBe("Saved.");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Quotes set, cleaned");
    expect((await db.dataset.findUniqueOrThrow({ where: { id: quotesDatasetId } })).name).toBe("Quotes set, cleaned");
    await page.goto(`${server.baseUrl}/datasets`);
    expect(await page.locator("[data-testid=datasets-table]").innerText()).toContain("Quotes set, cleaned");
  });

  it("deletes the dataset with its runs after a confirmation that names how many runs go", async () => {
    await page.goto(`${server.baseUrl}/datasets/${quotesDatasetId}`);
    await waitForHydration(page, "[data-testid=dataset-settings] form");
    await settings().locator("summary").click();
    await settings().getByRole("button", { name: "Delete this dataset…" }).click();
    const confirmation = page.locator("[data-testid=delete-dataset-confirm]");
    expect(await confirmation.innerText()).toContain(
      "Delete “Quotes set, cleaned”, its 2 rows and its 2 runs with all their judgments? This cannot be undone.",
    );
    await screenshot(page, "51-dataset-delete-confirmation");
    await confirmation.getByRole("button", { name: "Delete dataset and 2 runs" }).click();
    await page.waitForURL(`${server.baseUrl}/datasets`);
    await expect
      .poll(() => page.locator("[data-testid=datasets-table]").innerText())
      .not.toContain("Quotes set, cleaned");
    expect(await page.locator("[data-testid=datasets-table]").innerText()).toContain("UTF-16 set");
    expect(await db.dataset.count({ where: { id: quotesDatasetId } })).toBe(0);
    expect(await db.run.count({ where: { datasetId: quotesDatasetId } })).toBe(0);
    expect(await db.judgmentItem.count({ where: { run: { datasetId: quotesDatasetId } } })).toBe(0);
    await expectNoCrashText(page);
    expect(problems).toEqual([]);
  });
});
