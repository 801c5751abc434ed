// Browser tests: uploading a valid evaluation set as CSV, JSON and JSONL, and
// browsing the result (search, sort, row detail, j/k navigation); DeepEval and Braintrust files read with a notice
// (and the Braintrust file's warning on the success panel).
import fs from "node:fs";
import http from "node:http";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db/client";
import { toCsv, toJsonArray, toJsonl } from "../support/evalFiles";
import { DEEPEVAL_CASES, DEEPEVAL_NOTICE } from "../ingest/support/foreignDatasets";
import type { AppServer } from "./appServer";
import {
  chooseFile,
  clickUpload,
  expectNoCrashText,
  requestTextOf,
  screenshot,
  storedRows,
  tableRequestIds,
  tableRowTexts,
  tempDir,
  uploadThroughPage,
  waitForDatasetPage,
  VALID_ROWS,
  waitForEffects,
  waitForHydration,
  writeFile,
  openApp,
  type OpenedApp,
} from "./helpers";

let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];
const files = tempDir();
const uploaded: Record<"csv" | "json" | "jsonl", string> = { csv: "", json: "", jsonl: "" };
const ids = VALID_ROWS.map((row) => String(row.request_id));

let app: OpenedApp;

beforeAll(async () => {
  app = await openApp();
  ({ server, db, page, problems } = app);
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(files, { recursive: true, force: true });
});

