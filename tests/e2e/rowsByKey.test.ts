// The run page's rows table pages by key, in Chromium on the built app: Next and
// Previous carry the page's last or first row number beside the page number, the
// pages they open are the ones the page number names, a link with a key that is
// no row number opens page 1, and a row opened from a page read by key says
// where it stands ("all rows · 26 of 60").
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createRun } from "@/lib/engine/createRun";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import type { AppServer } from "./appServer";
import { openApp, screenshot, waitForHydration, type OpenedApp } from "./helpers";

const ROWS = 60;
const CORRECTNESS = "response/llm_judged/correctness";

let app: OpenedApp;
let server: AppServer;
let db: Db;
let page: Page;
let runId = "";

beforeAll(async () => {
  app = await openApp();
  ({ server, db, page } = app);
  await page.setViewportSize({ width: 1280, height: 900 });
  const datasetId = await importRows(db, syntheticRows(ROWS, 1));
  runId = await createRun(db, {
    datasetId,
    metrics: [CORRECTNESS],
    judge: { provider: "heuristic", model: "heuristic" },
    name: "paged by key",
  });
  await db.run.update({ where: { id: runId }, data: { status: "completed", finishedAt: new Date() } });
  await db.$executeRawUnsafe(
    `UPDATE "JudgmentItem" SET "status" = 'done', "rating" = 'yes', "passed" = TRUE WHERE "runId" = ?`,
    runId,
  );
}, 240_000);

afterAll(async () => app?.close());

const range = () => page.locator("#rows [data-testid=pager-top] [data-testid=pager-range]").innerText();
const shownRows = async () =>
  (await page.locator("[data-testid=run-rows-table] tbody tr").allInnerTexts()).map((text) => text.split(/\s/)[0]);

describe("the rows table by key", () => {
  it("Next and Previous carry the page's row keys and open the pages their numbers name", async () => {
    await page.goto(`${server.baseUrl}/runs/${runId}#rows`);
    await waitForHydration(page, "[data-testid=run-rows-table]");
    expect(await range()).toBe("1–25 of 60 rows");
    const next = page.locator('#rows [data-testid=pager] a[rel="next"]');
    const nextHref = new URL((await next.getAttribute("href")) ?? "", server.baseUrl);
    expect([nextHref.searchParams.get("after"), nextHref.searchParams.get("page")]).toEqual(["25", "2"]);
    await next.click();
    await expect.poll(range, { timeout: 10_000 }).toBe("26–50 of 60 rows");
    expect(new URL(page.url()).searchParams.get("after")).toBe("25");
    await next.click();
    await expect.poll(range, { timeout: 10_000 }).toBe("51–60 of 60 rows");
    await screenshot(page, "81-rows-by-key-last-page");
    const previous = page.locator('#rows [data-testid=pager] a[rel="prev"]');
    const previousHref = new URL((await previous.getAttribute("href")) ?? "", server.baseUrl);
    expect([previousHref.searchParams.get("before"), previousHref.searchParams.get("page")]).toEqual(["51", "2"]);
    await previous.click();
    await expect.poll(range, { timeout: 10_000 }).toBe("26–50 of 60 rows");
    expect(await shownRows()).toEqual(Array.from({ length: 25 }, (_, i) => `${i + 26}`));
  });

  it("a key that is no row number opens page 1", async () => {
    await page.goto(`${server.baseUrl}/runs/${runId}?page=3&after=abc#rows`);
    await waitForHydration(page, "[data-testid=run-rows-table]");
    expect(await range()).toBe("1–25 of 60 rows");
    expect((await shownRows())[0]).toBe("1");
  });

  it("a row opened from a page read by key says where it stands, and j goes on in row order", async () => {
    await page.goto(`${server.baseUrl}/runs/${runId}?page=2&after=25#rows`);
    await waitForHydration(page, "[data-testid=run-rows-table]");
    await page.locator("[data-testid=run-rows-table] tbody tr").first().locator("a").first().click();
    await waitForHydration(page, "[data-testid=row-place]");
    expect(await page.locator("[data-testid=row-place]").innerText()).toBe("all rows · 26 of 60");
    await page.keyboard.press("j");
    await expect
      .poll(() => page.locator("[data-testid=row-place]").innerText(), { timeout: 10_000 })
      .toBe("all rows · 27 of 60");
  });
});
