// Labels on a run's own judges in Chromium on the built app: a run with a
// custom ANSWER judge and a G-Eval judge through the fake OpenAI server, both
// labelled on the drill-down with the keyboard, then seen in the agreement
// panel and beside their verdicts in the rows table (marked where the judge
// disagrees).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import type { Responder } from "../support/fakeOpenAIServer";
import { toJsonl } from "../support/evalFiles";
import type { AppServer } from "./appServer";
import { openAppWithFakeLlm, type FakeLlmApp } from "./fakeLlmApp";
import {
  expectNoCrashText,
  screenshot,
  viewportScreenshot,
  tempDir,
  uploadThroughPage,
  VALID_ROWS,
  waitForEffects,
  waitForHydration,
  writeFile,
} from "./helpers";

const CLARITY = "response/llm_judged/g_eval/clarity";
const CITES = "response/llm_judged/cites_docs";

/** G-Eval scores every row 5 (1.00, a pass at 0.5); the custom judge says yes to every response. */
const responder: Responder = (body) => {
  const name = body.response_format?.json_schema?.name;
  if (name === "g_eval_steps") return JSON.stringify({ steps: ["Read the answer.", "Score 1-5."] });
  if (name === "g_eval_score") return JSON.stringify({ score: 5, reason: "clear enough" });
  if (name === "custom_answer_verdict") return JSON.stringify({ rationale: "it cites a page", rating: "yes" });
  return undefined;
};

let app: FakeLlmApp;
let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];

beforeAll(async () => {
  app = await openAppWithFakeLlm({ responder, latencyMs: 5 });
  ({ server, db, page, problems } = app);
});

afterAll(async () => {
  await app?.close();
});

describe("labels on custom and G-Eval judges", () => {
  let runId = "";

  it("runs a custom judge and a G-Eval judge through the fake LLM", async () => {
    const file = writeFile(tempDir(), "rows.jsonl", toJsonl(VALID_ROWS.slice(0, 6)));
    const datasetId = await uploadThroughPage(page, server.baseUrl, file, "Custom labels");
    await page.goto(`${server.baseUrl}/datasets/${datasetId}/runs/new`);
    await waitForHydration(page, "[data-testid=run-form] button[type=submit]");
    const ticked = page.locator("[data-testid=run-form] input[name=metrics]:checked");
    while ((await ticked.count()) > 0) await ticked.first().uncheck();
    await page.getByRole("button", { name: "+ Add a G-Eval judge" }).click();
    await page.getByLabel("G-Eval name").fill("clarity");
    await page.getByLabel("G-Eval criteria").fill("Clarity: the answer reads as one clear statement.");
    await page.getByRole("button", { name: "+ Add a custom judge" }).click();
    await page.getByLabel("assessment_name").fill("cites_docs");
    await page.getByLabel("Instructions: what earns a yes").fill("The response cites the documentation it uses.");
    await page.getByPlaceholder("gpt-4.1 + reranker v2").fill("Own judges");
    await page.getByRole("button", { name: "Start run" }).click();
    await page.waitForURL((url) => /^\/runs\/[^/]+$/.test(url.pathname));
    await page.locator("[data-testid=run-status]", { hasText: "completed" }).waitFor({ timeout: 90_000 });
    runId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    const done = await db.judgmentItem.count({ where: { runId, status: "done", metric: { in: [CLARITY, CITES] } } });
    expect(done).toBe(12);
  }, 150_000);

  it("labels both on the drill-down with the keyboard, against the judge", async () => {
    const first = await db.judgmentItem.findFirst({
      where: { runId, metric: CITES },
      include: { row: true },
      orderBy: { row: { rowNumber: "asc" } },
    });
    await page.goto(`${server.baseUrl}/runs/${runId}/rows/${first?.rowId}`);
    await waitForHydration(page, "[data-testid=label-controls] button");
    await waitForEffects(page);
    const cites = page.locator(`[data-testid=label-controls] li[data-label-target="cites_docs"]`);
    const clarity = page.locator(`[data-testid=label-controls] li[data-label-target="clarity"]`);
    expect(await cites.innerText()).toContain("judge: yes");
    expect(await clarity.innerText()).toMatch(/judge: 1\.00 \(pass at 0\.50\)/);

    await page.keyboard.press((await cites.locator("kbd").innerText()).trim());
    await page.keyboard.press("n");
    await expect
      .poll(() => cites.locator("[data-testid=current-label]").innerText(), { timeout: 10_000 })
      .toBe("label: no (disagrees)");

    await page.keyboard.press((await clarity.locator("kbd").innerText()).trim());
    await page.keyboard.type("0.2");
    await page.keyboard.press("Enter");
    await expect
      .poll(() => clarity.locator("[data-testid=current-label]").innerText(), { timeout: 10_000 })
      .toBe("label: 0.2 (disagrees)");
    await screenshot(page, "70-custom-judges-drilldown-labelled");
    const stored = await db.humanLabel.findMany({ where: { rowId: first?.rowId }, orderBy: { metric: "asc" } });
    expect(stored.map((label) => [label.metric, label.kind, label.rating, label.score])).toEqual([
      [CITES, "rating", "no", null],
      [CLARITY, "score", null, 0.2],
    ]);
  }, 60_000);

  it("the agreement panel counts them, and the rows table shows each label beside its verdict", async () => {
    await page.goto(`${server.baseUrl}/runs/${runId}`);
    for (const [metric, kind] of [
      [CITES, "(custom)"],
      [CLARITY, "(G-Eval)"],
    ] as const) {
      const row = page.locator(`[data-testid=agreement-table] tr[data-metric="${metric}"]`);
      // The run's own judges say what they are: their short name alone could be a catalogue metric's.
      expect(await row.locator(":scope > th").innerText()).toContain(kind);
      const cells = await row.locator(":scope > td").allInnerTexts();
      expect(Number(cells[3])).toBe(1);
      const matrix = (await row.locator("table td").allInnerTexts()).filter((t) => /^\d+$/.test(t.trim()));
      // Judge yes / pass, person no / fail: the yes-no cell.
      expect(matrix.map(Number)).toEqual([0, 1, 0, 0]);
    }
    await page.locator("[data-testid=agreement-panel]").scrollIntoViewIfNeeded();
    await screenshot(page, "71-custom-judges-agreement");

    const markers = page.locator("[data-testid=run-rows-table] [data-testid=label-marker]");
    await expect.poll(() => markers.count()).toBe(2);
    // Columns in the run's order: the custom judge, then the G-Eval judge.
    expect(await markers.locator("[data-testid=label-marker-words]").allTextContents()).toEqual([
      "Human label on cites_docs: no; the judge disagrees",
      "Human label on clarity: 0.20; the judge disagrees",
    ]);
    expect(await markers.evaluateAll((all) => all.map((m) => m.getAttribute("data-disagrees")))).toEqual([
      "true",
      "true",
    ]);
    expect(await markers.last().locator("[aria-hidden=true]").allTextContents()).toEqual(["≠ ", "label: 0.20"]);
    await page.locator("[data-testid=run-rows-table]").scrollIntoViewIfNeeded();
    await screenshot(page, "72-rows-table-with-labels");
    // The table alone, at a size where the markers can be read.
    await viewportScreenshot(page.locator("[data-testid=run-rows-table]"), "73-rows-table-with-labels-close");
    await expectNoCrashText(page);
    expect(problems).toEqual([]);
  });
});
