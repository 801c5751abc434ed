// Inspecting failed rows in Chromium on the built app, as a reviewer does it:
// upload an evaluation set, run the offline heuristic judge, open one metric's
// failures from its card and see the filter (select, tab, chips) with the filter
// bar in view, reach a row by keyboard alone and open it, read where it stands
// in the filter, press n to the next row that failed the same metric, and go
// back. Then a compare link that names a deleted run.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { SAMPLE_FILE } from "../support/engineKit";
import type { AppServer } from "./appServer";
import { startHeuristicRun } from "./runFormSteps";
import {
  expectNoCrashText,
  openApp,
  screenshot,
  viewportScreenshot,
  uploadThroughPage,
  waitForEffects,
  waitForHydration,
  type OpenedApp,
} from "./helpers";

const GROUNDEDNESS = "response/llm_judged/groundedness";
const GONE = "run-deleted-0000";

let app: OpenedApp;
let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];

beforeAll(async () => {
  app = await openApp();
  ({ server, db, page, problems } = app);
});

afterAll(async () => app?.close());

/** The row numbers that failed a metric in a run, in row order (what the filter must hold). */
async function failedRowNumbers(runId: string, metric: string): Promise<number[]> {
  const rows = await db.$queryRawUnsafe<{ rowNumber: number | bigint }[]>(
    `SELECT r."rowNumber" FROM "JudgmentItem" j JOIN "DatasetRow" r ON r."id" = j."rowId"
     WHERE j."runId" = ? AND j."metric" = ? AND j."status" = 'done' AND j."passed" = 0 ORDER BY r."rowNumber"`,
    runId,
    metric,
  );
  return rows.map((row) => Number(row.rowNumber));
}

/** Where the filter bar sits against the sticky header and the viewport. */
function filterBarPlacement() {
  return page.evaluate(() => {
    const bar = document.querySelector("[data-testid=row-filters]")?.getBoundingClientRect();
    const header = document.querySelector("body > header")?.getBoundingClientRect();
    return { top: bar?.top ?? -1, bottom: bar?.bottom ?? -1, headerBottom: header?.bottom ?? -1, height: innerHeight };
  });
}

