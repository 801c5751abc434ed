// The DeepEval and Mastra score metrics in Chromium on the built app: the run form's
// families and expected LLM calls, a run with faithfulness + context_relevance
// + bleu through the fake OpenAI server, the run page's score cards and
// histograms, a drill-down with claims and context levels, and a compare of two
// runs on a score metric.
import fs from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Responder } from "../support/fakeOpenAIServer";
import { fakeScoreMetricResponder } from "../support/fakeScoreMetricResponder";
import { fakeScoreResponder } from "../support/fakeScoreResponder";
import type { AppServer } from "./appServer";
import { openAppWithFakeLlm, type FakeLlmApp } from "./fakeLlmApp";
import { expectNoCrashText, screenshot, tempDir, uploadThroughPage, waitForHydration, writeFile } from "./helpers";
import { chooseOnly, openRunForm, startAndFinish } from "./runFormSteps";

const ROWS = 8;
const FAITHFULNESS = "response/llm_judged/faithfulness";
const CONTEXT_RELEVANCE = "retrieval/llm_judged/context_relevance";
const BLEU = "response/statistical/bleu";
const COHERENCE = "response/llm_judged/g_eval/coherence";

const G_EVAL_STEPS = ["Read the actual output.", "Check that each sentence follows from the last.", "Score 1-5."];
/** G-Eval: the steps, then 5 for every row except those whose response CONTRADICTS (3). */
const gEvalResponder: Responder = (body) => {
  const name = body.response_format?.json_schema?.name;
  if (name === "g_eval_steps") return JSON.stringify({ steps: G_EVAL_STEPS });
  if (name !== "g_eval_score") return undefined;
  const prompt = (body.messages as { content: string }[]).map((m) => m.content).join("\n");
  return JSON.stringify({ score: prompt.includes("CONTRADICTS") ? 3 : 5, reason: "coherence checked" });
};
/** The DeepEval templates answered by markers in the content, context_relevance by IRRELEVANT chunks. */
const responder: Responder = (body, ctx) =>
  gEvalResponder(body, ctx) ?? fakeScoreMetricResponder(body, ctx) ?? fakeScoreResponder(body, ctx);

/** Even rows carry a contradicted claim and an irrelevant chunk, so scores spread and the drill-down has both verdicts. */
function rows(): string {
  return Array.from({ length: ROWS }, (_, i) =>
    JSON.stringify({
      request_id: `s${i + 1}`,
      request: `How long does the warranty on model ${i + 1} last?`,
      response:
        i % 2 === 0
          ? `The warranty on model ${i + 1} lasts two years. It covers parts and labour. It CONTRADICTS the manual by covering water damage.`
          : `The warranty on model ${i + 1} lasts two years. It covers parts and labour.`,
      expected_response: `The warranty on model ${i + 1} lasts two years and covers parts and labour.`,
      retrieved_context: [
        { doc_uri: `docs://warranty/${i + 1}`, content: `Model ${i + 1} has a two-year warranty on parts and labour.` },
        ...(i % 2 === 0 ? [{ doc_uri: "docs://cafeteria", content: "IRRELEVANT: the cafeteria opens at noon." }] : []),
      ],
    }),
  ).join("\n");
}

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

