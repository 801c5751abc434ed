// Shared pieces of the browser tests: files to upload, driving the upload
// panel, reading the rows table, the stored rows, and screenshots.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { closeDb, createDb, type Db } from "@/lib/db/client";
import { launchChromium } from "../support/chromium";
import { auditEveryNavigation, expectAccessible } from "./accessibility";
import type { EvalObject } from "../support/evalFiles";
import { ROOT, startAppServer, type AppServer, type AppServerOptions } from "./appServer";

/** The support assistant sample every new store loads (prepare-db), beside the agent sample: tests pick it by name. */
export const SUPPORT_SAMPLE = "Northwind support assistant (sample)";
/** The agent-with-tools sample a new store loads too. */
export const AGENT_SAMPLE = "Northwind ops agent with tools (sample)";

export const SCREENSHOT_DIR = path.join(ROOT, "test-results", "screenshots");

/** Text that only shows up when an error or a stack trace leaks onto the page. */
const CRASH_TEXT = [
  /at Object\./,
  /at async /,
  /\.tsx?:\d/,
  /\.m?js:\d+:\d+/,
  /Internal Server Error/i,
  /Application error/i,
  /Unhandled Runtime Error/i,
  /This page couldn.t load/i,
  /\bTypeError\b/,
  /\bReferenceError\b/,
  /PrismaClient\w*Error/,
];

/** Twelve valid rows mixing all three request formats, both kinds of ground truth, and 1–3 chunks each. */
const TOPICS: [text: string, response: string, doc: string][] = [
  [
    "Why does my upload to a bucket fail with 403?",
    "The access key lacks storage.write on that bucket.",
    "iam/permissions",
  ],
  ["Does versioning cost extra?", "Each stored version is billed like a normal object.", "storage/versioning"],
  ["How long are deleted objects kept?", "Soft-deleted objects stay recoverable for 7 days.", "storage/soft-delete"],
  [
    "Which regions support object lock?",
    "Object lock works in every region except ap-southeast-1.",
    "storage/object-lock",
  ],
  ["Can I rename a bucket after creating it?", "No. Create a new bucket and copy the objects.", "storage/buckets"],
  ["How do I rotate an access key?", "Create a second key, switch clients to it, then delete the first.", "iam/keys"],
  ["What is the maximum object size?", "5 TB, uploaded in parts of up to 5 GB.", "storage/limits"],
  ["Is egress to the CDN free?", "Yes, traffic from storage to the Northwind CDN is not billed.", "billing/egress"],
  [
    "Explain lifecycle rules for old versions",
    "A rule can expire noncurrent versions after N days.",
    "storage/lifecycle",
  ],
  ["Generate a presigned URL, please", "Run nwcli storage presign nw://bucket/key --expires 1h.", "cli/presign"],
  ["Lock a bucket against deletes?", "Enable object lock in compliance mode on the bucket.", "storage/object-lock"],
  [
    "Transfer a bucket to another project",
    "Buckets cannot move; replicate into a bucket in the other project.",
    "storage/replication",
  ],
];

export const VALID_ROWS: EvalObject[] = TOPICS.map(([text, response, doc], i) => {
  const n = i + 1;
  const request =
    i % 3 === 0
      ? text
      : i % 3 === 1
        ? {
            messages: [
              { role: "system", content: "You are the Northwind support assistant." },
              { role: "user", content: "Hi, I have a storage question." },
              { role: "assistant", content: "Sure, go ahead." },
              { role: "user", content: text },
            ],
          }
        : {
            query: text,
            history: [
              { role: "user", content: "I use eu-west-1." },
              { role: "assistant", content: "Noted: eu-west-1." },
            ],
          };
  const truth =
    i % 2 === 0 ? { expected_facts: [response, `see docs://northwind/${doc}.md`] } : { expected_response: response };
  const chunks = [
    { content: `From the ${doc} page: ${response}`, doc_uri: `docs://northwind/${doc}.md` },
    {
      content: "Northwind Cloud Storage keeps objects in buckets, per region.",
      doc_uri: `docs://northwind/overview.md#part-${n}`,
    },
    { content: 'Quotas, "limits", and pricing, per project.', doc_uri: "docs://northwind/quotas.md" },
  ].slice(0, 1 + (i % 3));
  return { request_id: `q-${String(n).padStart(2, "0")}`, request, response, ...truth, retrieved_context: chunks };
});

/** The text the app shows and searches for a request: the string, the last user message, or the query. */
export function requestTextOf(row: EvalObject): string {
  const request = row.request as string | { messages?: { role: string; content: string }[]; query?: string };
  if (typeof request === "string") return request;
  if (request.messages) return request.messages.filter((m) => m.role === "user").at(-1)!.content;
  return request.query!;
}

