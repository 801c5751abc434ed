import type { Page } from "playwright-core";
import { waitForHydration } from "./helpers";

/** Starts a run of the offline heuristic judge from a dataset's page, waits until it completes, returns its id. */
export async function startHeuristicRun(page: Page, datasetUrl: string, name: string): Promise<string> {
  await page.goto(datasetUrl);
  await page.getByRole("link", { name: "New run" }).click();
  await page.waitForURL(/\/runs\/new$/);
  await waitForHydration(page, "[data-testid=run-form] button[type=submit]");
  await page.getByLabel("Offline heuristic judge").check();
  await page.getByPlaceholder("gpt-4.1 + reranker v2").fill(name);
  await page.getByRole("button", { name: "Start run" }).click();
  await page.waitForURL((url) => /^\/runs\/[^/]+$/.test(url.pathname));
  await page.locator("[data-testid=run-status]", { hasText: "completed" }).waitFor({ timeout: 60_000 });
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
}

export async function openRunForm(page: Page, baseUrl: string, datasetId: string): Promise<void> {
  await page.goto(`${baseUrl}/datasets/${datasetId}/runs/new`);
  await waitForHydration(page, "[data-testid=run-form] button[type=submit]");
}

/** Unticks the default (the Databricks suite) and ticks the named metrics. */
export async function chooseOnly(page: Page, labels: string[]): Promise<void> {
  const ticked = page.locator("[data-testid=run-form] input[name=metrics]:checked");
  while ((await ticked.count()) > 0) await ticked.first().uncheck();
  for (const label of labels) await page.getByLabel(label, { exact: true }).check();
}

/** Names the run, starts it, waits until it completes and the page has settled; returns its id. */
export async function startAndFinish(page: Page, name: string, timeoutMs: number): Promise<string> {
  await page.getByPlaceholder("gpt-4.1 + reranker v2").fill(name);
  await page.getByRole("button", { name: "Start run" }).click();
  await page.waitForURL((url) => /^\/runs\/[^/]+$/.test(url.pathname));
  await page.locator("[data-testid=run-status]", { hasText: "completed" }).waitFor({ timeout: timeoutMs });
  await page.reload();
  await page.waitForLoadState("networkidle");
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
}
