// Browser test: the run form estimates the calls, tokens and cost of the chosen judges before the run
// starts; a budget of a few calls set in the form pauses the run with the reason on its page; raising
// the budget there resumes it to completion, with nothing judged twice.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import type { FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import type { AppServer } from "./appServer";
import { openAppWithFakeLlm, type FakeLlmApp } from "./fakeLlmApp";
import { expectNoCrashText, screenshot, waitForHydration } from "./helpers";

let fake: FakeOpenAIServer;
let app: FakeLlmApp;
let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];

beforeAll(async () => {
  app = await openAppWithFakeLlm({
    responder: fakeJudgeResponder,
    latencyMs: 50,
    env: {
      OPENAI_API_KEY: "sk-test-budget-e2e-0000",
      ASSAY_JUDGE_MODEL: "judge-model",
      ASSAY_LLM_PRICES: JSON.stringify({ "judge-model": { input: 0.4, output: 1.6 } }),
    },
  });
  fake = app.fake;
  ({ server, db, page, problems } = app);
}, 180_000);

afterAll(async () => {
  await app?.close();
});

async function waitForStatus(runId: string, status: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } });
    if (run.status === status) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} did not reach ${status}`);
}

describe("a run with a budget", () => {
  it("the form estimates calls, tokens and cost; a 4-call budget pauses the run; raising it there finishes it", async () => {
    // Ten rows carrying every input: the six Databricks LLM judges run on all of them, one call each (chunks batched).
    const datasetId = await importRows(db, syntheticRows(10, 2));
    await page.goto(`${server.baseUrl}/datasets/${datasetId}/runs/new`);
    await waitForHydration(page, "[data-testid=run-form] button[type=submit]");
    const calls = page.getByTestId("expected-calls");
    const spending = page.getByTestId("spending-estimate");
    expect(await calls.innerText()).toContain("Expected LLM calls: 60 at most");
    expect(await spending.innerText()).toMatch(
      /^About [\d,]+ input and [\d,]+ output tokens; about \$0\.\d{4} at the configured prices\.$/,
    );
    expect(await page.getByTestId("budget-estimate-hint").innerText()).toMatch(
      /^The estimate above for this run: 60 LLM calls, [\d,]+ tokens, about \$0\.\d{4}\.$/,
    );
    // One call per chunk for chunk relevance: two chunks a row instead of one call.
    await page.locator("select[name=chunkMode]").selectOption("per_chunk");
    await expect.poll(() => calls.innerText()).toContain("Expected LLM calls: 70 at most");
    await page.locator("select[name=chunkMode]").selectOption("batched");
    // Three trials: every row judged three times, each trial's calls made anew.
    await page.getByLabel("Trials per row").fill("3");
    await expect.poll(() => calls.innerText()).toContain("Expected LLM calls: 180 at most");
    expect(await page.getByTestId("run-form").innerText()).toContain(
      "70 judgments will run across 10 rows, each 3 times (210 in all); the rest are skipped",
    );
    await screenshot(page, "budget-01-run-form-trials");
    await page.getByLabel("Trials per row").fill("1");
    await expect.poll(() => calls.innerText()).toContain("Expected LLM calls: 60 at most");
    // A model without a price: the cost is unknown, and the form says why.
    await page.locator("input[name=judgeModel]").fill("unpriced-model");
    await expect
      .poll(() => spending.innerText())
      .toContain("cost unknown: no price configured for unpriced-model (ASSAY_LLM_PRICES)");
    await page.locator("input[name=judgeModel]").fill("judge-model");
    await expect.poll(() => spending.innerText()).toMatch(/about \$0\.\d{4} at the configured prices/);
    await page.getByLabel("LLM calls", { exact: true }).fill("4");
    await page.getByLabel("Run name (optional)").fill("Budgeted run");
    await screenshot(page, "budget-01-run-form-estimate");

    const requestsBefore = fake.stats.totalRequests;
    await page.getByRole("button", { name: "Start run" }).click();
    await page.waitForURL((url) => /^\/runs\/[^/]+$/.test(url.pathname));
    const runId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    await waitForStatus(runId, "paused");
    expect(fake.stats.totalRequests - requestsBefore).toBe(4);
    expect(await db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      budgetCalls: 4,
      budgetTokens: null,
      budgetUsd: null,
      pauseReason: "budget",
    });

    await page.reload();
    await waitForHydration(page, "[data-testid=raise-budget-form] button");
    expect(await page.getByTestId("run-status-badge").innerText()).toBe("paused: budget reached");
    expect(await page.locator("body").innerText()).toContain("Paused: budget of 4 LLM calls reached (4 made).");
    // A pause is a status, not an error: the message is not announced or coloured as a failure.
    const message = page.getByTestId("run-message");
    expect(await message.getAttribute("role")).toBe("status");
    expect(await message.getAttribute("class")).toContain("bg-amber-50");
    const form = page.getByTestId("raise-budget-form");
    expect(await form.getByLabel("LLM calls").inputValue()).toBe("4");
    await screenshot(page, "budget-02-run-paused");

    // The same limit would pause it again at once: refused, with what was spent.
    await form.getByRole("button", { name: "Raise budget and resume" }).click();
    await expect
      .poll(() => form.getByRole("alert").innerText())
      .toBe("The run has already spent 4 LLM calls: set the call budget above that, or leave it empty for no limit.");
    expect(fake.stats.totalRequests - requestsBefore).toBe(4);

    await form.getByLabel("LLM calls").fill("500");
    await form.getByRole("button", { name: "Raise budget and resume" }).click();
    await waitForStatus(runId, "completed");
    await expect.poll(() => page.getByTestId("run-status-badge").innerText(), { timeout: 15_000 }).toBe("completed");
    expect(await page.locator("body").innerText()).not.toContain("Paused: budget");
    // Nothing judged twice: one request per LLM judgment over both passes.
    const judged = await db.judgmentItem.count({ where: { runId, judgeProvider: { not: "deterministic" } } });
    expect(judged).toBe(60);
    expect(fake.stats.totalRequests - requestsBefore).toBe(judged);
    expect(await db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ budgetCalls: 500 });
    await expectNoCrashText(page);
    await screenshot(page, "budget-03-run-completed");
  });

  it("raised no page error, server error or dialog along the way", () => {
    expect(problems).toEqual([]);
  });
});
