// The chunk heatmap pages through a whole run in Chromium on the built app: 50 rows at a time with Next and
// Previous, a jump to any row number, and the rows table's filter kept in every link.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toJsonl } from "../support/evalFiles";
import { syntheticRows } from "../support/syntheticRows";
import type { AppServer } from "./appServer";
import { startHeuristicRun } from "./runFormSteps";
import {
  expectNoCrashText,
  openApp,
  screenshot,
  tempDir,
  uploadThroughPage,
  writeFile,
  type OpenedApp,
} from "./helpers";

const ROWS = 120;

let app: OpenedApp;
let server: AppServer;
let page: Page;
let runId = "";

beforeAll(async () => {
  app = await openApp();
  ({ server, page } = app);
  const file = writeFile(tempDir(), "heatmap.jsonl", toJsonl(syntheticRows(ROWS, 3)));
  const datasetId = await uploadThroughPage(page, server.baseUrl, file, "Heatmap paging");
  runId = await startHeuristicRun(page, `${server.baseUrl}/datasets/${datasetId}`, "Heatmap paging run");
}, 120_000);

afterAll(async () => app?.close());

const caption = () => page.locator("[data-testid=chunk-heatmap] figcaption").innerText();
const firstRow = () => page.locator("[data-testid=chunk-heatmap] ol li").first().innerText();

describe("the chunk heatmap on a 120-row run", () => {
  it("shows rows 1–50 first, then 51–100 and 101–120 with Next, keeping the table's filter", async () => {
    await page.goto(`${server.baseUrl}/runs/${runId}?filter=failed`);
    expect(await caption()).toMatch(/^Rows 1–50 of 120, by row number/);
    expect(await page.locator('[data-testid=heatmap-pager] a[rel="prev"]').count()).toBe(0);
    await page.locator('[data-testid=heatmap-pager] a[rel="next"]').click();
    await page.waitForURL((url) => url.searchParams.get("heatmap") === "51");
    expect(new URL(page.url()).searchParams.get("filter")).toBe("failed");
    await expect.poll(caption).toMatch(/^Rows 51–100 of 120/);
    expect(await firstRow()).toMatch(/^#51\b/);
    await page.locator('[data-testid=heatmap-pager] a[rel="next"]').click();
    await expect.poll(caption).toMatch(/^Rows 101–120 of 120/);
    expect(await page.locator('[data-testid=heatmap-pager] a[rel="next"]').count()).toBe(0);
    await page.locator('[data-testid=heatmap-pager] a[rel="prev"]').click();
    await expect.poll(caption).toMatch(/^Rows 51–100 of 120/);
  });

  it("jumps to a typed row number and stays on the heatmap", async () => {
    await page.locator("[data-testid=heatmap-jump] input[name=heatmap]").fill("77");
    await page.locator("[data-testid=heatmap-jump] button").click();
    await page.waitForURL((url) => url.searchParams.get("heatmap") === "77");
    await expect.poll(caption).toMatch(/^Rows 77–120 of 120/);
    expect(new URL(page.url()).searchParams.get("filter")).toBe("failed");
    // The grid is in view, not the top of the page.
    const top = await page.locator("[data-testid=chunk-heatmap]").evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeLessThan(await page.evaluate(() => innerHeight));
    await screenshot(page, "95-heatmap-jump");
    await expectNoCrashText(page);
  });
});
