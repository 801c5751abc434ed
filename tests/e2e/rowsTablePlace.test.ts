// The run page's rows table keeps a reviewer's place, in Chromium on the built
// app, on a run with 18 metrics (whose cards and charts put the table thousands
// of pixels down the page): every control of the table (Next, the page size, the
// "Failed on" select, search, a sort header) lands with the table in view and
// the focus back on the control used; a metric card's jump and the skip link
// put the focus on the filter summary, a few Tabs from the first row; the metric
// columns can be chosen (kept in the URL), the filtered one tinted, and any
// metric sorted worst first; the row count is at the top. Then a running run's
// page says when its updates stop arriving.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { writeLabels } from "@/lib/db/labels/labelWrites";
import { createRun } from "@/lib/engine/createRun";
import { METRICS } from "@/lib/contract/metricCatalog";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import type { AppServer } from "./appServer";
import { openApp, screenshot, viewportScreenshot, waitForEffects, waitForHydration, type OpenedApp } from "./helpers";

const ROWS = 60;
/** 18 metrics: the wide run a reviewer tried. */
const RUN_METRICS = METRICS.slice(0, 18).map((metric) => metric.name);
const CORRECTNESS = "response/llm_judged/correctness";
const HALLUCINATION = "response/llm_judged/hallucination";
const IDEAL_CONTEXT = "needs expected_retrieved_context[].content (the ideal context)";

let app: OpenedApp;
let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];
let runId = "";
let runUrl = "";

beforeAll(async () => {
  app = await openApp();
  ({ server, db, page, problems } = app);
  await page.setViewportSize({ width: 1280, height: 900 });
});

afterAll(async () => app?.close());

/**
 * A finished run written straight to the database, its verdicts following the
 * row number: every metric fails every 3rd row, with a score falling as the
 * row number grows; hallucination skipped everywhere for want of the ideal
 * context (the card that said "no row could be judged" and "no row judged yet").
 */
async function seedWideRun(datasetId: string, name: string, status: string): Promise<string> {
  const id = await createRun(db, {
    datasetId,
    metrics: RUN_METRICS,
    judge: { provider: "heuristic", model: "heuristic" },
    name,
  });
  // A running run is leased to another (pretend) process for an hour: left unleased it is an orphan, which
  // the server's worker adopts and, finding nothing pending, finishes, racing the test that watches it run.
  const running = status === "running";
  await db.run.update({
    where: { id },
    data: {
      status,
      startedAt: new Date(),
      finishedAt: status === "done" ? new Date() : null,
      ...(running ? { leaseOwner: "another-process", leaseExpiresAt: new Date(Date.now() + 3_600_000) } : {}),
    },
  });
  await db.$executeRawUnsafe(
    `UPDATE "JudgmentItem" SET
       "status" = CASE WHEN "metric" = ? THEN 'skipped' ELSE 'done' END,
       "skipReason" = CASE WHEN "metric" = ? THEN ? ELSE NULL END,
       "passed" = CASE WHEN "metric" = ? THEN NULL WHEN r % 3 = 0 THEN 0 ELSE 1 END,
       "rating" = CASE WHEN "metric" = ? THEN NULL WHEN r % 3 = 0 THEN 'no' ELSE 'yes' END,
       "score" = CASE WHEN "metric" = ? THEN NULL ELSE 1.0 - r / 100.0 END
     FROM (SELECT "id" AS rid, "rowNumber" AS r FROM "DatasetRow") WHERE rid = "JudgmentItem"."rowId" AND "runId" = ?`,
    HALLUCINATION,
    HALLUCINATION,
    IDEAL_CONTEXT,
    HALLUCINATION,
    HALLUCINATION,
    HALLUCINATION,
    id,
  );
  return id;
}

/** Where the page is and whether the rows table can be seen, and what has the focus. */
function place() {
  return page.evaluate(() => {
    const table = document.querySelector("[data-testid=run-rows-table]")?.getBoundingClientRect();
    const focused = document.activeElement as HTMLElement | null;
    return {
      scrollY: Math.round(window.scrollY),
      tableInView: !!table && table.top < innerHeight && table.bottom > 0,
      focusKey: focused?.dataset.focusKey ?? focused?.tagName ?? "",
    };
  });
}

