// The main path by keyboard alone, in Chromium on the built app: the datasets
// list → a dataset → one of its runs → a metric card → a row of its failures →
// back to the filtered table, with Tab and Enter only. Every element the Tab key
// stops on along the way must show where the focus is (an outline or a ring),
// and every page is audited by axe (see accessibility.ts).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { runToCompletion } from "../support/engineKit";
import type { AppServer } from "./appServer";
import {
  expectNoCrashText,
  openApp,
  screenshot,
  viewportScreenshot,
  waitForHydration,
  type OpenedApp,
  SUPPORT_SAMPLE,
} from "./helpers";

const CORRECTNESS = "response/llm_judged/correctness";
const MAX_TABS = 250;
const LONG_JUDGE = "cites_the_exact_documentation_page_and_section_it_relies_on";

let app: OpenedApp;
let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];
let datasetId = "";
let runId = "";

beforeAll(async () => {
  app = await openApp();
  ({ server, db, page, problems } = app);
  // The sample dataset prepare-db adds, and a finished run on it for the walk to open.
  const dataset = await db.dataset.findFirstOrThrow({ where: { name: SUPPORT_SAMPLE } });
  datasetId = dataset.id;
  ({ runId } = await runToCompletion(
    db,
    {
      datasetId,
      name: "Keyboard walk run",
      metrics: [CORRECTNESS, "response/llm_judged/relevance_to_query"],
      // A long custom name: cards, chart and table must wrap it at its "_" and "/", never cut a word.
      customJudges: [
        {
          assessmentName: LONG_JUDGE,
          assessmentType: "ANSWER",
          instructions: "The response names the documentation page it relies on, with its title.",
        },
      ],
      judge: { provider: "heuristic", model: HEURISTIC_MODEL },
    },
    null,
  ));
});

afterAll(async () => app?.close());

type FocusStop = { description: string; visible: boolean; matches: boolean };

/** What has the focus now, whether its focus is drawn (outline or box-shadow), and whether it matches `selector`. */
function focusStop(selector: string): Promise<FocusStop> {
  return page.evaluate((sel) => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { description: "body", visible: true, matches: false };
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== "none" && style.boxShadow !== "";
    // A focusable element hidden as 1 px (sr-only) can carry an outline nobody sees.
    const box = element.getBoundingClientRect();
    const sized = box.width > 2 && box.height > 2;
    const text = (element.innerText || element.getAttribute("aria-label") || "").trim().slice(0, 40);
    return {
      description: `<${element.tagName.toLowerCase()}${element.getAttribute("href") ? ` href="${element.getAttribute("href")}"` : ""}> ${text}`,
      visible: (outline || ring) && sized,
      matches: element.matches(sel),
    };
  }, selector);
}

/**
 * Presses Tab until the focused element matches `selector`, checking that every
 * stop on the way shows its focus; returns the stops without a visible focus.
 */
async function tabTo(selector: string): Promise<string[]> {
  const unseen: string[] = [];
  for (let presses = 0; presses < MAX_TABS; presses++) {
    await page.keyboard.press("Tab");
    const stop = await focusStop(selector);
    if (!stop.visible) unseen.push(stop.description);
    if (stop.matches) return unseen;
  }
  throw new Error(`Tab never reached ${selector} in ${MAX_TABS} presses (on ${page.url()})`);
}

async function pressEnterAndWait(predicate: (url: URL) => boolean): Promise<void> {
  await page.keyboard.press("Enter");
  await page.waitForURL(predicate);
}

describe("the main path by keyboard alone", () => {
  it("datasets list → dataset → run → metric card → a failed row → back, every focus stop visible", async () => {
    await page.goto(`${server.baseUrl}/datasets`);
    await waitForHydration(page, "[data-testid=datasets-table] a");
    const unseen: string[] = [];

    unseen.push(...(await tabTo(`[data-testid=datasets-table] a[href="/datasets/${datasetId}"]`)));
    await screenshot(page, "60-keyboard-datasets-focus");
    await pressEnterAndWait((url) => url.pathname === `/datasets/${datasetId}`);

    await waitForHydration(page, `a[href="/runs/${runId}"]`);
    unseen.push(...(await tabTo(`a[href="/runs/${runId}"]`)));
    await pressEnterAndWait((url) => url.pathname === `/runs/${runId}`);

    const card = `a[data-metric="${CORRECTNESS}"]`;
    await waitForHydration(page, card);
    unseen.push(...(await tabTo(card)));
    await screenshot(page, "61-keyboard-metric-card-focus");
    // The long name is whole in the page (wrapped, not cut) and whole on hover.
    const longName = `response/llm_judged/${LONG_JUDGE}/rating/percentage`;
    const longCard = page.locator(`a[data-metric="response/llm_judged/${LONG_JUDGE}"] code`);
    expect(await longCard.innerText()).toBe(longName);
    expect(await longCard.getAttribute("title")).toBe(longName);
    const overflow = await longCard.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow, "the metric name overflows its card").toBeLessThanOrEqual(0);
    // On the chart axis it wraps or ends in "…" at a boundary, the full name as its tooltip.
    const tick = page.locator("[data-testid=pass-rate-chart] text", { has: page.locator("title") }).filter({
      hasText: "cites_the_exact",
    });
    expect(await tick.locator("title").textContent()).toBe(`${LONG_JUDGE} (custom)`);
    const full = `${LONG_JUDGE} (custom)`;
    const lines = await tick.locator("tspan").allTextContents();
    expect(lines.length).toBeGreaterThanOrEqual(1);
    let at = 0;
    for (const line of lines) {
      const text = line.replace(/…$/, "");
      const start = full.indexOf(text, at);
      expect(start, `axis line "${line}" is not part of the name`).toBeGreaterThanOrEqual(0);
      // Each line starts, and an ellipsis cuts, only at a boundary: never inside a word.
      if (start > 0) expect(full[start - 1]).toMatch(/[ /_-]/);
      if (line.endsWith("…")) expect(full[start + text.length - 1] + full[start + text.length]).toMatch(/[ /_-]/);
      at = start + text.length;
    }
    await viewportScreenshot(page.locator("[data-testid=pass-rate-chart]"), "63-long-name-chart");
    await pressEnterAndWait((url) => url.searchParams.get("metric") === CORRECTNESS);
    await expect.poll(() => page.locator("#metric-filter").inputValue()).toBe(CORRECTNESS);

    const rowLink = "[data-testid=run-rows-table] tbody a";
    await waitForHydration(page, rowLink);
    unseen.push(...(await tabTo(rowLink)));
    await screenshot(page, "62-keyboard-row-focus");
    await pressEnterAndWait((url) => url.pathname.startsWith(`/runs/${runId}/rows/`));
    expect(await page.getByTestId("row-place").innerText()).toMatch(/^failed on correctness · 1 of \d+$/);

    // Back to the table through the header's link to the run, which keeps the filter.
    const back = `main a[href^="/runs/${runId}?"]`;
    await waitForHydration(page, back);
    unseen.push(...(await tabTo(back)));
    await pressEnterAndWait((url) => url.pathname === `/runs/${runId}`);
    expect(new URL(page.url()).searchParams.get("metric")).toBe(CORRECTNESS);
    await expect.poll(() => page.locator("#metric-filter").inputValue()).toBe(CORRECTNESS);

    expect(unseen, "focus stops that showed no outline or ring").toEqual([]);
    await expectNoCrashText(page);
    expect(problems).toEqual([]);
  }, 90_000);
});