describe("score metrics in the dashboard", () => {
  let datasetId = "";
  let firstRun = "";

  it("groups the judges by family, ticks only the Databricks suite, and shows the expected LLM calls", async () => {
    datasetId = await uploadThroughPage(page, server.baseUrl, writeFile(files, "warranty.jsonl", rows()), "Warranty");
    await openRunForm(page, server.baseUrl, datasetId);
    for (const family of ["databricks", "deepeval", "mastra", "statistical"])
      await page.locator(`[data-testid=judge-family-${family}]`).waitFor();
    const ticked = await page
      .locator("[data-testid=run-form] input[name=metrics]:checked")
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    expect(ticked.length).toBeGreaterThan(0);
    expect(ticked.every((name) => !name.includes("/statistical/") && name !== FAITHFULNESS)).toBe(true);

    await chooseOnly(page, ["Faithfulness", "Context relevance (Mastra)", "BLEU"]);
    // 8 rows × 1 call for faithfulness and for context_relevance; BLEU needs no LLM.
    expect(await page.locator("[data-testid=expected-calls]").innerText()).toMatch(
      /Expected LLM calls: 16 at most \(faithfulness 8, context_relevance 8\)/,
    );
    await page.locator("[data-testid=context-relevance-settings]").waitFor();
    await page.locator(`input[name="threshold:${FAITHFULNESS}"]`).fill("0.7");
    // A custom G-Eval judge: one call for its steps, then one per row.
    await page.getByRole("button", { name: "+ Add a G-Eval judge" }).click();
    await page.getByLabel("G-Eval name").fill("coherence");
    await page
      .getByLabel("G-Eval criteria")
      .fill("Coherence: the sentences of the actual output build one clear answer.");
    expect(await page.locator("[data-testid=expected-calls]").innerText()).toMatch(
      /Expected LLM calls: 25 at most \(faithfulness 8, context_relevance 8, custom 9\)/,
    );
    // The offline judge makes no calls, and says which metrics it cannot judge.
    await page.getByLabel("Offline heuristic judge").check();
    expect(await page.locator("[data-testid=expected-calls]").innerText()).toContain("Expected LLM calls: 0");
    expect(await page.locator("[data-testid=judge-family-mastra]").innerText()).toMatch(/needs an LLM judge/);
    await page.getByLabel(/^LLM judge/).check();
    await screenshot(page, "60-score-run-form");
  });

  it("runs faithfulness, context_relevance and bleu and shows score cards and histograms with the pass mark", async () => {
    firstRun = await startAndFinish(page, "Scores LLM", 90_000);
    const card = page.locator(`a[data-metric="${FAITHFULNESS}"]`);
    const text = await card.innerText();
    // Even rows: 2 of 3 claims supported → 0.67; odd rows 1.00 → average 0.83; with the 0.7 pass mark 4 of 8 succeed.
    expect(text).toContain("0.83");
    expect(text).toMatch(/50% succeed \(4 of 8\)/);
    expect(text).toMatch(/95% CI \d+–\d+%/);
    expect(text).toContain(`${FAITHFULNESS}/success/percentage`);
    await page.locator(`a[data-metric="${BLEU}"] [data-testid=score-success]`).waitFor();
    expect(await page.locator("[data-testid=score-histogram]").count()).toBe(4);
    // G-Eval: rows 1, 3, 5, 7 score 3 of 5 (0.5), the others 5 (1.0): average 0.75; the steps are shown with their hash.
    expect(await page.locator(`a[data-metric="${COHERENCE}"]`).innerText()).toContain("0.75");
    const steps = await page.locator("[data-testid=g-eval-steps]").innerText();
    expect(steps).toContain("Check that each sentence follows from the last.");
    expect(steps).toMatch(/steps version [0-9a-f]{16}/);
    const caption = await page
      .locator("[data-testid=score-histogram-card-faithfulness] [data-testid=score-histogram-caption]")
      .innerText();
    expect(caption).toContain("8 rows scored · pass mark 0.70 (at least)");
    await expectNoCrashText(page);
    await screenshot(page, "61-score-run-page");
  }, 120_000);

  it("opens a row and shows each claim with its verdict and each context piece with its level and use", async () => {
    await page.goto(`${server.baseUrl}/runs/${firstRun}`);
    await waitForHydration(page, "[data-testid=run-rows-table] tbody tr");
    await page.locator("[data-testid=run-rows-table] tbody tr").first().click();
    await page.waitForURL((url) => url.pathname.includes("/rows/"));
    const faithfulness = page.locator(`[data-testid=judgment][data-metric="${FAITHFULNESS}"]`);
    await faithfulness.locator("[data-testid=verdict-details]").waitFor();
    expect(await faithfulness.locator('[data-testid=verdict-item][data-verdict="yes"]').count()).toBe(2);
    expect(await faithfulness.locator('[data-testid=verdict-item][data-verdict="no"]').count()).toBe(1);
    const relevance = await page.locator(`[data-testid=judgment][data-metric="${CONTEXT_RELEVANCE}"]`).innerText();
    expect(relevance).toContain("Context pieces");
    expect(relevance).toMatch(/high[\s\S]*used in the response/);
    expect(relevance).toMatch(/none[\s\S]*not used/);
    const coherence = await page.locator(`[data-testid=judgment][data-metric="${COHERENCE}"]`).innerText();
    expect(coherence).toContain("Score 1-5.");
    expect(coherence).toMatch(/G-Eval raw score\s*3\.00/);
    expect(coherence).toMatch(/scale from\s*1\s*scale to\s*5/);
    const bleu = await page.locator(`[data-testid=judgment][data-metric="${BLEU}"]`).innerText();
    expect(bleu).toMatch(/bleu|precision/i);
    await expectNoCrashText(page);
    await screenshot(page, "62-score-drill-down");
  });

  it("compares two runs on a score metric with the paired test and the averages", async () => {
    await openRunForm(page, server.baseUrl, datasetId);
    await page.getByLabel("Offline heuristic judge").check();
    await chooseOnly(page, ["Faithfulness", "BLEU"]);
    const offlineRun = await startAndFinish(page, "Scores offline", 90_000);
    await page.goto(`${server.baseUrl}/compare`);
    await page.getByLabel("Compare Scores LLM").check();
    await page.getByLabel("Compare Scores offline").check();
    await page.getByLabel("Baseline Scores LLM").check();
    await page.getByRole("button", { name: "Compare" }).click();
    await page.locator("[data-testid=metric-comparison]").waitFor();
    const table = await page.locator("[data-testid=metric-comparison]").innerText();
    expect(table).toContain(`${FAITHFULNESS}/score/average`);
    expect(table).toContain("0.83");
    expect(table).toMatch(/real improvement|real regression|likely noise/i);
    expect(table).toMatch(/95% CI/);
    // Faithfulness flips on its success: the LLM run's even rows score 0.67 under its 0.70 pass mark (fail), the
    // offline run scores every row 1.00 over its default 0.50 (pass): four fail → pass improvements, none on BLEU.
    const flips = page.locator("[data-testid=flip-list]");
    expect(await flips.locator("h2").innerText()).toBe("Flipped rows (4)");
    const scoreFlips = flips.locator(`[data-testid=flip][data-kind=success][data-metric="${FAITHFULNESS}"]`);
    expect(await scoreFlips.count()).toBe(4);
    const firstFlip = await scoreFlips.first().innerText();
    expect(firstFlip).toContain("fail → pass");
    expect(firstFlip).toContain("0.67 → 1.00, pass marks 0.70, then 0.50");
    await expectNoCrashText(page);
    await screenshot(page, "63-score-compare");

    // The other way round (offline as baseline) they are regressions, and the direction and metric filters find them.
    await page.goto(`${server.baseUrl}/compare?runs=${offlineRun},${firstRun}&baseline=${offlineRun}`);
    await waitForHydration(page, "[data-testid=flip-list] button");
    await page.getByLabel("Metric", { exact: true }).selectOption(FAITHFULNESS);
    await page.getByLabel("Direction", { exact: true }).selectOption("regressions");
    await flips.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL((url) => url.searchParams.get("direction") === "regressions");
    expect(await flips.locator("h2").innerText()).toBe("Flipped rows (4)");
    const regression = await flips.locator("[data-testid=flip]").first().innerText();
    expect(regression).toContain("pass → fail");
    expect(regression).toContain("1.00 → 0.67, pass marks 0.50, then 0.70");
    await screenshot(page, "63-score-compare-regressions");

    // The row page states the flipped metric in both runs: score, pass mark and success.
    await flips.locator("[data-testid=flip] a").first().click();
    await page.waitForURL((url) => url.pathname === "/compare/row");
    const sides = page.locator("[data-testid=flip-summary] [data-testid=flip-summary-side]");
    expect(await sides.count()).toBe(2);
    expect((await sides.nth(0).innerText()).replace(/\s+/g, " ")).toMatch(/Baseline Scores offline 1\.00 0\.50 pass/i);
    expect((await sides.nth(1).innerText()).replace(/\s+/g, " ")).toMatch(/Candidate Scores LLM 0\.67 0\.70 fail/i);
    await expectNoCrashText(page);
    await screenshot(page, "63-score-flip-row");
    expect(problems).toEqual([]);
  }, 150_000);
});