/**
 * Waits for the view a control asked for: its URL, its rows, React's effects,
 * and the focus on the control of `focusKey` (it comes back in an effect of the
 * new view; after a full page load that can be a moment after hydration).
 */
async function arrive(check: (url: URL) => boolean, focusKey?: string) {
  await page.waitForURL((url) => check(url));
  await page.locator("[data-testid=run-rows-table] tbody tr").first().waitFor();
  await waitForHydration(page, "[data-testid=run-rows-table] thead button");
  await waitForEffects(page);
  // The focus is given back from an effect of the rows section, which on a busy machine (CI's browser tests, two at
  // a time on two cores) hydrates well after the header the wait above looks at: 5 s was once not enough.
  if (focusKey) await expect.poll(async () => (await place()).focusKey, { timeout: 20_000 }).toBe(focusKey);
}

describe("the rows table keeps the reviewer's place on a run with 18 metrics", () => {
  it("seeds a finished wide run; its table starts far down the page", async () => {
    const datasetId = await importRows(db, syntheticRows(ROWS, 1));
    runId = await seedWideRun(datasetId, "Wide run", "done");
    runUrl = `${server.baseUrl}/runs/${runId}`;
    await page.goto(runUrl);
    await waitForHydration(page, "[data-testid=run-rows-table] thead button");
    const tableTop = await page.evaluate(
      () => (document.getElementById("rows")?.getBoundingClientRect().top ?? 0) + window.scrollY,
    );
    expect(tableTop).toBeGreaterThan(1500);
    expect(await place()).toMatchObject({ scrollY: 0, tableInView: false });
  });

  it("shows the row count above the table, not only below it", async () => {
    expect(await page.locator("#rows [data-testid=pager-top] [data-testid=pager-range]").innerText()).toBe(
      `1–25 of ${ROWS} rows`,
    );
  });

  it("Next keeps the table in view and the focus on Next", async () => {
    const next = page.locator('#rows [data-testid=pager] a[rel="next"]');
    await next.focus();
    await page.keyboard.press("Enter");
    await arrive((url) => url.searchParams.get("page") === "2", "pager-bottom-next");
    expect(new URL(page.url()).hash).toBe("#rows");
    const after = await place();
    expect(after.scrollY).toBeGreaterThan(1000);
    expect(after).toMatchObject({ tableInView: true, focusKey: "pager-bottom-next" });
    await screenshot(page, "80-rows-after-next");
    // What the reviewer sees: the viewport, not the whole page.
    await viewportScreenshot(page, "80-rows-after-next-viewport");
  });

  it("a page size keeps the table in view and the focus on that size", async () => {
    await page.locator("#rows [data-testid=pager] a", { hasText: /^50$/ }).click();
    await arrive((url) => url.searchParams.get("pageSize") === "50", "pager-bottom-size50");
    const after = await place();
    expect(after.scrollY).toBeGreaterThan(1000);
    expect(after).toMatchObject({ tableInView: true, focusKey: "pager-bottom-size50" });
  });

  it("the Failed on select keeps the table in view and the focus on Show", async () => {
    await page.locator("#metric-filter").selectOption(CORRECTNESS);
    await page.locator("[data-focus-key=metric-filter-submit]").click();
    await arrive((url) => url.searchParams.get("metric") === CORRECTNESS, "metric-filter-submit");
    const after = await place();
    expect(after.scrollY).toBeGreaterThan(1000);
    expect(after).toMatchObject({ tableInView: true, focusKey: "metric-filter-submit" });
    expect(await page.locator("[data-testid=run-rows-table] tbody tr").count()).toBe(ROWS / 3);
    // The filtered metric's column is tinted, and first.
    const highlighted = page.locator("[data-testid=run-rows-table] thead th[data-highlighted]");
    expect(await highlighted.count()).toBe(1);
    expect(await highlighted.locator("span[title]").getAttribute("title")).toContain(CORRECTNESS);
    await screenshot(page, "80-rows-failed-on-correctness");
    await viewportScreenshot(page, "80-rows-failed-on-correctness-viewport");
  });

  it("search keeps the table in view and the focus in the search field", async () => {
    const search = page.locator("[data-focus-key=row-search]");
    await search.fill("row-3");
    await search.press("Enter");
    await arrive((url) => url.searchParams.get("q") === "row-3", "row-search");
    const after = await place();
    expect(after.scrollY).toBeGreaterThan(1000);
    expect(after).toMatchObject({ tableInView: true, focusKey: "row-search" });
  });

  it("sorting by a metric's header puts its worst rows first, on the server, and keeps the focus on the header", async () => {
    await page.goto(`${runUrl}?pageSize=25#rows`);
    await waitForHydration(page, "[data-testid=run-rows-table] thead button");
    await page.locator(`[data-focus-key="sort-${CORRECTNESS}"]`).click();
    await arrive((url) => url.searchParams.get("sort") === CORRECTNESS, `sort-${CORRECTNESS}`);
    expect(await place()).toMatchObject({ tableInView: true, focusKey: `sort-${CORRECTNESS}` });
    // Failed rows first (every 3rd), the lowest score (the highest row number) first among them.
    const ids = await page.locator("[data-testid=run-rows-table] tbody tr td:nth-child(2)").allInnerTexts();
    expect(ids.slice(0, 3)).toEqual(["row-60", "row-57", "row-54"]);
    expect(ids).toHaveLength(25);
  });
});

