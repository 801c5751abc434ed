// Browser tests: uploads that fail. Row errors are listed by row number and
// nothing is stored until the user asks for the valid rows only; whole-file
// problems (empty, binary, wrong type, too large, no column that gives the request) get one plain message,
// with the upload's warnings beside it.
import { uploadEventSchema } from "@/lib/ingest/uploadProtocol";
import fs from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { toJsonl } from "../support/evalFiles";
import type { AppServer } from "./appServer";
import {
  chooseFile,
  clickUpload,
  expectNoCrashText,
  screenshot,
  tempDir,
  waitForDatasetPage,
  watchPage,
  writeFile,
  openApp,
  type OpenedApp,
} from "./helpers";

const files = tempDir();
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e221bc330000000049454e44ae426082",
  "hex",
);

/** 20 JSONL rows; row 5 is not JSON, row 9 is not an object, row 17 has both kinds of ground truth. */
function brokenJsonl(): string {
  const lines = toJsonl(
    Array.from({ length: 20 }, (_, i) => ({
      request_id: `b-${i + 1}`,
      request: `Broken-file question ${i + 1}`,
      response: `Answer ${i + 1}`,
      expected_facts: [`fact ${i + 1}`],
      ...(i === 16 ? { expected_response: "Also a reference answer" } : {}),
    })),
  )
    .trimEnd()
    .split("\n");
  lines[4] = '{"request_id": "b-5", "request": "unterminated';
  lines[8] = '"just a string"';
  return lines.join("\n") + "\n";
}

describe("upload errors (default limits)", () => {
  let server: AppServer;
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let db: Db;
  let page: Page;
  let problems: string[];
  const uploadRequests: string[] = [];

  let app: OpenedApp;

  beforeAll(async () => {
    app = await openApp();
    ({ server, browser, db, page, problems } = app);
    page.on("request", (request) => {
      if (request.url().includes("/api/datasets/upload")) uploadRequests.push(request.url());
    });
  });

  afterAll(async () => app?.close());

  const errorBox = () => page.locator("[data-testid=upload-errors]");
  const uploadPanel = () => page.locator("section[aria-labelledby=upload-heading]");
  /** The /datasets list as seen in a second tab, so the upload page keeps its state. */
  const datasetsList = async () => {
    const other = await browser.context.newPage();
    await other.goto(`${server.baseUrl}/datasets`);
    const rows = await other.locator("[data-testid=datasets-table] tbody tr").allInnerTexts();
    await other.close();
    return rows;
  };

  it("lists every row error by row number, stores nothing, then imports only the valid rows", async () => {
    const countBefore = await db.dataset.count();
    const listBefore = await datasetsList();
    // The two samples a new store loads.
    expect(listBefore).toHaveLength(2);

    await chooseFile(page, server.baseUrl, writeFile(files, "broken.jsonl", brokenJsonl()));
    await clickUpload(page, "Broken set");
    await errorBox().waitFor();
    const items = await errorBox().locator("li").allInnerTexts();
    expect(items).toHaveLength(3);
    expect(items[0]).toMatch(/^row 5: invalid JSON on line 5 \(.+\)$/);
    expect(items[1]).toBe("row 9: expected an object with columns such as request and response, got a string");
    expect(items[2]).toBe("row 17, column expected_facts: expected_facts and expected_response are both set; keep one");
    // Three numbers, each named: the problems, the rows that have them, and the rows read.
    expect(await errorBox().innerText()).toContain("3 problems in 3 of 20 rows. Nothing was stored.");
    const importValid = errorBox().getByRole("button", { name: "Import only the 17 valid rows" });
    expect(await importValid.isVisible()).toBe(true);
    await expectNoCrashText(page);
    await screenshot(page, "06-upload-errors");

    expect(await db.dataset.count()).toBe(countBefore);
    expect(await db.datasetRow.count({ where: { requestId: { startsWith: "b-" } } })).toBe(0);
    expect(await datasetsList()).toEqual(listBefore);

    await page.getByLabel("Dataset name").fill("Broken set, valid rows");
    await importValid.click();
    const datasetId = await waitForDatasetPage(page);
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Broken set, valid rows");
    expect(await page.locator("[data-testid=row-count]").innerText()).toBe("17 rows");
    expect(await page.locator("main").innerText()).toContain("3 invalid rows were skipped at upload.");

    const keep = Array.from({ length: 20 }, (_, i) => i + 1).filter((n) => ![5, 9, 17].includes(n));
    const rows = await db.datasetRow.findMany({
      where: { datasetId },
      orderBy: { rowNumber: "asc" },
      select: { rowNumber: true, requestId: true, requestText: true },
    });
    expect(rows).toEqual(
      keep.map((n) => ({ rowNumber: n, requestId: `b-${n}`, requestText: `Broken-file question ${n}` })),
    );
    expect(await db.dataset.count()).toBe(countBefore + 1);
    expect(await datasetsList()).toEqual([expect.stringContaining("Broken set, valid rows"), ...listBefore]);
  });

  it("says an empty file is empty", async () => {
    await chooseFile(page, server.baseUrl, writeFile(files, "empty.jsonl", ""));
    await clickUpload(page, "Empty");
    await errorBox().waitFor();
    expect((await errorBox().innerText()).trim()).toBe("The file is empty.");
    expect(await errorBox().getByRole("button").count()).toBe(0);
    await expectNoCrashText(page);
  });

  it("says a binary file is not text, whatever its extension", async () => {
    await chooseFile(page, server.baseUrl, writeFile(files, "scan.csv", PNG));
    await clickUpload(page, "Binary");
    await errorBox().waitFor();
    expect((await errorBox().innerText()).trim()).toBe(
      "This looks like a binary file, not UTF-8 text. Upload a .csv, .json or .jsonl text file.",
    );
    await expectNoCrashText(page);
  });

  it("refuses an unknown extension before uploading anything", async () => {
    const before = uploadRequests.length;
    const datasets = await db.dataset.count();
    for (const [name, content] of [
      ["results.xlsx", Buffer.from("PK\u0003\u0004 not really a workbook")],
      ["scan.png", PNG],
    ] as const) {
      await chooseFile(page, server.baseUrl, writeFile(files, name, content));
      const ext = name.slice(name.lastIndexOf("."));
      await expect
        .poll(() => uploadPanel().getByRole("alert").allInnerTexts())
        .toEqual([
          `Unsupported file type (${ext}). Upload a .csv, .json (an array of objects), .jsonl or .parquet file.`,
        ]);
      expect(await page.getByRole("button", { name: "Upload", exact: true }).count()).toBe(0);
      await expectNoCrashText(page);
    }
    expect(uploadRequests.length).toBe(before);
    expect(await db.dataset.count()).toBe(datasets);
  });

  it("a 5,000-row file in no format Assay reads fails once, naming its columns, with the ignored-columns warning", async () => {
    const datasets = await db.dataset.count();
    const header = "question_text,model_answer,gold_answer";
    const lines = Array.from({ length: 5000 }, (_, i) => `Question ${i}?,Answer ${i}.,Gold ${i}.`);
    await chooseFile(page, server.baseUrl, writeFile(files, "other-tool.csv", [header, ...lines].join("\n") + "\n"));
    await clickUpload(page, "Other tool");
    await errorBox().waitFor();
    const text = await errorBox().innerText();
    expect(text).toContain(
      "No column gives the request. Found columns: question_text, model_answer, gold_answer. Assay reads: Agent Evaluation's input schema (request, response, …), DeepEval test cases, Ragas samples, MLflow 3 evaluation datasets, Braintrust records, OpenAI evals samples, Langfuse dataset items.",
    );
    // Said once for the file: no list of 5,000 "request is required", no problem count.
    expect(text).not.toContain("request is required");
    expect(text).not.toMatch(/problems? in/);
    expect(await errorBox().locator("li").count()).toBe(0);
    // The server's word on the columns it could not read is shown with the failure, not only on success.
    const warnings = page.locator("[data-testid=upload-warnings] li");
    expect(await warnings.allInnerTexts()).toEqual([
      expect.stringMatching(/^Unknown columns "question_text", "model_answer", "gold_answer" were ignored/),
    ]);
    expect(await warnings.first().isVisible()).toBe(true);
    expect(await errorBox().getByRole("button").count()).toBe(0);
    await expectNoCrashText(page);
    await screenshot(page, "07-upload-no-request-column");
    expect(await db.dataset.count()).toBe(datasets);
  });

  it("raised no page error, server error or dialog along the way", () => {
    expect(problems).toEqual([]);
    expect(server.output()).not.toMatch(/\berror\b/i);
  });
});

