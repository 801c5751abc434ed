// A reviewer's whole day, in one walk, in Chromium on the built app with sign-in on and the LLM a fake OpenAI
// server on 127.0.0.1: an admin uploads a Braintrust file (read with its one-line notice), judges the file's
// own responses, pages the rows table without losing their place, jumps from a metric card to the failed
// rows, labels a failed row by keyboard, generates responses with two model versions (whose rows show that
// label as given on another response, counted nowhere), compares them (judges, summary line, latency and
// tokens, a flip with its ground truth, stepped with j), exports the comparison with its statistics; then a
// viewer signs in and sees what a viewer may do, and no label buttons. The same walk runs on each store, one
// file per store (reviewerDay.test.ts, reviewerDayPostgres.test.ts), so that the two can run side by side.
import fs from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import type { Responder } from "../support/fakeOpenAIServer";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { toJsonl } from "../support/evalFiles";
import type { AppServer } from "./appServer";
import { createUsers, E2E_AUTH_SECRET, USERS } from "./authSession";
import { openAppWithFakeLlm, type FakeLlmApp } from "./fakeLlmApp";
import {
  chooseFile,
  clickUpload,
  expectNoCrashText,
  screenshot,
  tempDir,
  waitForDatasetPage,
  waitForEffects,
  waitForHydration,
  writeFile,
} from "./helpers";
import { openRunForm, startAndFinish } from "./runFormSteps";
import { signInThroughPage, signOutThroughPage } from "./signInPage";

/** Enough rows for three pages of 25, so Next is still there on page 2. */
const ROWS = 60;
const CORRECTNESS = "response/llm_judged/correctness";
const SAFETY = "response/llm_judged/safety";

/** Every third row's own response carries the fake judge's "no" marker, so those rows fail every judge. */
const failsOnOwnResponse = (n: number) => n % 3 === 0;
/** model-v2 answers rows 1–10 with the marker (a real regression against model-v1), and at greater length. */
const responder: Responder = (body, ctx) => {
  if (ctx.mode === "text") {
    const prompt = JSON.stringify(body.messages);
    const number = Number(/Question (\d+)\b/.exec(prompt)?.[1] ?? 0);
    if (body.model === "model-v2") return `${"A longer generated answer. ".repeat(12)}${number <= 10 ? " NO:all" : ""}`;
    return "A generated answer. ".repeat(3);
  }
  return fakeJudgeResponder(body, ctx);
};

/** Braintrust records: input, output, expected, metadata. */
function braintrustRecords() {
  return Array.from({ length: ROWS }, (_, i) => ({
    id: `q${i + 1}`,
    input: `Question ${i + 1}: how do I rotate the API key of project ${i + 1}?`,
    output: `Open project ${i + 1}'s settings and choose Rotate key.${failsOnOwnResponse(i + 1) ? " NO:all" : ""}`,
    expected: `Project ${i + 1}: Settings, then Rotate key.`,
    metadata: { team: "support" },
  }));
}