describe("reaching the rows by keyboard", () => {
  it("Enter on a metric card puts the focus on the filter summary; a few Tabs reach the first failed row", async () => {
    await page.goto(runUrl);
    const card = `a[data-metric="${CORRECTNESS}"]`;
    await waitForHydration(page, card);
    await waitForHydration(page, "[data-testid=run-rows-table] thead button");
    await page.locator(card).focus();
    await page.keyboard.press("Enter");
    await arrive((url) => url.searchParams.get("metric") === CORRECTNESS);
    await expect.poll(async () => (await place()).focusKey).toBe("row-filter-summary");
    expect((await place()).tableInView).toBe(true);
    let presses = 0;
    let onRow = false;
    while (presses < 12 && !onRow) {
      await page.keyboard.press("Tab");
      presses++;
      onRow = await page.evaluate(() => !!document.activeElement?.closest("[data-testid=run-rows-table] tbody"));
    }
    expect(onRow, "Tab never reached a row after the card's jump").toBe(true);
    const href = new URL((await page.evaluate(() => document.activeElement?.getAttribute("href"))) ?? "", runUrl);
    expect(href.searchParams.get("metric")).toBe(CORRECTNESS);
    // On the way: the filter's chips (failed ×, on correctness ×, Clear all) and the header row, one stop however
    // many metric columns sort; before, the row was 77–98 Tabs away.
    expect(presses).toBeLessThanOrEqual(6);
  });

  it("the header row is one Tab stop; the arrows move between its sort buttons", async () => {
    await page.keyboard.press("Shift+Tab");
    const focusedKey = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.focusKey);
    expect(await focusedKey()).toBe("sort-rowNumber");
    await page.keyboard.press("ArrowRight");
    expect(await focusedKey()).toBe("sort-requestId");
    await page.keyboard.press("ArrowRight");
    expect(await focusedKey()).toBe(`sort-${CORRECTNESS}`);
    await page.keyboard.press("ArrowLeft");
    expect(await focusedKey()).toBe("sort-requestId");
  });

  it("the first Tab on the page offers a skip link to the rows, which lands the focus on the filter summary", async () => {
    await page.goto(runUrl);
    await waitForHydration(page, "[data-testid=skip-to-rows]");
    // The first Tab of the page goes through the site header; the skip link is the first stop of the run page itself.
    let presses = 0;
    while (
      presses < 15 &&
      (await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))) !== "skip-to-rows"
    ) {
      await page.keyboard.press("Tab");
      presses++;
    }
    expect(await page.locator("[data-testid=skip-to-rows]").isVisible()).toBe(true);
    await viewportScreenshot(page, "81-skip-link");
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await place()).focusKey).toBe("row-filter-summary");
    expect((await place()).tableInView).toBe(true);
  });
});

