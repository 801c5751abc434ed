// DeepEval's options and a G-Eval judge with written steps, a 0–10 scale and a rubric, set in the run
// form in Chromium on the built app: what the form sends reaches the stored run, the run page's header
// and G-Eval panel say it, and a row's drill-down shows what the options did to its scores.
import fs from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { getRun } from "@/lib/db/runs/runQueries";
import type { Responder } from "../support/fakeOpenAIServer";
import { fakeDeepEvalCallsResponder } from "../support/fakeDeepEvalCallsResponder";
import { fakeScoreMetricResponder } from "../support/fakeScoreMetricResponder";
import type { AppServer } from "./appServer";
import { openAppWithFakeLlm, type FakeLlmApp } from "./fakeLlmApp";
import { expectNoCrashText, screenshot, tempDir, uploadThroughPage, waitForHydration, writeFile } from "./helpers";
import { chooseOnly, openRunForm, startAndFinish } from "./runFormSteps";

const ROWS = 4;
const FAITHFULNESS = "response/llm_judged/faithfulness";
const HELPFUL = "response/llm_judged/g_eval/helpful";

/** G-Eval in strict mode answers 1 (followed) or 0 (a CONTRADICTS response); it is never asked for steps. */
const gEvalResponder: Responder = (body) => {
  const name = body.response_format?.json_schema?.name;
  if (name === "g_eval_steps") throw new Error("written steps must not be generated");
  if (name !== "g_eval_score") return undefined;
  const prompt = (body.messages as { content: string }[]).map((m) => m.content).join("\n");
  return JSON.stringify({ reason: "judged by the fake", score: prompt.includes("CONTRADICTS") ? 0 : 1 });
};
const responder: Responder = (body, ctx) =>
  gEvalResponder(body, ctx) ?? fakeDeepEvalCallsResponder(body, ctx) ?? fakeScoreMetricResponder(body, ctx);

function rows(): string {
  return Array.from({ length: ROWS }, (_, i) =>
    JSON.stringify({
      request_id: `o${i + 1}`,
      request: `KEY1 plan ${i + 1} costs $20. KEY2 it includes SSO. KEY3 it has 5 seats.`,
      response:
        i % 2 === 0
          ? `KEY1 plan ${i + 1} costs $20. It is UNKNOWN whether tax is included. It CONTRADICTS the source on seats.`
          : `KEY1 plan ${i + 1} costs $20. KEY2 it includes SSO.`,
      retrieved_context: [{ doc_uri: `docs://plan/${i + 1}`, content: `Plan ${i + 1}: $20, SSO, 5 seats.` }],
    }),
  ).join("\n");
}

let app: FakeLlmApp;
let server: AppServer;
let page: Page;
let db: Db;
const files = tempDir();

beforeAll(async () => {
  app = await openAppWithFakeLlm({ responder, latencyMs: 2 });
  ({ server, page, db } = app);
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(files, { recursive: true, force: true });
});

