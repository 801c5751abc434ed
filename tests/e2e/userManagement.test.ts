// Browser test of the users page with accounts on: the admin, signed in
// through the sign-in page, adds a user (the password policy and a taken
// email refused with the reason), resets that user's password (their session
// ends; the new password signs in, the old one does not), removes them, and is
// refused removing the only active admin, themselves, with the reason shown.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import type { AppServer } from "./appServer";
import { createUsersWithCli, E2E_AUTH_SECRET, USERS } from "./authSession";
import { openApp, screenshot, waitForHydration, type OpenedApp } from "./helpers";

const NINA = { email: "nina@example.com", name: "Nina New", password: "nina first password" };
const NINA_RESET = "nina second password";

let app: OpenedApp;
let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];

beforeAll(async () => {
  app = await openApp({ env: { ASSAY_AUTH_SECRET: E2E_AUTH_SECRET } });
  ({ server, db, page, problems } = app);
  await createUsersWithCli(server.databaseUrl, [USERS.admin]);
}, 240_000);

afterAll(async () => {
  await app?.close();
});

const row = (email: string) => page.locator("[data-testid=users-table] tbody tr", { hasText: email });
const createForm = () => page.locator("[data-testid=create-user]");

async function signInStatus(email: string, password: string): Promise<number> {
  const response = await fetch(`${server.baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify({ email, password }),
  });
  return response.status;
}

async function fillCreateForm(email: string, password: string): Promise<void> {
  await createForm().getByLabel("Email").fill(email);
  await createForm().getByLabel("Name (optional)").fill(NINA.name);
  await createForm().getByLabel("Role").selectOption("runner");
  await createForm().getByLabel("Initial password").fill(password);
  await createForm().getByRole("button", { name: "Create user" }).click();
}

describe("an admin on the users page", () => {
  it("signs in and adds a runner; a short password and a taken email are refused with the reason", async () => {
    await page.goto(`${server.baseUrl}/admin/users`);
    await page.waitForURL((url) => url.pathname === "/signin");
    await waitForHydration(page, "[data-testid=signin-form]");
    await page.getByLabel("Email").fill(USERS.admin.email);
    await page.getByLabel("Password").fill(USERS.admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.pathname === "/admin/users");
    await waitForHydration(page, "[data-testid=create-user]");

    // The browser's own minlength check would stop a short password before the server sees it; the server's
    // answer is what a script or an older browser gets, so the check is lifted for this one try.
    await createForm()
      .getByLabel("Initial password")
      .evaluate((input) => input.removeAttribute("minlength"));
    await fillCreateForm(NINA.email, "short");
    await expect
      .poll(() => page.getByRole("status").allInnerTexts())
      .toContain("The password needs at least 12 characters.");
    expect(await db.user.count({ where: { email: NINA.email } })).toBe(0);

    await fillCreateForm(NINA.email, NINA.password);
    await expect
      .poll(() => page.getByRole("status").allInnerTexts())
      .toContain("Created runner nina@example.com. Give them their password; they can sign in now.");
    await row(NINA.email).waitFor();
    expect(await row(NINA.email).getByLabel(`Role of ${NINA.email}`).inputValue()).toBe("runner");
    // The fields emptied for the next account.
    expect(await createForm().getByLabel("Email").inputValue()).toBe("");
    const stored = await db.user.findUniqueOrThrow({ where: { email: NINA.email } });
    expect(stored).toMatchObject({ name: NINA.name, role: "runner", emailVerified: true });
    await screenshot(page, "users-created");

    await fillCreateForm(NINA.email.toUpperCase(), "another long password");
    await expect
      .poll(() => page.getByRole("status").allInnerTexts())
      .toContain("A user with the email nina@example.com already exists.");
    expect(await db.user.count({ where: { email: NINA.email } })).toBe(1);
  });

  it("resets the new user's password: their session ends, the new password signs in, the old one not", async () => {
    expect(await signInStatus(NINA.email, NINA.password)).toBe(200);
    const userId = (await db.user.findUniqueOrThrow({ where: { email: NINA.email } })).id;
    expect(await db.session.count({ where: { userId } })).toBe(1);

    await row(NINA.email).getByText("Reset password").click();
    await row(NINA.email).getByLabel(`New password for ${NINA.email}`).fill(NINA_RESET);
    await row(NINA.email).getByRole("button", { name: "Set password" }).click();
    await expect
      .poll(() => row(NINA.email).getByRole("status").innerText())
      .toBe("Password set for nina@example.com; 1 open session ended. Give them the new password.");
    expect(await db.session.count({ where: { userId } })).toBe(0);
    await screenshot(page, "users-password-reset");
    expect(await signInStatus(NINA.email, NINA_RESET)).toBe(200);
  });

  it("removes the user: the row goes, and the account with it", async () => {
    await row(NINA.email).getByText("Remove", { exact: true }).click();
    await row(NINA.email)
      .getByRole("button", { name: `Remove user ${NINA.email}` })
      .click();
    await expect.poll(() => row(NINA.email).count()).toBe(0);
    expect(await db.user.count({ where: { email: NINA.email } })).toBe(0);
    expect(await db.session.count({ where: { user: { email: NINA.email } } })).toBe(0);
  });

  it("is refused removing the only active admin, themselves, with the reason, and stays signed in", async () => {
    const admin = row(USERS.admin.email);
    await admin.getByText("Remove", { exact: true }).click();
    await admin.getByRole("button", { name: `Remove user ${USERS.admin.email}` }).click();
    await expect
      .poll(() => admin.getByRole("status").innerText())
      .toBe("ada@example.com is the only active admin and cannot be removed; make someone else admin first.");
    await screenshot(page, "users-last-admin-refused");
    expect(await db.user.count({ where: { email: USERS.admin.email } })).toBe(1);
    await page.reload();
    await row(USERS.admin.email).waitFor();
    expect(page.url()).toBe(`${server.baseUrl}/admin/users`);
    expect(problems).toEqual([]);
  });
});