describe("a wide run's columns", () => {
  it("shows a few metric columns by default, with Request and Response readable", async () => {
    await page.goto(`${runUrl}#rows`);
    await waitForHydration(page, "[data-testid=run-rows-table] thead button");
    const headers = page.locator("[data-testid=run-rows-table] thead th");
    // #, request_id, Request, Response and six metrics.
    expect(await headers.count()).toBe(10);
    const widths = await page
      .locator("[data-testid=run-rows-table] tbody tr:first-child td")
      .evaluateAll((cells) => cells.slice(2, 4).map((cell) => cell.getBoundingClientRect().width));
    for (const width of widths) expect(width).toBeGreaterThanOrEqual(200);
    // The whole table fits the 1280 px window: nothing to scroll sideways (seven columns did not fit).
    const table = await page
      .locator("[data-testid=run-rows-table]")
      .evaluate((element) => ({ width: element.scrollWidth, window: document.documentElement.clientWidth }));
    expect(table.width).toBeLessThanOrEqual(table.window);
    expect(await page.locator("[data-testid=column-chooser] summary").innerText()).toBe("Metric columns (6 of 18)");
  });

  it("the column chooser keeps the choice in the URL", async () => {
    await page.locator("[data-testid=column-chooser] summary").click();
    const boxes = page.locator("[data-testid=column-chooser] input[name=cols]");
    for (let i = 0; i < 6; i++) await boxes.nth(i).uncheck();
    await page.locator(`[data-testid=column-chooser] input[value="${HALLUCINATION}"]`).check();
    await viewportScreenshot(page, "82-column-chooser");
    await page.locator("[data-focus-key=columns-apply]").click();
    // The panel closes with the new view: the focus goes back to its summary.
    await arrive((url) => url.searchParams.has("cols"), "columns");
    expect(new URL(page.url()).searchParams.getAll("cols")).toEqual([HALLUCINATION]);
    expect(await page.locator("[data-testid=run-rows-table] thead th").count()).toBe(5);
    expect((await place()).tableInView).toBe(true);
  });

  it("the hallucination card says in one sentence how many rows were skipped and why", async () => {
    const card = await page.locator(`a[data-metric="${HALLUCINATION}"]`).innerText();
    expect(card).toContain(`${ROWS} rows skipped: ${IDEAL_CONTEXT}`);
    expect(card).not.toContain("no row judged yet");
    expect(card).not.toContain("no row could be judged");
  });
});

describe("sorting the judge-disagrees rows", () => {
  it("a metric's header sorts them worst first, with its arrow, as under the other filters", async () => {
    // Correctness labels that disagree with the judge: yes where it said no (3, 6, 9), no where it said yes (1, 2).
    const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { datasetId: true } });
    const rows = await db.datasetRow.findMany({
      where: { datasetId: run.datasetId, rowNumber: { in: [1, 2, 3, 6, 9] } },
      select: { id: true, rowNumber: true },
    });
    const label = (rowNumber: number) => ({
      metric: CORRECTNESS,
      chunkPosition: -1,
      value: { kind: "rating" as const, rating: rowNumber % 3 === 0 ? ("yes" as const) : ("no" as const) },
    });
    await writeLabels(
      db,
      run.datasetId,
      rows.map((row) => ({ rowId: row.id, entries: [label(row.rowNumber)] })),
      { labelledBy: null, source: "upload" },
    );
    await page.goto(`${runUrl}?filter=disagrees#rows`);
    await waitForHydration(page, "[data-testid=run-rows-table] thead button");
    await page.locator(`[data-focus-key="sort-${CORRECTNESS}"]`).click();
    await arrive((url) => url.searchParams.get("sort") === CORRECTNESS, `sort-${CORRECTNESS}`);
    const sorted = page.locator("[data-testid=run-rows-table] thead th[aria-sort=ascending]");
    expect(await sorted.locator("span[title]").getAttribute("title")).toContain(CORRECTNESS);
    // The judge's failures first, then its passes, each lowest score (highest row number) first.
    const ids = await page.locator("[data-testid=run-rows-table] tbody tr td:nth-child(2)").allInnerTexts();
    expect(ids).toEqual(["row-9", "row-6", "row-3", "row-2", "row-1"]);
  });
});

