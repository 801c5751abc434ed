// A run that judged each row three times, in Chromium on the built app: the run page's trials panel (pass@3,
// pass^3, self-agreement, Fleiss' κ), the flaky filter, and a flaky row's drill-down with every trial's verdict.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { formatPercent } from "@/lib/charts/format";
import { readTrialCounts } from "@/lib/db/judgments/trialQueries";
import { summarizeTrialGroups } from "@/lib/stats/trialAgreement";
import { fakeSeededResponder } from "../support/fakeRandomResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { importRows, runToCompletion } from "../support/engineKit";
import type { AppServer } from "./appServer";
import { expectNoCrashText, openApp, screenshot, type OpenedApp } from "./helpers";

const CORRECTNESS = "response/llm_judged/correctness";
const SAFETY = "response/llm_judged/safety";
const METRICS = [CORRECTNESS, SAFETY];
const ROWS = 16;

let app: OpenedApp;
let fake: FakeOpenAIServer;
let server: AppServer;
let db: Db;
let page: Page;
let runId = "";

beforeAll(async () => {
  fake = await startFakeOpenAIServer({ responder: fakeSeededResponder(3) });
  app = await openApp();
  ({ server, db, page } = app);
  const datasetId = await importRows(
    db,
    Array.from({ length: ROWS }, (_, i) => ({
      request_id: `r${i + 1}`,
      request: `How long does a refund for order ${i + 1} take?`,
      response: `Refunds for order ${i + 1} take ${i + 3} days.`,
      expected_response: `About ${i + 3} days.`,
    })),
  );
  ({ runId } = await runToCompletion(
    db,
    {
      datasetId,
      name: "Refund bot · 3 trials",
      metrics: METRICS,
      judge: { provider: "openai", model: "judge-model" },
      trials: 3,
    },
    fake.url,
  ));
}, 120_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

describe("a run with trials", () => {
  it("shows pass@3, pass^3, self-agreement and Fleiss' κ per metric, as the judgments count them", async () => {
    const counts = await readTrialCounts(db, runId);
    await page.goto(`${server.baseUrl}/runs/${runId}`);
    const panel = page.locator("[data-testid=trials-panel]");
    await panel.waitFor();
    expect(await panel.locator("h2").innerText()).toBe("Trials: each row judged 3 times");
    for (const metric of METRICS) {
      const summary = summarizeTrialGroups(counts.get(metric) ?? []);
      const row = panel.locator(`tr[data-metric="${metric}"]`);
      expect(await row.locator("[data-testid=trials-pass-at-k]").innerText()).toBe(formatPercent(summary.passAtK));
      expect(await row.locator("[data-testid=trials-pass-all-k]").innerText()).toBe(formatPercent(summary.passAllK));
      expect(await row.locator("[data-testid=trials-unanimous]").innerText()).toBe(formatPercent(summary.unanimous));
      expect(await row.locator("[data-testid=trials-mean]").innerText()).toBe(formatPercent(summary.meanPassRate));
      expect(await row.locator("[data-testid=trials-kappa]").innerText()).toBe(
        summary.fleissKappa === null ? "–" : summary.fleissKappa.toFixed(2),
      );
      expect(await row.locator("[data-testid=trials-flaky-count]").innerText()).toBe(
        `${Math.round((1 - summary.unanimous) * summary.rows)} flaky of ${ROWS}`,
      );
    }
    await expectNoCrashText(page);
    await screenshot(page, "run-trials");
  });

  it("lists the flaky rows, and a flaky row shows every trial's verdict and rationale", async () => {
    const counts = await readTrialCounts(db, runId);
    const flakyOnCorrectness = Math.round((1 - summarizeTrialGroups(counts.get(CORRECTNESS) ?? []).unanimous) * ROWS);
    expect(flakyOnCorrectness).toBeGreaterThan(0);
    await page.goto(`${server.baseUrl}/runs/${runId}`);
    await page
      .locator(`[data-testid=trials-panel] tr[data-metric="${CORRECTNESS}"] [data-testid=trials-flaky-count]`)
      .click();
    await page.waitForURL((url) => url.searchParams.get("filter") === "flaky");
    await page.locator("[data-testid=run-rows-table]").waitFor();
    expect(await page.locator("[data-testid=run-rows-table] tbody tr").count()).toBe(flakyOnCorrectness);
    expect(await page.locator("[data-testid=row-filter-summary]").innerText()).toContain("flaky (trials disagree)");
    await screenshot(page, "run-trials-flaky-rows");
    await page.locator("[data-testid=run-rows-table] tbody tr a").first().click();
    await page.waitForURL((url) => url.pathname.includes("/rows/"));
    const judge = page.locator(`[data-testid=judgment][data-metric="${CORRECTNESS}"]`);
    await judge.waitFor();
    const trials = judge.locator("[data-testid=trial-verdict]");
    expect(await trials.count()).toBe(3);
    const verdicts = await trials.evaluateAll((items) => items.map((item) => (item as HTMLElement).innerText));
    expect(verdicts.map((text) => text.split(/\s+/)[0] + " " + text.split(/\s+/)[1])).toEqual([
      "Trial 1",
      "Trial 2",
      "Trial 3",
    ]);
    // The trials disagree: both verdicts are there, and the panel says so.
    expect(verdicts.some((text) => /\byes\b/.test(text))).toBe(true);
    expect(verdicts.some((text) => /\bno\b/.test(text))).toBe(true);
    expect(await judge.locator("[data-testid=trial-verdicts]").innerText()).toContain("flaky");
    await expectNoCrashText(page);
    await screenshot(page, "row-trials");
  });
});
