// Browser tests: starting a run from a dataset on the offline heuristic judge,
// watching it complete, reading the metric cards named as in Agent Evaluation, exporting, and the
// server picking up a run it did not start itself (the resume path).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createRun } from "@/lib/engine/createRun";
import { BUILT_IN_METRICS } from "@/lib/engine/runConfig";
import type { AppServer } from "./appServer";
import { expectNoCrashText, screenshot, waitForHydration, openApp, type OpenedApp, SUPPORT_SAMPLE } from "./helpers";

let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];

let app: OpenedApp;

beforeAll(async () => {
  app = await openApp();
  ({ server, db, page, problems } = app);
});

afterAll(async () => app?.close());

describe("a run on the offline heuristic judge, from the browser", () => {
  let runUrl = "";

  it("shows on the run form how many rows each judge will run on", async () => {
    const dataset = await db.dataset.findFirstOrThrow({ where: { name: SUPPORT_SAMPLE } });
    await page.goto(`${server.baseUrl}/datasets/${dataset.id}`);
    await page.getByRole("link", { name: "New run" }).click();
    await page.waitForURL(/\/runs\/new$/);
    await waitForHydration(page, "[data-testid=run-form] button[type=submit]");
    const correctness = page.locator("tr", { has: page.getByText("response/llm_judged/correctness", { exact: true }) });
    await expect.poll(() => correctness.innerText()).toContain("40 / 50 rows");
    await expect.poll(() => correctness.innerText()).toContain("needs expected_response or expected_facts");
    await expect.poll(() => page.getByLabel("Offline heuristic judge").isChecked()).toBe(true);
  });

  it("starts the run with a custom judge and shows it complete, labelled as heuristic", async () => {
    await page.getByRole("button", { name: "+ Add a custom judge" }).click();
    await page.getByPlaceholder("cites_sources").fill("mentions_cli");
    await page
      .getByPlaceholder("The response cites the documentation page it relies on.")
      .fill("The response must mention the nwcli command line tool.");
    await page.getByPlaceholder("gpt-4.1 + reranker v2").fill("Browser heuristic run");
    await page.getByRole("button", { name: "Start run" }).click();
    await page.waitForURL((url) => /^\/runs\/[^/]+$/.test(url.pathname));
    runUrl = page.url();
    await page.locator("[data-testid=run-status]", { hasText: "completed" }).waitFor({ timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    await expect.poll(() => page.locator("h1").innerText()).toContain("Browser heuristic run");
    expect(await page.getByText("Offline heuristic judge · heuristic-v1").count()).toBeGreaterThan(0);
    const cards = await page.locator("[data-testid=metric-cards]").innerText();
    for (const name of [
      "response/llm_judged/correctness/rating/percentage",
      "response/llm_judged/safety/rating/average",
      "retrieval/llm_judged/chunk_relevance/precision/average",
      "retrieval/ground_truth/document_recall/average",
      "agent/latency_seconds/average",
      "response/llm_judged/mentions_cli/rating/percentage",
    ]) {
      expect(cards).toContain(name);
    }
    const runId = runUrl.split("/").at(-1)!;
    const correct = await db.judgmentItem.count({
      where: { runId, metric: "response/llm_judged/correctness", rating: "yes" },
    });
    const judged = await db.judgmentItem.count({
      where: { runId, metric: "response/llm_judged/correctness", status: "done" },
    });
    const cardLink = page.locator('a[data-metric="response/llm_judged/correctness"]');
    // The cards re-render through router.refresh() after the status flips to completed; networkidle
    // above may already have been reached before that refresh started, so wait for it here.
    await expect
      .poll(() => cardLink.innerText(), { timeout: 15_000 })
      .toContain(`${Math.round((correct / judged) * 100)}% yes`);
    const card = await cardLink.innerText();
    expect(card).toContain(`${correct} of ${judged} judged rows`);
    await expectNoCrashText(page);
    await screenshot(page, "08-run-page");
  });

  it("opens a metric's failures from its card, then a failed row with the judge's rationale", async () => {
    await page.locator('a[data-metric="response/llm_judged/correctness"]').click();
    await page.waitForURL(
      (url) =>
        url.searchParams.get("filter") === "failed" &&
        url.searchParams.get("metric") === "response/llm_judged/correctness",
    );
    const runId = runUrl.split("/").at(-1)!;
    const failed = await db.judgmentItem.count({
      where: { runId, metric: "response/llm_judged/correctness", passed: false },
    });
    const table = page.locator("[data-testid=run-rows-table] tbody tr");
    await expect.poll(() => table.count()).toBe(failed);
    const chips = await page.locator("[data-testid=run-rows-table] tbody tr td:nth-child(5)").allInnerTexts();
    expect(chips.every((chip) => chip.trim() === "no")).toBe(true);
    await waitForHydration(page, "[data-testid=run-rows-table] tbody tr");
    await table.first().click();
    await page.waitForURL((url) => url.pathname.includes("/rows/"));
    const correctness = page.locator('[data-testid=judgment][data-metric="response/llm_judged/correctness"]');
    await expect.poll(() => correctness.innerText()).toMatch(/expected facts|expected response/i);
    expect(await correctness.locator("[data-testid=rationale]").innerText()).not.toBe("");
    await screenshot(page, "10-run-row");
    const before = page.url();
    await page.keyboard.press("n");
    await page.waitForURL((url) => url.href !== before);
    expect(new URL(page.url()).searchParams.get("filter")).toBe("failed");
  });

  it("exports the run as CSV with Agent Evaluation's column names", async () => {
    const response = await page.request.get(`${runUrl}/export?format=csv`);
    expect(response.status()).toBe(200);
    const header = (await response.text()).split("\r\n")[0].split(",");
    expect(header).toEqual(
      expect.arrayContaining([
        "request_id",
        "response/llm_judged/correctness/rating",
        "retrieval/llm_judged/chunk_relevance/ratings",
        "retrieval/llm_judged/chunk_relevance/precision",
        "retrieval/ground_truth/document_recall",
        "agent/latency_seconds",
      ]),
    );
  });

  it("lists the run with its progress on /runs", async () => {
    await page.goto(`${server.baseUrl}/runs`);
    const row = page.locator("[data-testid=runs-table] tr", { hasText: "Browser heuristic run" });
    await expect.poll(() => row.innerText()).toContain("completed");
    expect(await row.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("100");
    await screenshot(page, "09-runs-list");
    expect(problems).toEqual([]);
  });

  it("executes a run it did not start (how interrupted runs resume after a restart)", async () => {
    const dataset = await db.dataset.findFirstOrThrow({ where: { name: SUPPORT_SAMPLE } });
    const runId = await createRun(db, {
      datasetId: dataset.id,
      metrics: BUILT_IN_METRICS,
      judge: { provider: "heuristic", model: "heuristic-v1" },
    });
    const deadline = Date.now() + 40_000;
    let status = "pending";
    while (Date.now() < deadline && status !== "completed") {
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = (await db.run.findUniqueOrThrow({ where: { id: runId } })).status;
    }
    expect(status).toBe("completed");
    expect(await db.judgmentItem.count({ where: { runId, status: "pending" } })).toBe(0);
  }, 60_000);
});