describe("a sorted table, a row and back", () => {
  it("a sort by a metric the chosen columns leave out shows that metric's column, its arrow and the header's Tab stop", async () => {
    await page.goto(`${runUrl}?cols=${encodeURIComponent(HALLUCINATION)}&sort=${encodeURIComponent(CORRECTNESS)}#rows`);
    await waitForHydration(page, "[data-testid=run-rows-table] thead button");
    // #, request_id, Request, Response, correctness (sorted), hallucination (chosen).
    expect(await page.locator("[data-testid=run-rows-table] thead th").count()).toBe(6);
    const sorted = page.locator("[data-testid=run-rows-table] thead th[aria-sort=ascending]");
    expect(await sorted.locator("span[title]").getAttribute("title")).toContain(CORRECTNESS);
    expect(await sorted.locator("button").getAttribute("tabindex")).toBe("0");
    await viewportScreenshot(page, "84-sorted-by-a-hidden-column");
  });

  it("a row opened from a table sorted worst first steps with j in the table's order, and the way back keeps the view", async () => {
    const view = `sort=${encodeURIComponent(CORRECTNESS)}&pageSize=50&cols=${encodeURIComponent(HALLUCINATION)}`;
    await page.goto(`${runUrl}?${view}#rows`);
    await waitForHydration(page, "[data-testid=run-rows-table] thead button");
    await page.locator("[data-testid=run-rows-table] tbody tr").first().locator("a").first().click();
    await page.waitForURL((url) => url.pathname.includes("/rows/"));
    await waitForHydration(page, "[data-testid=row-place]");
    expect(new URL(page.url()).searchParams.get("sort")).toBe(CORRECTNESS);
    // Worst first: row 60 (the lowest correctness score among the failures), then 57.
    expect(await page.locator("h1 code").innerText()).toBe("row-60");
    expect(await page.locator("[data-testid=row-place]").innerText()).toBe(
      `all rows, sorted by correctness, worst first · 1 of ${ROWS}`,
    );
    const first = page.url();
    await page.keyboard.press("j");
    await page.waitForURL((url) => url.href !== first);
    expect(new URL(page.url()).searchParams.get("sort")).toBe(CORRECTNESS);
    await expect.poll(() => page.locator("h1 code").innerText()).toBe("row-57");
    expect(await page.locator("[data-testid=row-place]").innerText()).toBe(
      `all rows, sorted by correctness, worst first · 2 of ${ROWS}`,
    );
    await screenshot(page, "84-row-from-sorted-table");
    await page
      .locator("a", { hasText: /^Wide run$/ })
      .first()
      .click();
    await arrive((url) => url.pathname === `/runs/${runId}`);
    const back = new URL(page.url()).searchParams;
    expect(Object.fromEntries(back)).toMatchObject({ sort: CORRECTNESS, pageSize: "50", cols: HALLUCINATION });
    const ids = await page.locator("[data-testid=run-rows-table] tbody tr td:nth-child(2)").allInnerTexts();
    expect(ids.slice(0, 2)).toEqual(["row-60", "row-57"]);
    expect(ids).toHaveLength(50);
  });
});

describe("a running run whose updates stop", () => {
  it("says when updates stopped arriving", { timeout: 60_000 }, async () => {
    const datasetId = await importRows(db, syntheticRows(5, 1));
    const running = await seedWideRun(datasetId, "Running run", "running");
    // The server stops answering the progress poll (as a dead server would).
    await page.route("**/api/runs/*/progress", (route) => route.abort("connectionrefused"));
    await page.goto(`${server.baseUrl}/runs/${running}`);
    const stopped = page.locator("[data-testid=run-updates-stopped]");
    await stopped.waitFor({ timeout: 20_000 });
    expect(await stopped.innerText()).toMatch(
      /^No updates since \d\d:\d\d:\d\d: the server may have stopped\. Reload the page to check\.$/,
    );
    await screenshot(page, "83-run-updates-stopped");
    await page.unroute("**/api/runs/*/progress");
    // Answers again: the note goes.
    await stopped.waitFor({ state: "detached", timeout: 10_000 });
    expect(problems.filter((problem) => !problem.includes("/progress"))).toEqual([]);
  });

  it("says so too when the server hangs: the poll is given up, not left pending", async () => {
    // A run of its own, so the notice is not carried over from the test above.
    const hung = await seedWideRun(await importRows(db, syntheticRows(5, 1)), "Hung run", "running");
    // The progress route is held open and never answered (a hung server), rather than refused.
    await page.route("**/api/runs/*/progress", () => undefined);
    await page.goto(`${server.baseUrl}/runs/${hung}`);
    const stopped = page.locator("[data-testid=run-updates-stopped]");
    await stopped.waitFor({ timeout: 20_000 });
    expect(await stopped.innerText()).toMatch(/^No updates since \d\d:\d\d:\d\d: the server may have stopped\./);
    await page.unrouteAll({ behavior: "ignoreErrors" });
    await stopped.waitFor({ state: "detached", timeout: 10_000 });
  });
});
