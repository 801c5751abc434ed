import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { TestUser } from "./authSession";
import { waitForHydration } from "./helpers";

/**
 * Signs in through the sign-in form, starting from a page that needs a session (so the redirect and its
 * `next` are used), and waits until the header names the user's role. `problems` and `serverOutput` go into
 * the failure message when the form does not let the user in.
 */
export async function signInThroughPage(
  page: Page,
  baseUrl: string,
  user: TestUser,
  options: { from?: string; problems?: string[]; serverOutput?: () => string } = {},
): Promise<void> {
  const from = options.from ?? "/datasets";
  await page.goto(`${baseUrl}${from}`);
  await page.waitForURL((url) => url.pathname === "/signin");
  await waitForHydration(page, "[data-testid=signin-form]");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  try {
    await page.waitForURL((url) => url.pathname === from, { timeout: 10_000 });
  } catch (error) {
    throw new Error(
      `sign-in of ${user.email} stayed on ${page.url()}: ${await page.locator("main").innerText()}\n${(options.problems ?? []).join("\n")}\n${options.serverOutput?.().slice(-2000) ?? ""}`,
      { cause: error },
    );
  }
  await expect.poll(() => page.locator("[data-testid=signout-control]").innerText()).toContain(`(${user.role})`);
}

export async function signOutThroughPage(page: Page): Promise<void> {
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL((url) => url.pathname === "/signin");
}