describe("inspecting failed rows", () => {
  let datasetUrl = "";
  let runId = "";
  let failures: number[] = [];
  let firstRowUrl = "";

  it("uploads an evaluation set and runs the heuristic judge on it", async () => {
    const datasetId = await uploadThroughPage(page, server.baseUrl, SAMPLE_FILE, "Failed rows walk");
    datasetUrl = `${server.baseUrl}/datasets/${datasetId}`;
    runId = await startHeuristicRun(page, datasetUrl, "Heuristic for failed rows");
    failures = await failedRowNumbers(runId, GROUNDEDNESS);
    // The walk needs groundedness failures with other failures between them, or n could not go wrong.
    const failedAny = await db.$queryRawUnsafe<{ rowNumber: number | bigint }[]>(
      `SELECT DISTINCT r."rowNumber" FROM "JudgmentItem" j JOIN "DatasetRow" r ON r."id" = j."rowId"
       WHERE j."runId" = ? AND j."status" = 'done' AND j."passed" = 0 AND r."rowNumber" > ? AND r."rowNumber" < ?`,
      runId,
      failures[0],
      failures[1],
    );
    expect(failures.length).toBeGreaterThanOrEqual(3);
    expect(
      failedAny.length,
      "rows between the first two groundedness failures that failed another metric",
    ).toBeGreaterThan(0);
  }, 90_000);

  it("a metric card opens its failures with the filter shown and the filter bar in view", async () => {
    const card = `a[data-metric="${GROUNDEDNESS}"]`;
    // Hydrated, so the card navigates on the client as a reviewer's click does (no full page load).
    await waitForHydration(page, card);
    await page.locator(card).click();
    await page.waitForURL((url) => url.searchParams.get("metric") === GROUNDEDNESS);
    const rows = page.locator("[data-testid=run-rows-table] tbody tr");
    await expect.poll(() => rows.count()).toBe(Math.min(failures.length, 25));

    expect(await page.locator("#metric-filter").inputValue()).toBe(GROUNDEDNESS);
    expect(await page.locator('nav[aria-label="Row filter"] a[aria-current=page]').innerText()).toBe("Failed");
    const summary = page.locator("[data-testid=row-filter-summary]");
    expect((await summary.innerText()).replace(/\s+/g, " ")).toBe("Filtered: failed × on groundedness × Clear all");
    const chipHrefs = await summary
      .locator("a[data-chip]")
      .evaluateAll((links) => links.map((link) => [link.getAttribute("data-chip"), link.getAttribute("href")]));
    expect(chipHrefs).toEqual([
      ["filter", expect.stringMatching(/[?&]filter=all(&|$)/)],
      ["metric", expect.not.stringContaining("metric=")],
    ]);

    // The jump to #rows lands with the whole filter bar below the sticky header.
    await expect
      .poll(filterBarPlacement, { timeout: 5_000 })
      .toSatisfy(
        (p: Awaited<ReturnType<typeof filterBarPlacement>>) =>
          p.headerBottom > 0 && p.top >= p.headerBottom && p.bottom <= p.height,
      );
    await viewportScreenshot(page, "30-filtered-rows");
  });

  it("Tab reaches a row's link, with a visible focus ring, and Enter opens the row within the filter", async () => {
    await waitForHydration(page, "[data-testid=run-rows-table] tbody tr");
    await page.locator('[data-testid=row-filters] form[role=search] button[type="submit"]').focus();
    let onRow = false;
    for (let presses = 0; presses < 10 && !onRow; presses++) {
      await page.keyboard.press("Tab");
      onRow = await page.evaluate(() => document.activeElement?.closest("[data-testid=run-rows-table] tbody") !== null);
    }
    expect(onRow, "Tab never reached a row of the table").toBe(true);
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const style = getComputedStyle(element);
      return {
        tag: element.tagName,
        href: element.getAttribute("href") ?? "",
        text: element.innerText,
        outline: `${style.outlineStyle} ${style.outlineWidth}`,
      };
    });
    expect(focused.tag).toBe("A");
    const href = new URL(focused.href, server.baseUrl);
    expect(href.pathname).toMatch(new RegExp(`^/runs/${runId}/rows/[^/]+$`));
    expect(href.searchParams.get("filter")).toBe("failed");
    expect(href.searchParams.get("metric")).toBe(GROUNDEDNESS);
    expect(focused.outline).not.toMatch(/^none|\b0px$/);
    await viewportScreenshot(page, "30-row-link-focused");

    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === href.pathname);
    firstRowUrl = page.url();
    const place = page.locator("[data-testid=row-place]");
    expect(await place.innerText()).toBe(`failed on groundedness · 1 of ${failures.length}`);
    expect(await page.locator("h1").innerText()).toContain(`Row ${failures[0]}`);
    await expectNoCrashText(page);
    await screenshot(page, "31-row-in-filter");
  });

  it("n moves to the next row that also failed groundedness, and back returns through the filter", async () => {
    await waitForHydration(page, 'nav[aria-label="Row navigation"] a');
    await waitForEffects(page);
    await page.keyboard.press("n");
    await page.waitForURL((url) => url.href !== firstRowUrl);
    const place = page.locator("[data-testid=row-place]");
    await expect.poll(() => place.innerText()).toBe(`failed on groundedness · 2 of ${failures.length}`);
    expect(await page.locator("h1").innerText()).toContain(`Row ${failures[1]}`);
    const groundedness = page.locator(`[data-testid=judgment][data-metric="${GROUNDEDNESS}"]`);
    expect(await groundedness.innerText()).toMatch(/^no\b/m);
    expect(new URL(page.url()).searchParams.get("metric")).toBe(GROUNDEDNESS);
    await screenshot(page, "31-row-after-n");

    await page.goBack();
    await page.waitForURL(firstRowUrl);
    await expect.poll(() => place.innerText()).toBe(`failed on groundedness · 1 of ${failures.length}`);
    await page.getByRole("link", { name: "Heuristic for failed rows" }).click();
    await page.waitForURL((url) => url.pathname === `/runs/${runId}` && url.searchParams.has("metric"));
    await expect.poll(() => page.locator("#metric-filter").inputValue()).toBe(GROUNDEDNESS);
    expect(await page.locator("[data-testid=row-filter-summary]").innerText()).toContain("on groundedness");
  });

  it("a page past the end of the rows shows the last page", async () => {
    await page.goto(`${server.baseUrl}/runs/${runId}?filter=failed&metric=${GROUNDEDNESS}&page=999#rows`);
    const text = await page.locator("#rows [data-testid=pager]").innerText();
    expect(text).toContain(`1–${failures.length} of ${failures.length}`);
    expect(text).toContain("Page 1 of 1");
    expect(await page.locator("[data-testid=run-rows-table] tbody tr").count()).toBe(failures.length);
  });

  it("a compare link with a deleted run keeps the remaining runs, names the missing one and offers the picker", async () => {
    const secondId = await startHeuristicRun(page, datasetUrl, "Second heuristic run");
    await page.goto(`${server.baseUrl}/compare?runs=${runId},${GONE},${secondId}&baseline=${GONE}`);
    const notice = page.locator("[data-testid=missing-runs]");
    expect(await notice.innerText()).toContain(`Run ${GONE} no longer exists`);
    expect(await page.locator("[data-testid=metric-comparison]").innerText()).toContain(
      "response/llm_judged/groundedness/rating/percentage",
    );
    expect(await page.locator("[data-testid=run-picker]").isVisible()).toBe(true);

    await page.goto(`${server.baseUrl}/compare?runs=${runId},${GONE}`);
    expect(await notice.innerText()).toContain(GONE);
    expect(await page.getByLabel("Compare Heuristic for failed rows").isChecked()).toBe(true);
    await expectNoCrashText(page);
    expect(problems).toEqual([]);
  }, 90_000);
});
