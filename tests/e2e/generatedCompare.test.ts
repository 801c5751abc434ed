// Two model versions generated and compared, in Chromium on the built app: ticking "Generate responses" ticks
// the generating model's latency and token metrics (measured from the generation call, not a trace) and the
// judges of the response it supplies, and the compare page then shows each model's latency and tokens with the
// deltas.
import fs from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Responder } from "../support/fakeOpenAIServer";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import type { AppServer } from "./appServer";
import { openAppWithFakeLlm, type FakeLlmApp } from "./fakeLlmApp";
import { expectNoCrashText, screenshot, tempDir, uploadThroughPage, writeFile } from "./helpers";
import { openRunForm, startAndFinish } from "./runFormSteps";

const SAFETY = "response/llm_judged/safety";
const AGENT_METRICS = [
  "agent/total_token_count",
  "agent/total_input_token_count",
  "agent/total_output_token_count",
  "agent/latency_seconds",
];

/** model-v2 answers at five times the length of model-v1, so its output tokens are larger on every row. */
const responder: Responder = (body, ctx) => {
  if (ctx.mode === "text" && body.model === "model-v2") return "A longer generated answer. ".repeat(20);
  if (ctx.mode === "text" && body.model === "model-v1") return "A longer generated answer. ".repeat(4);
  return fakeJudgeResponder(body, ctx);
};

let app: FakeLlmApp;
let server: AppServer;
let page: Page;
let problems: string[];
const files = tempDir();

beforeAll(async () => {
  app = await openAppWithFakeLlm({ responder, latencyMs: 5 });
  ({ server, page, problems } = app);
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(files, { recursive: true, force: true });
});

/** Only the requests (no response, no trace): every response comes from the generating model. */
function rows(): string {
  return Array.from({ length: 4 }, (_, i) =>
    JSON.stringify({ request_id: `g${i + 1}`, request: `Summarise release note ${i + 1} in one sentence.` }),
  ).join("\n");
}

async function tickedMetrics(): Promise<string[]> {
  return page
    .locator("[data-testid=run-form] input[name=metrics]:checked")
    .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
}

async function startGeneratedRun(datasetId: string, model: string): Promise<string> {
  await openRunForm(page, server.baseUrl, datasetId);
  await page.getByLabel(/^Generate responses/).check();
  await page.getByPlaceholder("gpt-4.1-mini").fill(model);
  return startAndFinish(page, `Release notes ${model}`, 90_000);
}

describe("comparing two generated model versions", () => {
  let datasetId = "";
  let first = "";
  let second = "";

  it("ticks the generating model's latency and token metrics with Generate responses, and unticks them again", async () => {
    datasetId = await uploadThroughPage(page, server.baseUrl, writeFile(files, "notes.jsonl", rows()), "Notes");
    await openRunForm(page, server.baseUrl, datasetId);
    // Without a trace the rows carry no latency or tokens: not ticked.
    expect((await tickedMetrics()).filter((name) => name.startsWith("agent/"))).toEqual([]);
    expect(await tickedMetrics()).not.toContain(SAFETY);
    await page.getByLabel(/^Generate responses/).check();
    expect((await tickedMetrics()).filter((name) => name.startsWith("agent/")).sort()).toEqual(
      [...AGENT_METRICS].sort(),
    );
    // The judges of a response, which only the generation gives these rows, are ticked as the Databricks suite is.
    expect(await tickedMetrics()).toContain(SAFETY);
    const latencyRow = page.locator("tr", { has: page.locator('input[value="agent/latency_seconds"]') });
    expect(await latencyRow.innerText()).toMatch(/from the generation/i);
    expect(await latencyRow.innerText()).toMatch(/4 \/ 4 rows/);
    await screenshot(page, "generated-run-form");
    await page.getByLabel(/^Generate responses/).uncheck();
    expect((await tickedMetrics()).filter((name) => name.startsWith("agent/"))).toEqual([]);
    expect(await tickedMetrics()).not.toContain(SAFETY);
  });

  it("compares the two models' latency and tokens, with the deltas", async () => {
    first = await startGeneratedRun(datasetId, "model-v1");
    second = await startGeneratedRun(datasetId, "model-v2");
    await page.goto(`${server.baseUrl}/compare?runs=${first},${second}&baseline=${first}`);
    await page.locator("[data-testid=metric-comparison]").waitFor();
    for (const metric of AGENT_METRICS) {
      const row = page.locator(`[data-testid=metric-comparison] tr[data-metric="${metric}"]`);
      await row.waitFor();
      const text = (await row.innerText()).replace(/\s+/g, " ");
      // Each model's value and the delta in its unit, with the paired bootstrap's verdict.
      expect(text).toMatch(metric === "agent/latency_seconds" ? /\d+(\.\d+)? m?s\b/ : /\d+ tokens/);
    }
    const output = page.locator('[data-testid=metric-comparison] tr[data-metric="agent/total_output_token_count"]');
    await expect.poll(async () => output.locator("[data-testid=delta-words]").innerText()).toMatch(/Real/);
    expect(await output.locator("[data-testid=delta-words]").innerText()).toMatch(/\+\d+ tokens/);
    expect(await page.locator("[data-testid=run-judging]").innerText()).toMatch(/generated by model-v1[\s\S]*model-v2/);
    await expectNoCrashText(page);
    await screenshot(page, "generated-compare");
    expect(problems).toEqual([]);
  }, 240_000);
});
