// Every score metric of DeepEval and Mastra from the run form, in Chromium on the built
// app: the nine DeepEval metrics, Mastra's context_relevance and the four
// statistical scorers on the sample dataset through the fake OpenAI server. Each
// metric's card shows an average score and a success percentage, the charts draw
// scores as success rates, a drill-down shows the intermediate verdicts, and a
// compare against a second run shows each run's success percentage.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import type { Responder } from "../support/fakeOpenAIServer";
import { fakeScoreMetricResponder } from "../support/fakeScoreMetricResponder";
import { fakeScoreResponder } from "../support/fakeScoreResponder";
import type { AppServer } from "./appServer";
import { openAppWithFakeLlm, type FakeLlmApp } from "./fakeLlmApp";
import { expectNoCrashText, screenshot, waitForHydration, SUPPORT_SAMPLE } from "./helpers";
import { chooseOnly, openRunForm, startAndFinish } from "./runFormSteps";

/** Every score metric by its run-form label and its full name. */
const SCORE_METRICS: [label: string, name: string][] = [
  ["Faithfulness", "response/llm_judged/faithfulness"],
  ["Answer relevancy", "response/llm_judged/answer_relevancy"],
  ["Contextual precision", "retrieval/llm_judged/contextual_precision"],
  ["Contextual recall", "retrieval/llm_judged/contextual_recall"],
  ["Contextual relevancy", "retrieval/llm_judged/contextual_relevancy"],
  ["Hallucination", "response/llm_judged/hallucination"],
  ["Toxicity", "response/llm_judged/toxicity"],
  ["Bias", "response/llm_judged/bias"],
  ["Summarization", "response/llm_judged/summarization"],
  ["Context relevance (Mastra)", "retrieval/llm_judged/context_relevance"],
  ["BLEU", "response/statistical/bleu"],
  ["ROUGE", "response/statistical/rouge"],
  ["METEOR", "response/statistical/meteor"],
  ["Levenshtein similarity", "response/statistical/levenshtein"],
];
const FAITHFULNESS = "response/llm_judged/faithfulness";
const CONTEXT_RELEVANCE = "retrieval/llm_judged/context_relevance";
const LOWER_IS_BETTER = ["hallucination", "toxicity", "bias"];

/** The DeepEval templates by markers in the content (none in the sample: all yes), context_relevance by fakeScoreResponder. */
const responder: Responder = (body, ctx) => fakeScoreMetricResponder(body, ctx) ?? fakeScoreResponder(body, ctx);

let app: FakeLlmApp;
let server: AppServer;
let page: Page;
let db: Db;
let problems: string[];

beforeAll(async () => {
  app = await openAppWithFakeLlm({ responder, latencyMs: 2 });
  ({ server, page, problems, db } = app);
});

afterAll(async () => {
  await app?.close();
});

/** Per metric, how many of the run's judgments finished with a score and how many errored. */
async function outcomes(runId: string) {
  const groups = await db.judgmentItem.groupBy({
    by: ["metric", "status"],
    where: { runId },
    _count: { _all: true },
  });
  const count = (metric: string, status: string) =>
    groups.find((g) => g.metric === metric && g.status === status)?._count._all ?? 0;
  return (metric: string) => ({ done: count(metric, "done"), error: count(metric, "error") });
}

