// The whole path a reviewer takes, in Chromium on the built app: upload the
// sample dataset, start a run on the offline heuristic judge and watch its
// progress bar move, read the run page, filter to correctness failures, open a
// failed row and read its rationale, start a second run (an LLM judge, here
// the fake OpenAI server on 127.0.0.1), compare the two, and open a flipped row.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeScoreResponder } from "../support/fakeScoreResponder";
import { ROOT, type AppServer } from "./appServer";
import {
  chooseFile,
  clickUpload,
  expectNoCrashText,
  screenshot,
  tempDir,
  waitForDatasetPage,
  waitForHydration,
  writeFile,
} from "./helpers";
import { openAppWithFakeLlm, type FakeLlmApp } from "./fakeLlmApp";

/**
 * The sample dataset, twenty times over with distinct request ids: the offline
 * judge finishes 50 rows in well under the progress bar's one-second poll, so a
 * run long enough to watch needs more rows (1,000 rows took about 15 s here).
 */
const COPIES = 20;

let app: FakeLlmApp;
let server: AppServer;
let page: Page;
let problems: string[];
const files = tempDir();

beforeAll(async () => {
  app = await openAppWithFakeLlm({ responder: fakeScoreResponder, latencyMs: 5 });
  ({ server, page, problems } = app);
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(files, { recursive: true, force: true });
});

async function startRunFromDataset(datasetUrl: string, options: { heuristic: boolean; name: string }): Promise<string> {
  await page.goto(datasetUrl);
  await page.getByRole("link", { name: "New run" }).click();
  await page.waitForURL(/\/runs\/new$/);
  await waitForHydration(page, "[data-testid=run-form] button[type=submit]");
  if (options.heuristic) await page.getByLabel("Offline heuristic judge").check();
  await page.getByPlaceholder("gpt-4.1 + reranker v2").fill(options.name);
  await page.getByRole("button", { name: "Start run" }).click();
  await page.waitForURL((url) => /^\/runs\/[^/]+$/.test(url.pathname));
  return page.url();
}

describe("the reviewer's path", () => {
  let datasetUrl = "";
  let firstRunUrl = "";

  it("uploads the sample dataset", async () => {
    const lines = fs.readFileSync(path.join(ROOT, "prisma/sample/sample-eval-set.jsonl"), "utf8").trim().split("\n");
    const copies = Array.from({ length: COPIES }, (_, copy) =>
      lines.map((line, i) => JSON.stringify({ ...JSON.parse(line), request_id: `copy${copy}-${i + 1}` })),
    ).flat();
    await chooseFile(page, server.baseUrl, writeFile(files, "northwind-x20.jsonl", copies.join("\n")));
    await clickUpload(page, "Northwind ×20");
    await waitForDatasetPage(page);
    datasetUrl = page.url();
    expect(await page.locator("[data-testid=row-count]").innerText()).toBe(
      `${(50 * COPIES).toLocaleString("en-US")} rows`,
    );
  });

  it("starts a run on the heuristic judge and shows its progress bar moving to completion", async () => {
    firstRunUrl = await startRunFromDataset(datasetUrl, { heuristic: true, name: "Heuristic judge" });
    const bar = page.locator("[data-testid=run-progress] [role=progressbar]");
    const seen = new Set<number>();
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      seen.add(Number(await bar.getAttribute("aria-valuenow")));
      if ((await page.locator("[data-testid=run-status]").innerText()) === "completed") break;
      if (seen.size === 2) await screenshot(page, "20-run-in-progress");
      await page.waitForTimeout(150);
    }
    seen.add(Number(await bar.getAttribute("aria-valuenow")));
    expect(await page.locator("[data-testid=run-status]").innerText()).toBe("completed");
    const values = [...seen].sort((a, b) => a - b);
    expect(values.at(-1)).toBe(100);
    expect(
      values.filter((v) => v > 0 && v < 100).length,
      `progress values seen: ${values.join(", ")}`,
    ).toBeGreaterThanOrEqual(1);
    await page.waitForLoadState("networkidle");
    await screenshot(page, "21-run-page");
  }, 120_000);

  it("filters to correctness failures and opens a failed row with its rationale", async () => {
    await page.locator('a[data-metric="response/llm_judged/correctness"]').click();
    await page.waitForURL((url) => url.searchParams.get("metric") === "response/llm_judged/correctness");
    await page.locator("[data-testid=run-rows-table] tbody tr").first().waitFor();
    await screenshot(page, "22-correctness-failures");
    await waitForHydration(page, "[data-testid=run-rows-table] tbody tr");
    await page.locator("[data-testid=run-rows-table] tbody tr").first().click();
    await page.waitForURL((url) => url.pathname.includes("/rows/"));
    const correctness = page.locator('[data-testid=judgment][data-metric="response/llm_judged/correctness"]');
    await correctness.waitFor();
    expect(await correctness.innerText()).toMatch(/^no\b/m);
    expect((await correctness.locator("[data-testid=rationale]").innerText()).length).toBeGreaterThan(20);
    await screenshot(page, "23-failed-row");
  });

  it("starts a second run on the LLM judge and compares the two runs", async () => {
    const secondRunUrl = await startRunFromDataset(datasetUrl, { heuristic: false, name: "LLM judge" });
    await page.locator("[data-testid=run-status]", { hasText: "completed" }).waitFor({ timeout: 120_000 });
    expect(await page.getByText("openai · fake-judge").count()).toBeGreaterThan(0);
    const [first, second] = [firstRunUrl, secondRunUrl].map((url) => url.split("/").at(-1)!);
    await page.goto(`${server.baseUrl}/compare`);
    await page.getByLabel("Compare Heuristic judge").check();
    await page.getByLabel("Compare LLM judge").check();
    await page.getByLabel("Baseline Heuristic judge").check();
    await page.getByRole("button", { name: "Compare" }).click();
    await page.waitForURL(
      (url) => url.searchParams.getAll("runs").length === 2 || (url.searchParams.get("runs") ?? "").includes(","),
    );
    const url = new URL(page.url());
    expect(
      url.searchParams
        .getAll("runs")
        .flatMap((r) => r.split(","))
        .sort(),
    ).toEqual([first, second].sort());
    const table = await page.locator("[data-testid=metric-comparison]").innerText();
    expect(table).toContain("response/llm_judged/correctness/rating/percentage");
    expect(table).toMatch(/real improvement|real regression|likely noise/);
    await screenshot(page, "24-compare");
  }, 150_000);

  it("opens a flipped row with both runs side by side", async () => {
    const flips = page.locator("[data-testid=flip-list] tbody tr a");
    expect(await flips.count()).toBeGreaterThan(0);
    await flips.first().click();
    await page.waitForURL((url) => url.pathname === "/compare/row");
    const sides = await page.locator("[data-testid=side-by-side]").innerText();
    expect(sides).toMatch(/baseline/i);
    expect(sides).toMatch(/candidate/i);
    // No pairwise judgment of these runs yet: the page says where to start one, and still takes a reviewer's verdict.
    expect(await page.getByTestId("pair-verdicts").innerText()).toContain("No pairwise judgment of these two runs yet");
    // The responses come first; each run's judgments (with their judges) follow below them.
    const judgments = await page.locator("[data-testid=side-by-side-judgments]").innerText();
    expect(judgments).toContain("Heuristic judge");
    expect(judgments).toContain("LLM judge");
    await expectNoCrashText(page);
    await screenshot(page, "25-flipped-row");
    expect(problems).toEqual([]);
  });
});
