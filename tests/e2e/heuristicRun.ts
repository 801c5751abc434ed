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