describe("DeepEval's options and G-Eval's scale, rubric and steps from the run form", () => {
  let runId = "";

  it("sets every option in the form, with the G-Eval judge costing no steps call", async () => {
    const datasetId = await uploadThroughPage(page, server.baseUrl, writeFile(files, "plans.jsonl", rows()), "Plans");
    await openRunForm(page, server.baseUrl, datasetId);
    await chooseOnly(page, ["Faithfulness", "Summarization"]);
    const options = page.locator("[data-testid=deepeval-settings]");
    await options.getByLabel(/strict_mode/).check();
    await options.getByLabel(/include_reason/).uncheck();
    await options.getByLabel(/penalize_ambiguous_claims/).check();
    await options.getByLabel("List cap (items per answer)").fill("25");
    await options.getByLabel(/assessment_questions/).fill("Does the text state KEY1?\nDoes the text state KEY3?");

    await page.getByRole("button", { name: "+ Add a G-Eval judge" }).click();
    await page.getByLabel("G-Eval name").fill("helpful");
    await page.getByLabel("G-Eval scale").selectOption("0-10");
    await page
      .getByLabel(/^Evaluation steps \(optional/)
      .fill("Check the output answers the input.\nPenalise anything the source does not say.");
    await page
      .getByLabel(/^Rubric \(optional/)
      .fill("0-3: misses the question\n4-7: answers it in part\n8-10: answers it fully");
    // Folded: faithfulness 4 + summarization 2 × 4 + G-Eval 4 (its steps are written: no steps call).
    expect(await page.locator("[data-testid=expected-calls]").innerText()).toMatch(
      /Expected LLM calls: 16 at most \(faithfulness 4, summarization 8, custom 4\)/,
    );
    // DeepEval's own calls, without the reason call: faithfulness 3 a row (truths, claims, verdicts),
    // summarization 5 (truths, claims, alignment, answers from the source and from the summary; the
    // questions are given), G-Eval unchanged. The select says both counts.
    const structure = options.getByLabel("Calls per row");
    expect(await structure.locator("option").allInnerTexts()).toEqual([
      "Folded: one call per row, two for summarization (16 LLM calls)",
      "DeepEval's own calls, metric by metric (36 LLM calls)",
      "DeepEval-exact: its calls and defaults (36 LLM calls)",
    ]);
    // DeepEval-exact makes DeepEval's calls and has no list cap: the form stops asking for one.
    await structure.selectOption("exact");
    expect(await page.locator("[data-testid=expected-calls]").innerText()).toMatch(
      /Expected LLM calls: 36 at most \(faithfulness 12, summarization 20, custom 4\)/,
    );
    expect(await options.getByLabel("List cap (items per answer)").count()).toBe(0);
    await screenshot(page, "64-deepeval-exact-form");
    await structure.selectOption("deepeval");
    await options.getByLabel("List cap (items per answer)").fill("25");
    expect(await page.locator("[data-testid=expected-calls]").innerText()).toMatch(
      /Expected LLM calls: 36 at most \(faithfulness 12, summarization 20, custom 4\)/,
    );
    await expectNoCrashText(page);
    await screenshot(page, "64-deepeval-options-form");
  });

  it("stores the options with the run and says them on its page, with the G-Eval judge's scale and rubric", async () => {
    runId = await startAndFinish(page, "DeepEval options", 90_000);
    const run = await getRun(db, runId);
    expect(run?.config.deepEval).toEqual({
      callStructure: "deepeval",
      strictMode: true,
      includeReason: false,
      penalizeAmbiguousClaims: true,
      assessmentQuestions: ["Does the text state KEY1?", "Does the text state KEY3?"],
      listCap: 25,
    });
    expect(run?.config.gEvalJudges?.[0]).toMatchObject({
      scale: "0-10",
      evaluationSteps: ["Check the output answers the input.", "Penalise anything the source does not say."],
      rubric: [
        { scoreRange: [0, 3], expectedOutcome: "misses the question" },
        { scoreRange: [4, 7], expectedOutcome: "answers it in part" },
        { scoreRange: [8, 10], expectedOutcome: "answers it fully" },
      ],
    });
    expect(run?.config.thresholds[FAITHFULNESS]).toBe(1);
    expect(await page.locator("[data-testid=metric-setting]").allInnerTexts()).toContain(
      "· DeepEval: DeepEval's own calls, strict_mode on, include_reason off, list cap 25, penalize_ambiguous_claims on, summarization: 2 assessment questions of the run's own",
    );
    const panel = await page.locator("[data-testid=g-eval-steps]").innerText();
    expect(panel).toMatch(/scale 0–10 · pass mark 1\.00/); // strict mode's pass mark, not the definition's 0.50
    expect(panel).toContain("steps written by its author");
    expect(panel).toMatch(/8-10\s*answers it fully/);
    // Strict: rows with a contradicted claim score 0, the others 1; G-Eval likewise.
    expect(await page.locator(`a[data-metric="${FAITHFULNESS}"]`).innerText()).toContain("0.50");
    expect(await page.locator(`a[data-metric="${HELPFUL}"]`).innerText()).toContain("0.50");
    await expectNoCrashText(page);
    await screenshot(page, "65-deepeval-options-run");
  }, 120_000);

  it("shows on a row what strict mode did, without an overall reason, and the run's own summary questions", async () => {
    await page.goto(`${server.baseUrl}/runs/${runId}`);
    await waitForHydration(page, "[data-testid=run-rows-table] tbody tr");
    await page.locator("[data-testid=run-rows-table] tbody tr").first().click();
    await page.waitForURL((url) => url.pathname.includes("/rows/"));
    const faithfulness = page.locator(`[data-testid=judgment][data-metric="${FAITHFULNESS}"]`);
    await faithfulness.locator("[data-testid=verdict-details]").waitFor();
    const notes = await faithfulness.locator("[data-testid=verdict-note]").allInnerTexts();
    expect(notes).toEqual([
      "Ambiguous (idk) claims count against the score (penalize_ambiguous_claims).",
      "strict_mode: the score is 1 or 0, and the threshold is 1 (0 where lower is better).",
    ]);
    // 1 of 3 claims supported (the idk one penalised) before strict mode made it 0; judged in 3 calls.
    expect(await faithfulness.innerText()).toMatch(/score before strict mode\s*0\.33/);
    expect(await faithfulness.innerText()).toContain("Truths from the retrieval context");
    expect(await faithfulness.innerText()).toContain("deepeval_calls/v1 faithfulness (3 calls)");
    const summarization = await page
      .locator('[data-testid=judgment][data-metric="response/llm_judged/summarization"]')
      .innerText();
    expect(summarization).toContain("Coverage questions (the run's assessment questions)");
    expect(summarization).toContain("Does the text state KEY3?");
    await expectNoCrashText(page);
    await screenshot(page, "66-deepeval-options-row");
  });
});
