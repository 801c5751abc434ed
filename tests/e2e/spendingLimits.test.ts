// Browser test: with server-wide spending limits set (ASSAY_MAX_RUN_USD, ASSAY_ALLOWED_MODELS) and an endpoint
// limit of 8 calls in flight, the run form says the limits beside the budget fields and notes a concurrency above
// the endpoint's limit as it is typed; the server refuses a budget above the limit and a model off the list, naming
// each, and gives a run without a cost budget the limit as its budget.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import type { AppServer } from "./appServer";
import { openAppWithFakeLlm, type FakeLlmApp } from "./fakeLlmApp";
import { screenshot, waitForHydration } from "./helpers";

let app: FakeLlmApp;
let server: AppServer;
let db: Db;
let page: Page;

beforeAll(async () => {
  app = await openAppWithFakeLlm({
    responder: fakeJudgeResponder,
    env: {
      ASSAY_JUDGE_MODEL: "judge-model",
      ASSAY_LLM_PRICES: JSON.stringify({ "judge-model": { input: 0.4, output: 1.6 } }),
      ASSAY_MAX_RUN_USD: "5",
      ASSAY_ALLOWED_MODELS: "judge-model, gen-model",
      ASSAY_LLM_MAX_IN_FLIGHT: "8",
    },
  });
  ({ server, db, page } = app);
}, 180_000);

afterAll(async () => {
  await app?.close();
});

describe("server-wide spending limits in the run form", () => {
  it("are shown by the budget fields, refused with the limit named, and a run without a cost budget gets the limit", async () => {
    const datasetId = await importRows(db, syntheticRows(3, 1));
    await page.goto(`${server.baseUrl}/datasets/${datasetId}/runs/new`);
    await waitForHydration(page, "[data-testid=run-form] button[type=submit]");
    expect(await page.getByTestId("spending-limits").innerText()).toBe(
      "This server allows at most $5.00 per run (an empty cost field runs with that); models: judge-model, gen-model.",
    );

    const concurrency = page.locator("input[name=concurrency]");
    await concurrency.fill("16");
    expect(await page.getByTestId("concurrency-note").innerText()).toBe(
      "16 calls in flight is above this endpoint's limit of 8 calls in flight (ASSAY_LLM_MAX_IN_FLIGHT); at most 8 will run at once.",
    );
    await page.getByLabel("Cost (USD)").fill("10");
    await page.getByLabel("Run name (optional)").fill("Over the limit");
    await screenshot(page, "spending-limits-01-run-form");
    await page.locator("[data-testid=run-form] button[type=submit]").click();
    const alert = page.locator("[data-testid=run-form] [role=alert]");
    await expect
      .poll(() => alert.innerText(), { timeout: 15_000 })
      .toContain("The cost budget $10 is above this server's limit of $5.00 per run (ASSAY_MAX_RUN_USD).");
    await concurrency.fill("8");
    expect(await page.getByTestId("concurrency-note").count()).toBe(0);

    await page.getByLabel("Cost (USD)").fill("");
    await page.locator("input[name=judgeModel]").fill("other-model");
    await page.locator("[data-testid=run-form] button[type=submit]").click();
    await expect
      .poll(() => alert.innerText(), { timeout: 15_000 })
      .toContain(
        "other-model is not among the models this server allows (ASSAY_ALLOWED_MODELS: judge-model, gen-model).",
      );
    expect(await db.run.count({ where: { name: "Over the limit" } })).toBe(0);

    await page.locator("input[name=judgeModel]").fill("judge-model");
    await page.getByLabel("Run name (optional)").fill("Within the limit");
    await page.locator("[data-testid=run-form] button[type=submit]").click();
    await page.waitForURL(/\/runs\//, { timeout: 30_000 });
    const run = await db.run.findFirstOrThrow({ where: { name: "Within the limit" } });
    expect(run.budgetUsd).toBe(5);
  });
});