describe("upload size limit (ASSAY_MAX_UPLOAD_MB=1)", () => {
  let server: AppServer;
  let db: Db;
  let page: Page;
  // About 1.5 MB of valid rows.
  const big = toJsonl(
    Array.from({ length: 1500 }, (_, i) => ({
      request_id: `big-${i}`,
      request: `Question ${i}`,
      response: "x".repeat(1000),
    })),
  );

  let app: OpenedApp;

  beforeAll(async () => {
    app = await openApp({ env: { ASSAY_MAX_UPLOAD_MB: "1" } });
    ({ server, db, page } = app);
  });

  afterAll(async () => {
    await app?.close();
    fs.rmSync(files, { recursive: true, force: true });
  });

  it("tells the user in the page, before sending", async () => {
    const problems = watchPage(page);
    expect(Buffer.byteLength(big)).toBeGreaterThan(1.4 * 1024 * 1024);
    await chooseFile(page, server.baseUrl, writeFile(files, "big.jsonl", big));
    const uploadPanel = () => page.locator("section[aria-labelledby=upload-heading]");
    expect(await uploadPanel().innerText()).toContain("Up to 1.0 MB.");
    await expect
      .poll(() => uploadPanel().getByRole("alert").allInnerTexts())
      .toEqual(["big.jsonl is 1.5 MB, over the 1.0 MB upload limit."]);
    expect(await page.getByRole("button", { name: "Upload", exact: true }).count()).toBe(0);
    await expectNoCrashText(page);
    expect(problems).toEqual([]);
  });

  it("is enforced by the server too, by declared length and while streaming", async () => {
    const url = `${server.baseUrl}/api/datasets/upload?filename=big.jsonl&name=big`;
    const declared = await fetch(url, { method: "POST", body: big });
    expect(declared.status).toBe(413);
    expect(JSON.parse(await declared.text())).toMatchObject({
      type: "result",
      ok: false,
      fileError: "The file is 1.5 MB, over the 1.0 MB limit.",
    });

    // No content-length (chunked): the limit must still hold as the bytes arrive.
    const bytes = new TextEncoder().encode(big);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 64 * 1024)
          controller.enqueue(bytes.subarray(offset, offset + 64 * 1024));
        controller.close();
      },
    });
    const streamed = await fetch(url, { method: "POST", body, duplex: "half" } as RequestInit);
    const events = (await streamed.text())
      .trim()
      .split("\n")
      .map((line) => uploadEventSchema.parse(JSON.parse(line)));
    expect(events.at(-1)).toMatchObject({
      type: "result",
      ok: false,
      fileError: "The file is larger than the 1.0 MB limit.",
    });
    // Only the two samples a new store loads: neither refused upload left a dataset behind.
    expect(await db.dataset.count()).toBe(2);
  });
});