export function tempDir(prefix = "assay-e2e-files-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function writeFile(dir: string, name: string, content: string | Uint8Array): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

/** Records what must never happen on a page: uncaught exceptions, server errors, dialogs. */
export function watchPage(page: Page) {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("response", (response) => {
    if (response.status() >= 500) problems.push(`HTTP ${response.status()} ${response.url()}`);
  });
  page.on("dialog", (dialog) => {
    problems.push(`dialog (${dialog.type()}): ${dialog.message()}`);
    void dialog.dismiss();
  });
  return problems;
}

/** Waits until React has hydrated an element (its props are attached), so events on it reach the app. */
export async function waitForHydration(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((sel) => {
    const element = document.querySelector(sel);
    return !!element && Object.keys(element).some((key) => key.startsWith("__reactProps"));
  }, selector);
}

/**
 * After a client-side navigation shows its new content, waits for a frame and a
 * task so React has also run the new page's effects (its key listeners): a key
 * pressed in between would still act on the previous page's targets.
 */
export async function waitForEffects(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

/** Opens /datasets and picks a file in the upload panel, through the hidden file input. */
export async function chooseFile(page: Page, baseUrl: string, file: string): Promise<void> {
  await page.goto(`${baseUrl}/datasets`);
  await waitForHydration(page, "[data-testid=upload-input]");
  await page.locator("[data-testid=upload-input]").setInputFiles(file);
}

export async function clickUpload(page: Page, name?: string): Promise<void> {
  if (name !== undefined) await page.getByLabel("Dataset name").fill(name);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
}

/** Uploads a file through the page and waits for the new dataset's page; returns its id. */
export async function uploadThroughPage(page: Page, baseUrl: string, file: string, name: string): Promise<string> {
  await chooseFile(page, baseUrl, file);
  await clickUpload(page, name);
  return waitForDatasetPage(page);
}

/** After an upload click: the new dataset's page (returns its id), or a clear failure with what the panel says. */
export async function waitForDatasetPage(page: Page, timeoutMs = 25_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const errors = page.locator("[data-testid=upload-errors]");
  while (!/^\/datasets\/[^/]+$/.test(new URL(page.url()).pathname)) {
    if (await errors.isVisible())
      throw new Error(`the upload failed in the page: ${(await errors.innerText()).trim()}`);
    if (Date.now() > deadline)
      throw new Error(
        `no dataset page ${timeoutMs / 1000} s after the upload click, and no error shown (at ${page.url()})`,
      );
    await page.waitForTimeout(100);
  }
  await page.locator("[data-testid=rows-table]").waitFor();
  return new URL(page.url()).pathname.split("/").at(-1)!;
}

/** The request_id column of the rows table, top to bottom. */
export async function tableRequestIds(page: Page): Promise<string[]> {
  return page.locator("[data-testid=rows-table] tbody tr td:nth-child(2)").allInnerTexts();
}

/** Every body row of the rows table as its visible text. */
export async function tableRowTexts(page: Page): Promise<string[]> {
  return page.locator("[data-testid=rows-table] tbody tr").allInnerTexts();
}

export async function expectNoCrashText(page: Page): Promise<void> {
  const text = await page.locator("body").innerText();
  for (const pattern of CRASH_TEXT) expect(text, `page ${page.url()} shows error text ${pattern}`).not.toMatch(pattern);
}

/**
 * Whether the screenshots are written: for the person looking at the pages, so not in CI (CI=true), where nobody
 * opens them and the 120-odd full-page PNGs cost about two minutes of the 2-core machine's time.
 * ASSAY_E2E_SCREENSHOTS=1 writes them anyway, =0 never.
 */
function screenshotsWanted(): boolean {
  const asked = process.env.ASSAY_E2E_SCREENSHOTS;
  return asked === undefined || asked === "" ? process.env.CI !== "true" : asked === "1";
}

/** A full-page screenshot into test-results/screenshots, and an accessibility audit of the page in that state. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (screenshotsWanted()) {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    // From the top: a full-page capture scrolled part-way paints the sticky navigation bar over the middle of the page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  }
  // The states worth a screenshot (a dialog open, a run re-judging) are audited too, not only page loads.
  await expectAccessible(page);
}

/** What the reviewer sees, as it is (the viewport, or one element), without an audit; written as screenshot() is. */
export async function viewportScreenshot(target: Page | Locator, name: string): Promise<void> {
  if (!screenshotsWanted()) return;
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await target.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/** A dataset's rows as stored, without ids, ordered by row number: what must not depend on the file format. */
export async function storedRows(db: Db, datasetId: string) {
  const rows = await db.datasetRow.findMany({
    where: { datasetId },
    orderBy: { rowNumber: "asc" },
    include: { chunks: { orderBy: [{ kind: "asc" }, { position: "asc" }] } },
  });
  return rows.map(({ id: _id, datasetId: _datasetId, chunks, ...row }) => ({
    ...row,
    messages: JSON.parse(row.messages) as unknown,
    expectedFacts: row.expectedFacts === null ? null : (JSON.parse(row.expectedFacts) as unknown),
    chunks: chunks.map(({ id: _chunkId, rowId: _rowId, ...chunk }) => chunk),
  }));
}

export type OpenedApp = {
  server: AppServer;
  browser: { context: BrowserContext; close: () => Promise<void> };
  db: Db;
  page: Page;
  /** What must never happen on the page (see watchPage). */
  problems: string[];
  close: () => Promise<void>;
};

/**
 * The built app on a fresh database, Chromium, a database client on the same
 * file, and one watched page. If any step fails, what was already started is
 * stopped before the error reaches the test file (whose afterAll has nothing to
 * close then). The browser starts first: it is the quickest to fail.
 */
export async function openApp(options: AppServerOptions = {}): Promise<OpenedApp> {
  const started: (() => Promise<void>)[] = [];
  const closeStarted = async () => {
    const errors: unknown[] = [];
    for (const close of started.splice(0).reverse()) await close().catch((error: unknown) => errors.push(error));
    if (errors.length > 0) throw errors[0];
  };
  try {
    const browser = await launchChromium();
    started.push(browser.close);
    const server = await startAppServer(options);
    started.push(server.stop);
    const db = createDb(server.databaseUrl);
    started.push(() => closeDb(db));
    // Every page of the context, including ones a test opens itself, is audited by axe after each navigation.
    browser.context.on("page", auditEveryNavigation);
    const page = await browser.context.newPage();
    auditEveryNavigation(page);
    return { server, browser, db, page, problems: watchPage(page), close: closeStarted };
  } catch (error) {
    await closeStarted().catch(() => {});
    throw error;
  }
}