/** The walk on one store: SQLite, the default, or PostgreSQL, the team store. */
export function describeReviewerDay(store: "sqlite" | "postgresql"): void {
  let app: FakeLlmApp;
  let server: AppServer;
  let db: Db;
  let page: Page;
  let problems: string[];
  const files = tempDir();
  afterAll(() => fs.rmSync(files, { recursive: true, force: true }));

  /** Where the page is, whether the rows table is in view, and what has the focus. */
  function place() {
    return page.evaluate(() => {
      const table = document.querySelector("[data-testid=run-rows-table]")?.getBoundingClientRect();
      const focused = document.activeElement as HTMLElement | null;
      return {
        scrollY: Math.round(window.scrollY),
        tableInView: !!table && table.top < innerHeight && table.bottom > 0,
        focusKey: focused?.dataset.focusKey ?? focused?.dataset.testid ?? focused?.tagName ?? "",
      };
    });
  }

  describe(`a reviewer's day on ${store}, from upload to compare`, () => {
    beforeAll(async () => {
      app = await openAppWithFakeLlm({
        responder,
        latencyMs: 2,
        store,
        env: { ASSAY_AUTH_SECRET: E2E_AUTH_SECRET },
      });
      ({ server, db, page, problems } = app);
      await page.setViewportSize({ width: 1280, height: 900 });
      await createUsers(server.databaseUrl, [USERS.admin, USERS.viewer]);
    }, 240_000);

    afterAll(async () => {
      await app?.close();
    });

    let datasetId = "";
    let ownRun = "";
    let v1 = "";
    let v2 = "";
    let labelledRowId = "";

    it("an admin signs in and uploads a Braintrust file, read with its notice and its metadata warning", async () => {
      await signInThroughPage(page, server.baseUrl, USERS.admin, { problems, serverOutput: server.output });
      await chooseFile(page, server.baseUrl, writeFile(files, "support.jsonl", toJsonl(braintrustRecords())));
      await clickUpload(page, "Support answers");
      await page.locator("[data-testid=upload-notice]").waitFor();
      expect(await page.locator("[data-testid=upload-notice]").innerText()).toMatch(/^Read as Braintrust records: /);
      expect(await page.locator("[data-testid=upload-warnings] li").allInnerTexts()).toEqual([
        expect.stringMatching(/^Unknown column "metadata" was ignored/),
      ]);
      await screenshot(page, `90-day-upload-${store}`);
      await page.getByRole("link", { name: "Open the dataset" }).click();
      datasetId = await waitForDatasetPage(page);
      const stored = await db.datasetRow.findFirstOrThrow({ where: { datasetId, rowNumber: 3 } });
      expect(stored.response).toContain("Open project 3's settings");
      expect(stored.expectedResponse).toBe("Project 3: Settings, then Rotate key.");
    });

    it("judges the file's own responses; paging keeps the table in view and the focus on Next", async () => {
      await openRunForm(page, server.baseUrl, datasetId);
      ownRun = await startAndFinish(page, "Own responses", 120_000);
      await waitForHydration(page, "[data-testid=run-rows-table] thead button");
      expect(await page.locator("#rows [data-testid=pager-top] [data-testid=pager-range]").innerText()).toBe(
        `1–25 of ${ROWS} rows`,
      );
      const next = page.locator('#rows [data-testid=pager] a[rel="next"]');
      await next.focus();
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.searchParams.get("page") === "2");
      await waitForEffects(page);
      await expect.poll(async () => (await place()).focusKey, { timeout: 5_000 }).toBe("pager-bottom-next");
      const after = await place();
      expect(after.tableInView).toBe(true);
      expect(after.scrollY).toBeGreaterThan(0);
      await screenshot(page, `91-day-rows-page-2-${store}`);
    }, 150_000);

    it("a correctness card's jump puts the focus on the failed rows' filter, and a failed row opens", async () => {
      await page.goto(`${server.baseUrl}/runs/${ownRun}`);
      const card = page.locator(`a[data-metric="${CORRECTNESS}"]`);
      await waitForHydration(page, `a[data-metric="${CORRECTNESS}"]`);
      await card.focus();
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.searchParams.get("metric") === CORRECTNESS);
      await waitForEffects(page);
      await expect
        // The filtered view mounts when the server has answered, which on a loaded machine is past poll's 1 s.
        .poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? ""), {
          timeout: 10_000,
        })
        .toBe("row-filter-summary");
      const rows = page.locator("[data-testid=run-rows-table] tbody tr");
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(ROWS / 3);
      // A few Tabs reach the first failed row.
      let tabs = 0;
      while (tabs < 10) {
        await page.keyboard.press("Tab");
        tabs++;
        const inRow = await page.evaluate(
          () => !!document.activeElement?.closest("[data-testid=run-rows-table] tbody"),
        );
        if (inRow) break;
      }
      expect(tabs).toBeLessThan(10);
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname.includes("/rows/"));
      labelledRowId = new URL(page.url()).pathname.split("/").at(-1)!;
      const correctness = page.locator(`[data-testid=judgment][data-metric="${CORRECTNESS}"]`);
      await correctness.waitFor();
      // Opened from far down the table, the row's heading is not left under the sticky header.
      const heading = await page.evaluate(() => ({
        top: document.querySelector("main h1")?.getBoundingClientRect().top ?? -1,
        headerBottom: document.querySelector("body > header")?.getBoundingClientRect().bottom ?? 0,
      }));
      expect(heading.top).toBeGreaterThanOrEqual(heading.headerBottom);
      expect(await correctness.innerText()).toMatch(/^no\b/m);
      expect(await page.locator("[data-testid=ground-truth]").innerText()).toMatch(/Settings, then Rotate key/);
      await screenshot(page, `92-day-failed-row-${store}`);
    });

    it("labels the failed row's correctness by keyboard", async () => {
      await labelByKeyboard(page, "correctness", "y");
      await screenshot(page, `93-day-labelled-${store}`);
    });

    it("generates responses with two model versions; their rows show the label as given on another response", async () => {
      for (const model of ["model-v1", "model-v2"]) {
        await openRunForm(page, server.baseUrl, datasetId);
        await page.getByLabel(/^Generate responses/).check();
        await page.getByPlaceholder("gpt-4.1-mini").fill(model);
        const id = await startAndFinish(page, `Support bot ${model}`, 180_000);
        if (model === "model-v1") v1 = id;
        else v2 = id;
      }
      await page.goto(`${server.baseUrl}/runs/${v1}/rows/${labelledRowId}`);
      const target = page.locator(`[data-testid=label-controls] li[data-label-target="correctness"]`);
      await target.waitFor();
      expect(await target.locator("[data-testid=current-label]").innerText()).toMatch(/labelled on another response/);
      expect(await target.locator("[data-testid=current-label]").innerText()).not.toMatch(/disagrees/);
      await screenshot(page, `94-day-generated-row-label-${store}`);
      // The agreement panel counts it nowhere and says it was left out.
      await page.goto(`${server.baseUrl}/runs/${v1}`);
      const panel = page.locator("[data-testid=agreement-panel]");
      await panel.waitFor();
      expect(await panel.innerText()).toMatch(/1 label left out: given on another response/);
    }, 420_000);

    it("compares the two model versions: judges, one summary line, latency and tokens, the deltas", async () => {
      await page.goto(`${server.baseUrl}/compare?runs=${v1},${v2}&baseline=${v1}`);
      await page.locator("[data-testid=metric-comparison]").waitFor();
      expect(await page.locator("[data-testid=run-judging]").innerText()).toMatch(/model-v1[\s\S]*model-v2/);
      await expect
        .poll(() => page.locator("[data-testid=verdict-summary]").innerText(), { timeout: 30_000 })
        .toMatch(/^[1-9]\d* real regressions?, \d+ real improvements?, \d+ likely noise/);
      const safety = page.locator(`[data-testid=metric-comparison] tr[data-metric="${SAFETY}"]`);
      expect(await safety.innerText()).toMatch(/real regression/i);
      const output = page.locator('[data-testid=metric-comparison] tr[data-metric="agent/total_output_token_count"]');
      await expect.poll(() => output.locator("[data-testid=delta-words]").innerText()).toMatch(/Real .*\+\d+ tokens/);
      // Sub-second latency deltas read in milliseconds, not "+0.00 s".
      const latency = page.locator('[data-testid=metric-comparison] tr[data-metric="agent/latency_seconds"]');
      expect(await latency.locator("[data-testid=delta-words]").innerText()).toMatch(
        /^[^:]+: [+\u2212]?\d+ ms \(95% CI/,
      );
      await expectNoCrashText(page);
      await screenshot(page, `95-day-compare-${store}`);
    }, 120_000);

    it("opens a flipped row with its ground truth and steps to the next flip with j", async () => {
      const links = page.locator("[data-testid=flip] a");
      expect(await links.count()).toBeGreaterThanOrEqual(2);
      const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
      await links.first().click();
      await page.waitForURL((url) => url.pathname === "/compare/row");
      await waitForHydration(page, "[data-testid=flip-place]");
      expect(await page.locator("[data-testid=flip-place]").innerText()).toMatch(/^flip 1 of \d+/);
      expect(await page.locator("[data-testid=ground-truth]").innerText()).toMatch(/Settings, then Rotate key/);
      const sides = await page.locator("[data-testid=side-by-side]").innerText();
      expect(sides).toContain("Support bot model-v1");
      expect(sides).toContain("Support bot model-v2");
      await screenshot(page, `96-day-flipped-row-${store}`);
      const second = new URL(hrefs[1], server.baseUrl).searchParams;
      await page.keyboard.press("j");
      await page.waitForURL(
        (url) =>
          url.searchParams.get("row") === second.get("row") && url.searchParams.get("metric") === second.get("metric"),
      );
      await waitForHydration(page, "[data-testid=flip-place]");
      expect(await page.locator("[data-testid=flip-place]").innerText()).toMatch(/^flip 2 of \d+/);
    });

    it("exports the comparison with its statistics and flipped rows, under a name that carries the runs' ids", async () => {
      const response = await page.request.get(
        `${server.baseUrl}/compare/export?runs=${v1},${v2}&baseline=${v1}&format=json`,
      );
      expect(response.status()).toBe(200);
      expect(response.headers()["content-disposition"]).toContain(v1.slice(-8));
      const body = (await response.json()) as {
        statistics: { metric: string; verdict: string; words: string; p_value: number | null; regressions: number }[];
        flipped_rows: unknown[];
      };
      const safety = body.statistics.find((s) => s.metric.startsWith(SAFETY));
      expect(safety).toMatchObject({ verdict: "worse", regressions: 10 });
      expect(safety?.p_value).toBeLessThan(0.05);
      expect(safety?.words).toMatch(/real regression/i);
      expect(body.flipped_rows.length).toBeGreaterThanOrEqual(10);
    });

    it("a viewer signs in, reads the row and the comparison, and is offered no label buttons", async () => {
      await signOutThroughPage(page);
      await signInThroughPage(page, server.baseUrl, USERS.viewer, { problems, serverOutput: server.output });
      await page.goto(`${server.baseUrl}/runs/${ownRun}/rows/${labelledRowId}`);
      await page.locator(`[data-testid=judgment][data-metric="${CORRECTNESS}"]`).waitFor();
      expect(await page.locator("[data-testid=label-controls] button").count()).toBe(0);
      expect(await page.locator("[data-testid=label-controls] kbd").count()).toBe(0);
      await screenshot(page, `97-day-viewer-row-${store}`);
      await page.goto(`${server.baseUrl}/compare?runs=${v1},${v2}&baseline=${v1}`);
      await page.locator("[data-testid=metric-comparison]").waitFor();
      await expectNoCrashText(page);
      expect(problems).toEqual([]);
    });
  });
}

/** Picks a label line by its key and answers yes or no, as the drill-down's keyboard hints say. */
async function labelByKeyboard(page: Page, target: string, answer: "y" | "n"): Promise<void> {
  const line = page.locator(`[data-testid=label-controls] li[data-label-target="${target}"]`);
  await waitForHydration(page, "[data-testid=label-controls] button");
  await waitForEffects(page);
  for (const key of (await line.locator("kbd").first().innerText()).trim().split(/\s+/)) await page.keyboard.press(key);
  await expect.poll(() => line.getAttribute("aria-current")).toBe("true");
  await page.keyboard.press(answer);
  await expect
    .poll(() => line.locator("[data-testid=current-label]").innerText(), { timeout: 10_000 })
    .toMatch(answer === "y" ? /^label: yes/ : /^label: no/);
}
