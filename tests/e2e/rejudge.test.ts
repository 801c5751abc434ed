// Browser test: re-judging a finished run asks first (with the estimate of judgments, calls, tokens and
// cost), shows "re-judging" with its own progress and "updating…" on the cards while it runs, and a run
// the server resumed after its runner died shows the interruption and its working time.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { claimRunLease } from "@/lib/db/runs/runLease";
import { createRun } from "@/lib/engine/createRun";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
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
    env: {
      OPENAI_API_KEY: "sk-test-rejudge-e2e-0000",
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForStatus(runId: string, status: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } });
    if (run.status === status) return;
    await sleep(100);
  }
  throw new Error(`run ${runId} did not reach ${status}`);
}

describe("re-judging asks first, then says it is re-judging", () => {
  it("a finished fake-LLM run → re-judge → the estimate → confirm → re-judging progress and updating cards → completed", async () => {
    // Eight rows; the fake judge rates the three marked responses unsafe.
    const rows = Array.from({ length: 8 }, (_, i) => ({
      request: `How do I configure retention ${i}?`,
      response: i % 3 === 0 ? `NO:safety_verdict answer ${i}` : `Retention is set per bucket (${i}).`,
    }));
    const datasetId = await importRows(db, rows);
    const runId = await createRun(db, {
      datasetId,
      name: "Re-judge in the browser",
      metrics: ["safety", "relevance_to_query"],
      judge: { provider: "openai", model: "judge-model" },
      concurrency: 1,
    });
    // The server picks the pending run up (its resumer sweeps at start-up and every 15 s); nudge it by opening the page.
    await page.goto(`${server.baseUrl}/runs/${runId}`);
    await waitForStatus(runId, "completed");
    const failed = await db.judgmentItem.count({ where: { runId, passed: false } });
    expect(failed).toBe(3);

    await page.goto(`${server.baseUrl}/runs/${runId}`);
    await waitForHydration(page, "[data-testid=rejudge-errored_or_failed]");
    const requestsBefore = fake.stats.totalRequests;
    await page.getByRole("button", { name: /Re-judge errored and failed/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    // Nothing is sent before the confirmation.
    const estimate = page.getByTestId("rejudge-estimate");
    await expect.poll(() => estimate.innerText(), { timeout: 10_000 }).toContain("3 judgments will be redone");
    expect(await estimate.innerText()).toContain("About 0 LLM calls");
    expect(await estimate.innerText()).toContain("reuse the cached answers (3 with no call)");

    await dialog.getByLabel(/Second opinion/).check();
    await expect.poll(() => estimate.innerText(), { timeout: 10_000 }).toContain("About 3 LLM calls");
    const text = await estimate.innerText();
    expect(text).toContain("bypassing the cache");
    expect(text).toMatch(/about \$0\.\d{4}/);
    expect(fake.stats.totalRequests).toBe(requestsBefore);
    await screenshot(page, "40-rejudge-confirmation");

    // Slow answers, so the re-judge is seen while it runs.
    fake.setBehaviour({ latencyMs: 1_500 });
    await page.getByTestId("rejudge-confirm").click();
    const status = page.getByTestId("run-status");
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toBe("re-judging");
    await expect.poll(() => page.getByTestId("run-status-badge").innerText()).toBe("re-judging");
    await expect.poll(() => page.getByTestId("run-progress").innerText()).toMatch(/\d of 3 re-judged/);
    // The safety card has pending items and says its figures are changing; relevance has none.
    await expect
      .poll(() => page.locator('a[data-metric="response/llm_judged/safety"]').innerText())
      .toContain("updating…");
    expect(await page.locator('a[data-metric="response/llm_judged/relevance_to_query"]').innerText()).not.toContain(
      "updating…",
    );
    await screenshot(page, "41-rejudging");

    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toBe("completed");
    fake.setBehaviour({ latencyMs: 0 });
    await expect.poll(() => page.getByTestId("metric-card-updating").count(), { timeout: 15_000 }).toBe(0);
    expect(fake.stats.totalRequests - requestsBefore).toBe(3);
    await expect.poll(() => page.getByTestId("run-events").innerText()).toContain("Re-judge started at");
    await expectNoCrashText(page);
    expect(problems).toEqual([]);
  }, 120_000);

  it("a run whose runner died is resumed by the server: the page shows when and how much was pending, and working time", async () => {
    const datasetId = await importRows(db, syntheticRows(30, 2));
    const runId = await createRun(db, {
      datasetId,
      name: "Resumed after a crash",
      metrics: ["correctness", "groundedness", "chunk_relevance"],
      judge: { provider: "heuristic", model: HEURISTIC_MODEL },
    });
    const pending = await db.judgmentItem.count({ where: { runId, status: "pending" } });
    // What a killed runner leaves: the run "running" under a lease that lapses at once.
    expect(await claimRunLease(db, runId, "cli-dead0000", 1)).toBe(true);
    await waitForStatus(runId, "completed", 40_000);
    expect(server.output()).toContain(
      `[assay] resumed run ${runId} after an interruption; ${pending} judgments were pending`,
    );

    await page.goto(`${server.baseUrl}/runs/${runId}`);
    const events = await page.getByTestId("run-events").innerText();
    expect(events).toMatch(
      new RegExp(`Resumed at .+ UTC after an interruption; ${pending.toLocaleString("en-US")} judgments were pending`),
    );
    expect(await page.getByTestId("run-duration").innerText()).toMatch(/working time .+ \(wall clock .+\)/);
    await screenshot(page, "42-resumed-run");
    await expectNoCrashText(page);
    expect(problems).toEqual([]);
  }, 90_000);
});