describe("every score metric from the run form, on the sample dataset", () => {
  let datasetId = "";
  let firstRun = "";

  it("ticks all fourteen score metrics in their families and shows the expected LLM calls", async () => {
    const sample = await db.dataset.findFirst({ where: { name: SUPPORT_SAMPLE }, select: { id: true } });
    datasetId = sample?.id ?? "";
    expect(datasetId).not.toBe("");
    await openRunForm(page, server.baseUrl, datasetId);
    await chooseOnly(
      page,
      SCORE_METRICS.map(([label]) => label),
    );
    const ticked = await page
      .locator("[data-testid=run-form] input[name=metrics]:checked")
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    expect(ticked).toHaveLength(SCORE_METRICS.length);
    expect(await page.locator("[data-testid=expected-calls]").innerText()).toMatch(/Expected LLM calls: \d+/);
    await page.locator("[data-testid=context-relevance-settings]").waitFor();
    await expectNoCrashText(page);
    await screenshot(page, "70-all-scores-run-form");
  });

  it("runs them all: every card has an average score and a success percentage, no metric errors", async () => {
    firstRun = await startAndFinish(page, "All scores LLM", 150_000);
    const outcome = await outcomes(firstRun);
    const failures: string[] = [];
    for (const [label, name] of SCORE_METRICS) {
      const { done, error } = outcome(name);
      if (done === 0 || error > 0) failures.push(`${label}: ${done} scored, ${error} errors`);
      const card = await page.locator(`a[data-metric="${name}"]`).innerText();
      if (!/\b[01]\.\d\d\b/.test(card)) failures.push(`${label}: no average score on its card`);
      if (!/\d+% succeed \(\d+ of \d+\)/.test(card)) failures.push(`${label}: no success percentage on its card`);
      if (!card.includes(`${name}/success/percentage`)) failures.push(`${label}: no success aggregate name`);
    }
    expect(failures).toEqual([]);
    // The charts: scores as success rates (never their average on a % axis), one histogram each, ↓ for lower-is-better.
    const passRate = page.locator("[data-testid=pass-rate]");
    expect(await passRate.locator("h2").innerText()).toBe("Success rate by metric");
    expect(await passRate.locator("[data-testid=pass-rate-caption]").innerText()).toContain("lower is better");
    // The bars are drawn once the chart has measured its box in the browser.
    const tickTitles = page.locator("[data-testid=pass-rate-chart] text title");
    await tickTitles.first().waitFor({ state: "attached" });
    const ticks = await tickTitles.allTextContents();
    expect(ticks).toContain("Faithfulness · success");
    expect(ticks).toContain("Hallucination ↓ · success");
    expect(await page.locator("[data-testid=score-histogram]").count()).toBe(SCORE_METRICS.length);
    for (const short of LOWER_IS_BETTER)
      await page.locator(`[data-testid=score-histogram-card-${short}] [data-testid=lower-is-better]`).waitFor();
    // Readable axis text: at least 12 px on every chart.
    const sizes = await page
      .locator("[data-testid=run-charts] .recharts-cartesian-axis-tick-label text")
      .evaluateAll((texts) => texts.map((text) => parseFloat(getComputedStyle(text).fontSize)));
    expect(sizes.length).toBeGreaterThan(0);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(12);
    await expectNoCrashText(page);
    await screenshot(page, "71-all-scores-run-page");
  }, 200_000);

  it("opens a row and shows faithfulness's claims with verdicts and context_relevance's levels and use", async () => {
    await page.goto(`${server.baseUrl}/runs/${firstRun}`);
    await waitForHydration(page, "[data-testid=run-rows-table] tbody tr");
    await page.locator("[data-testid=run-rows-table] tbody tr").first().click();
    await page.waitForURL((url) => url.pathname.includes("/rows/"));
    const faithfulness = page.locator(`[data-testid=judgment][data-metric="${FAITHFULNESS}"]`);
    await faithfulness.locator("[data-testid=verdict-details]").waitFor();
    const verdicts = await faithfulness
      .locator("[data-testid=verdict-item]")
      .evaluateAll((items) => items.map((item) => item.getAttribute("data-verdict")));
    expect(verdicts.length).toBeGreaterThan(0);
    for (const verdict of verdicts) expect(["yes", "no", "idk"]).toContain(verdict);
    const relevance = page.locator(`[data-testid=judgment][data-metric="${CONTEXT_RELEVANCE}"]`);
    await relevance.locator("[data-testid=verdict-details]").waitFor();
    const text = await relevance.innerText();
    expect(text).toContain("Context pieces");
    expect(text).toMatch(/\b(high|medium|low|none)\b/);
    expect(text).toMatch(/used in the response|not used/);
    await expectNoCrashText(page);
    await screenshot(page, "72-all-scores-drill-down");
  });

  it("compares against a second run: each run's average, success % with its interval, and the paired test", async () => {
    await openRunForm(page, server.baseUrl, datasetId);
    await page.getByLabel("Offline heuristic judge").check();
    await chooseOnly(page, ["Faithfulness", "BLEU", "ROUGE", "METEOR", "Levenshtein similarity"]);
    // DeepEval's variants, picked in the form: stored with the run and named in its header.
    await page.getByLabel("ROUGE score").selectOption("rouge1");
    await page.getByLabel("BLEU score").selectOption("bleu2");
    const offline = await startAndFinish(page, "Scores offline", 150_000);
    // The offline judge's header names only the DeepEval options that change its scores.
    expect(await page.locator("[data-testid=metric-setting]").allInnerTexts()).toEqual([
      "· DeepEval: strict_mode off, penalize_ambiguous_claims off",
      "· rouge scored as ROUGE-1 F1 (stemmed)",
      "· bleu scored as DeepEval's bleu2",
    ]);
    const stored = await db.run.findUniqueOrThrow({ where: { id: offline } });
    expect(JSON.parse(stored.config)).toMatchObject({ statistical: { rougeType: "rouge1", bleuType: "bleu2" } });
    await page.goto(`${server.baseUrl}/compare`);
    await page.getByLabel("Compare All scores LLM").check();
    await page.getByLabel("Compare Scores offline").check();
    await page.getByLabel("Baseline All scores LLM").check();
    await page.getByRole("button", { name: "Compare" }).click();
    await page.locator("[data-testid=metric-comparison]").waitFor();
    const faithfulness = page.locator(`[data-testid=metric-comparison] tr[data-metric="${FAITHFULNESS}"]`);
    expect(await faithfulness.locator("[data-testid=success-cell]").count()).toBe(2);
    const row = await faithfulness.innerText();
    expect(row).toMatch(/\d\.\d\d average/);
    expect(row).toMatch(/\d+\.\d% succeed \(\d+\/\d+\)/);
    expect(row).toMatch(/95% CI \d/);
    expect(row).toMatch(/real improvement|real regression|likely noise/i);
    const bars = await page.locator("[data-testid=compare-bars-caption]").innerText();
    expect(bars).toContain("% of rows that succeed");
    await page
      .locator(
        '[data-testid=metric-comparison] tr[data-metric="response/llm_judged/toxicity"] [data-testid=lower-is-better]',
      )
      .waitFor();
    // The flip list's metric filter offers only metrics both runs judged: the offline run has no answer_relevancy.
    const flipMetrics = await page.locator("[data-testid=flip-list] select[name=metric] option").allInnerTexts();
    expect(flipMetrics).toContain("faithfulness");
    expect(flipMetrics).toContain("bleu");
    expect(flipMetrics).not.toContain("answer_relevancy");
    await expectNoCrashText(page);
    await screenshot(page, "73-all-scores-compare");
    expect(problems).toEqual([]);
  }, 200_000);
});