describe("uploading a valid CSV through the page", () => {
  it("shows the sample datasets and the upload panel on /datasets", async () => {
    await page.goto(`${server.baseUrl}/datasets`);
    await expect
      .poll(async () => (await page.locator("[data-testid=datasets-table] tbody tr").allInnerTexts()).sort())
      .toEqual([
        expect.stringContaining("Northwind ops agent with tools (sample)"),
        expect.stringContaining("Northwind support assistant (sample)"),
      ]);
    await expect.poll(() => page.getByRole("heading", { name: "Upload an evaluation set" }).isVisible()).toBe(true);
    await screenshot(page, "01-datasets-with-upload-panel");
    await chooseFile(page, server.baseUrl, writeFile(files, "preview.csv", toCsv(VALID_ROWS)));
    await expect.poll(() => page.getByLabel("Dataset name").inputValue()).toBe("preview");
    await screenshot(page, "02-datasets-file-chosen");
  });

  it("imports the CSV and opens the dataset page with every row", async () => {
    const id = await uploadThroughPage(
      page,
      server.baseUrl,
      writeFile(files, "support-set.csv", toCsv(VALID_ROWS)),
      "Support set (CSV)",
    );
    uploaded.csv = id;
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Support set (CSV)");
    expect(await page.locator("[data-testid=row-count]").innerText()).toBe("12 rows");
    expect(await page.locator("body").innerText()).toContain("from support-set.csv");
    expect(await tableRequestIds(page)).toEqual(ids);
    const texts = await tableRowTexts(page);
    VALID_ROWS.forEach((row, i) => {
      expect(texts[i]).toContain(requestTextOf(row));
      expect(texts[i]).toContain(String(row.response));
    });
    // Every row has a request, a response, ground truth and chunks; six of twelve have expected_facts.
    const coverage = await page.locator("[data-testid=input-coverage]").innerText();
    expect(coverage).toMatch(/request\s+12 \/ 12/);
    expect(coverage).toMatch(/expected_facts\s+6 \/ 12/);
    expect(coverage).toMatch(/expected_response\s+6 \/ 12/);
    expect(coverage).toMatch(/trace\s+0 \/ 12/);
    expect(await page.locator("[data-testid=metric-availability] tr").count()).toBeGreaterThan(0);
    expect(await page.locator("[data-testid=metric-availability]").innerText()).toContain("12 / 12 rows");
    await expectNoCrashText(page);
    await screenshot(page, "03-dataset-page-1280");
    await page.setViewportSize({ width: 768, height: 900 });
    await screenshot(page, "04-dataset-page-768");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("narrows the rows with a search, kept in the URL", async () => {
    expect(uploaded.csv, "needs the CSV dataset from the test above").not.toBe("");
    const term = "bucket";
    const expected = VALID_ROWS.filter((row) =>
      [requestTextOf(row), row.response, row.request_id, row.expected_response].some(
        (field) => typeof field === "string" && field.toLowerCase().includes(term),
      ),
    ).map((row) => String(row.request_id));
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.length).toBeLessThan(ids.length);

    await page.getByRole("searchbox").fill(term);
    await page.getByRole("searchbox").press("Enter");
    await page.waitForURL((url) => url.searchParams.get("q") === term);
    await expect.poll(() => tableRequestIds(page)).toEqual(expected);
    expect(await page.locator("body").innerText()).toContain(`1–${expected.length} of ${expected.length}`);

    await page.getByRole("searchbox").fill("no-such-words-anywhere");
    await page.getByRole("searchbox").press("Enter");
    await expect.poll(() => tableRowTexts(page)).toEqual(["No row matches “no-such-words-anywhere”."]);
  });

  it("sorts by a header click, in the URL, both ways", async () => {
    expect(uploaded.csv, "needs the CSV dataset from the test above").not.toBe("");
    await page.goto(`${server.baseUrl}/datasets/${uploaded.csv}`);
    await waitForHydration(page, "[data-testid=rows-table] thead button");
    const byText = [...VALID_ROWS]
      .sort((a, b) => (requestTextOf(a) < requestTextOf(b) ? -1 : 1))
      .map((row) => String(row.request_id));
    expect(byText).not.toEqual(ids);
    const header = page.locator("[data-testid=rows-table] thead").getByRole("button", { name: "Request", exact: true });

    await header.click();
    await page.waitForURL((url) => url.searchParams.get("sort") === "requestText");
    const first = new URL(page.url()).searchParams.get("dir");
    expect(["asc", "desc"]).toContain(first);
    await expect.poll(() => tableRequestIds(page)).toEqual(first === "asc" ? byText : [...byText].reverse());
    expect(await page.locator("th[aria-sort]").innerText()).toContain("Request");

    await header.click();
    const second = first === "asc" ? "desc" : "asc";
    await page.waitForURL(
      (url) => url.searchParams.get("sort") === "requestText" && url.searchParams.get("dir") === second,
    );
    await expect.poll(() => tableRequestIds(page)).toEqual(second === "asc" ? byText : [...byText].reverse());
    expect(await page.locator(`th[aria-sort=${second === "asc" ? "ascending" : "descending"}]`).count()).toBe(1);
  });

  it("opens a chat row with its transcript and chunks, and moves with j / k", async () => {
    expect(uploaded.csv, "needs the CSV dataset from the test above").not.toBe("");
    await page.goto(`${server.baseUrl}/datasets/${uploaded.csv}`);
    await page.getByRole("link", { name: "q-05", exact: true }).click();
    await page.waitForURL(/\/rows\//);
    await page.locator("[data-testid=chat-transcript]").waitFor();
    const row = VALID_ROWS[4];
    const messages = (row.request as { messages: { role: string; content: string }[] }).messages;
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toMatch(/^Row 5\s+q-05$/);

    const turns = page.locator("[data-testid=chat-transcript] > li");
    expect(await turns.count()).toBe(messages.length);
    for (const [i, message] of messages.entries()) {
      const text = await turns.nth(i).innerText();
      expect(text.toLowerCase()).toContain(message.role);
      expect(text).toContain(message.content);
    }
    expect(await turns.last().innerText()).toContain("evaluated turn");
    expect(await page.locator("[data-testid=response]").innerText()).toContain(String(row.response));

    const expectedChunks = row.retrieved_context as { content: string; doc_uri: string }[];
    const chunks = page.locator("[data-testid=retrieved-context] [data-testid=chunk]");
    expect(await chunks.count()).toBe(expectedChunks.length);
    for (const [i, chunk] of expectedChunks.entries()) {
      const text = await chunks.nth(i).innerText();
      expect(text).toContain(`#${i + 1}`);
      expect(text).toContain(chunk.doc_uri);
      expect(text).toContain(chunk.content);
    }
    await expectNoCrashText(page);
    await screenshot(page, "05-row-page");

    await waitForHydration(page, "nav[aria-label='Row navigation'] a");
    await page.keyboard.press("j");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toMatch(/^Row 6\s+q-06$/);
    await waitForEffects(page);
    await page.keyboard.press("k");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toMatch(/^Row 5\s+q-05$/);
    await waitForEffects(page);
    await page.keyboard.press("k");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toMatch(/^Row 4\s+q-04$/);
  });
});

describe("the same rows as JSON and JSONL", () => {
  it("store and show exactly what the CSV did", async () => {
    expect(uploaded.csv, "needs the CSV dataset from the first describe").not.toBe("");
    uploaded.json = await uploadThroughPage(
      page,
      server.baseUrl,
      writeFile(files, "support-set.json", toJsonArray(VALID_ROWS)),
      "Support set (JSON)",
    );
    const jsonTable = await tableRowTexts(page);
    uploaded.jsonl = await uploadThroughPage(
      page,
      server.baseUrl,
      writeFile(files, "support-set.jsonl", toJsonl(VALID_ROWS)),
      "Support set (JSONL)",
    );
    const jsonlTable = await tableRowTexts(page);
    await page.goto(`${server.baseUrl}/datasets/${uploaded.csv}`);
    const csvTable = await tableRowTexts(page);

    expect(csvTable).toHaveLength(12);
    expect(jsonTable).toEqual(csvTable);
    expect(jsonlTable).toEqual(csvTable);

    const [csv, json, jsonl] = await Promise.all(
      [uploaded.csv, uploaded.json, uploaded.jsonl].map((id) => storedRows(db, id)),
    );
    expect(csv).toHaveLength(12);
    expect(json).toEqual(csv);
    expect(jsonl).toEqual(csv);
    expect(csv.map((row) => row.requestId)).toEqual(ids);
    expect(csv[1].messages).toEqual((VALID_ROWS[1].request as { messages: unknown[] }).messages);
    expect(csv[0].expectedFacts).toEqual(VALID_ROWS[0].expected_facts);
    expect(csv[2].chunks.map((chunk) => chunk.docUri)).toEqual(
      (VALID_ROWS[2].retrieved_context as { doc_uri: string }[]).map((c) => c.doc_uri),
    );

    const formats = await db.dataset.findMany({
      where: { id: { in: Object.values(uploaded) } },
      select: { sourceFormat: true, rowCount: true, status: true },
    });
    expect(formats.map((d) => d.sourceFormat).sort()).toEqual(["csv", "json", "jsonl"]);
    expect(formats.every((d) => d.rowCount === 12 && d.status === "ready")).toBe(true);
  });

  it("raised no page error, server error or dialog along the way", () => {
    expect(problems).toEqual([]);
    expect(server.output()).not.toMatch(/\berror\b/i);
  });
});

describe("a DeepEval JSON file", () => {
  it("is read as DeepEval test cases: the panel says how, and links to the stored rows", async () => {
    await chooseFile(page, server.baseUrl, writeFile(files, "deepeval.json", toJsonArray(DEEPEVAL_CASES)));
    await clickUpload(page, "DeepEval goldens");
    const notice = page.locator("[data-testid=upload-notice]");
    await notice.waitFor();
    expect(await notice.innerText()).toBe(DEEPEVAL_NOTICE);
    expect(await page.locator("[data-testid=upload-imported]").innerText()).toBe("Imported 2 rows.");
    // The panel stays on /datasets so the notice is read; the new dataset is listed already.
    expect(new URL(page.url()).pathname).toBe("/datasets");
    await expect.poll(() => page.locator("[data-testid=datasets-table]").innerText()).toContain("DeepEval goldens");
    await screenshot(page, "06-upload-deepeval-notice");

    await page.getByRole("link", { name: "Open the dataset" }).click();
    const datasetId = await waitForDatasetPage(page);
    expect(await tableRequestIds(page)).toEqual(["versioning", "presign"]);
    const [first] = await storedRows(db, datasetId);
    expect(first.requestText).toBe(DEEPEVAL_CASES[0].input);
    expect(first.chunks.filter((chunk) => chunk.kind === "retrieved").map((chunk) => chunk.content)).toEqual(
      DEEPEVAL_CASES[0].retrieval_context,
    );
    // The dataset page keeps the notice, first among its notes.
    expect(await page.locator("body").innerText()).toContain(DEEPEVAL_NOTICE);
    expect(problems).toEqual([]);
  });
});

describe("a Braintrust JSONL file", () => {
  it("keeps its responses and expected answers, and the panel shows the notice and the metadata warning", async () => {
    const records = Array.from({ length: 5 }, (_, i) => ({
      input: `Braintrust question ${i + 1}?`,
      output: `Braintrust answer ${i + 1}.`,
      expected: `Braintrust expected ${i + 1}.`,
      metadata: { source: "prod" },
    }));
    await chooseFile(page, server.baseUrl, writeFile(files, "braintrust.jsonl", toJsonl(records)));
    await clickUpload(page, "Braintrust records");
    const notice = page.locator("[data-testid=upload-notice]");
    await notice.waitFor();
    expect(await notice.innerText()).toBe(
      "Read as Braintrust records: input → request, output → response, expected → expected_response (or expected_facts when it is a list); the format's other columns are read where a record has them.",
    );
    // The success panel shows the warning too: metadata was not read, and says so instead of dropping it silently.
    const warnings = page.locator("[data-testid=upload-warnings] li");
    expect(await warnings.allInnerTexts()).toEqual([expect.stringMatching(/^Unknown column "metadata" was ignored/)]);
    expect(await warnings.first().isVisible()).toBe(true);
    expect(await page.locator("[data-testid=upload-imported]").innerText()).toBe("Imported 5 rows.");
    expect(new URL(page.url()).pathname).toBe("/datasets");
    await screenshot(page, "07-upload-braintrust-notice-and-warning");

    await page.getByRole("link", { name: "Open the dataset" }).click();
    const datasetId = await waitForDatasetPage(page);
    const stored = await storedRows(db, datasetId);
    expect(stored.map((row) => [row.requestText, row.response, row.expectedResponse])).toEqual(
      records.map((record) => [record.input, record.output, record.expected]),
    );
    expect(problems).toEqual([]);
  });
});

describe("a file in the schema's own columns with a misspelt one", () => {
  it("stays on the success panel with the warning, instead of moving on before it is read", async () => {
    const rows = VALID_ROWS.slice(0, 3).map(({ expected_response, ...row }) => ({
      ...row,
      expected_respone: expected_response,
    }));
    await chooseFile(page, server.baseUrl, writeFile(files, "misspelt.jsonl", toJsonl(rows)));
    await clickUpload(page, "Misspelt column");
    const warnings = page.locator("[data-testid=upload-warnings] li");
    await warnings.first().waitFor();
    expect(await warnings.allInnerTexts()).toEqual([
      expect.stringMatching(/^Unknown column "expected_respone" was ignored/),
    ]);
    expect(await page.locator("[data-testid=upload-notice]").count()).toBe(0);
    expect(await page.locator("[data-testid=upload-imported]").innerText()).toBe("Imported 3 rows.");
    // Still on the panel a moment later: the warning is not replaced by the dataset page.
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe("/datasets");
    await screenshot(page, "08-upload-warning-on-success");
    await page.getByRole("link", { name: "Open the dataset" }).click();
    await waitForDatasetPage(page);
    expect(problems).toEqual([]);
  });
});

describe("an upload that has to wait for a free slot (ASSAY_MAX_CONCURRENT_UPLOADS=1)", () => {
  let queuedApp: OpenedApp;
  beforeAll(async () => {
    queuedApp = await openApp({ env: { ASSAY_MAX_CONCURRENT_UPLOADS: "1" } });
  });
  afterAll(async () => queuedApp?.close());

  it("shows the queued line with a waiting bar until the held upload ends, then imports", async () => {
    const { server: queuedServer, page: queuedPage, db: queuedDb } = queuedApp;
    // Another client's upload takes the only slot and holds it: half a line sent, the body left open.
    const held = http.request(new URL("/api/datasets/upload?filename=held.jsonl", queuedServer.baseUrl), {
      method: "POST",
    });
    const heldReply = new Promise<string>((resolve, reject) => {
      held.on("response", (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve(text));
      });
      held.on("error", reject);
    });
    held.write('{"request": "held question", "response": "held answer"}\n{"req');
    // Until it holds the slot: its dataset exists, importing (a fixed pause raced a busy machine).
    await vi.waitFor(async () => expect(await queuedDb.dataset.count({ where: { status: "importing" } })).toBe(1), {
      timeout: 30_000,
    });

    await chooseFile(queuedPage, queuedServer.baseUrl, writeFile(files, "waiting.jsonl", toJsonl(VALID_ROWS)));
    await clickUpload(queuedPage, "Waiting set");
    const queued = queuedPage.locator("[data-testid=upload-queued]");
    await queued.waitFor();
    expect(await queued.innerText()).toContain("Queued: 1 upload is in progress. Yours starts when one finishes.");
    expect(await queued.getByRole("progressbar", { name: "Upload progress (queued)" }).count()).toBe(1);
    await screenshot(queuedPage, "03-upload-queued");

    // The held upload finishes; the waiting one runs and opens its dataset.
    held.end('uest": "second held question", "response": "another answer"}\n');
    expect(await heldReply).toContain('"ok":true');
    const datasetId = await waitForDatasetPage(queuedPage);
    expect(await queuedPage.getByRole("heading", { level: 1 }).innerText()).toBe("Waiting set");
    expect(await queuedDb.datasetRow.count({ where: { datasetId } })).toBe(VALID_ROWS.length);
    expect(queuedApp.problems).toEqual([]);
  });
});
