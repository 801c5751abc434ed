// Browser test of the users page with accounts on: the admin, signed in
// through the sign-in page, adds a user (the password policy and a taken
// email refused with the reason; the answer goes once they type again),
// resets that user's password (their session ends; the new password signs in,
// the old one does not), removes them once "Yes, remove <email>" is ticked (a
// form sent without it, or naming the admin, is refused), and has no removal
// for their own account. A user who signs in only through single sign-on has
// no password to reset. A paused password sign-in (too many failed sign-ins for
// the email, from anyone) shows in the user's row with a button that opens it,
// which a request without a session cannot use; a password reset opens it too.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import type { AppServer } from "./appServer";
import { callAction, createUsers, E2E_AUTH_SECRET, formData, OTHER_USER, serverActionIds, USERS } from "./authSession";
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
  await createUsers(server.databaseUrl, [USERS.admin, OTHER_USER]);
  // Olga as a first sign-in through the identity provider leaves her: an OIDC account, no password.
  const olga = await db.user.findUniqueOrThrow({ where: { email: OTHER_USER.email } });
  await db.account.deleteMany({ where: { userId: olga.id } });
  await db.account.create({
    data: { id: "olga-oidc", userId: olga.id, accountId: "idp-subject-olga", providerId: "oidc" },
  });
}, 240_000);

afterAll(async () => {
  await app?.close();
});

const row = (email: string) => page.locator("[data-testid=users-table] tbody tr", { hasText: email });
const createForm = () => page.locator("[data-testid=create-user]");

let forged = 0;

/** A sign-in from a client address of its own, so Better Auth's per-address limit (3 per 10 s) never answers. */
async function signInStatus(email: string, password: string): Promise<number> {
  forged += 1;
  const response = await fetch(`${server.baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl, "x-forwarded-for": `198.51.100.${forged}` },
    body: JSON.stringify({ email, password }),
  });
  return response.status;
}

/** As if ten wrong guesses had just been made for this email, from whatever addresses: its password sign-in is paused. */
async function pauseSignIn(email: string): Promise<void> {
  await db.signInThrottle.upsert({
    where: { email },
    create: { email, windowStart: new Date(), failures: 10 },
    update: { windowStart: new Date(), failures: 10 },
  });
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

    // The answer belongs to the last try: typing again in the form takes it away.
    await createForm().getByLabel("Email").fill("");
    await createForm().getByLabel("Email").pressSequentially("n");
    await expect.poll(() => page.locator("[data-testid=create-user] ~ [role=status]").count()).toBe(0);
    await createForm().getByLabel("Email").fill("");
  });

  it("has no password reset for a user who signs in through single sign-on", async () => {
    const olga = row(OTHER_USER.email);
    expect(await olga.getByText("Reset password").count()).toBe(0);
    expect(
      await olga
        .getByText("No password to reset: single sign-on accounts are managed at your identity provider.")
        .count(),
    ).toBe(1);
    expect(await db.account.count({ where: { user: { email: OTHER_USER.email }, providerId: "credential" } })).toBe(0);
  });

  it("resets the new user's password: their session ends, the new password signs in, the old one not", async () => {
    expect(await signInStatus(NINA.email, NINA.password)).toBe(200);
    const userId = (await db.user.findUniqueOrThrow({ where: { email: NINA.email } })).id;
    expect(await db.session.count({ where: { userId } })).toBe(1);
    // Someone guessing at her email has paused her password sign-in: the reset opens it for the new password.
    await pauseSignIn(NINA.email);
    expect(await signInStatus(NINA.email, NINA.password)).toBe(429);

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

  it("shows a paused password sign-in in the user's row and opens it; a request without a session cannot", async () => {
    await pauseSignIn(NINA.email);
    await page.reload();
    await waitForHydration(page, "[data-testid=create-user]");
    await expect
      .poll(() => row(NINA.email).getByTestId("sign-in-pause").innerText())
      .toMatch(/^Password sign-in paused until \d\d:\d\d UTC \(too many failed sign-ins\)/);
    expect(await row(USERS.admin.email).getByTestId("sign-in-pause").count()).toBe(0);
    await screenshot(page, "users-sign-in-paused");

    const userId = (await db.user.findUniqueOrThrow({ where: { email: NINA.email } })).id;
    const anonymous = await callAction(
      server.baseUrl,
      "/admin/users",
      serverActionIds().get("clearSignInPause") ?? "",
      [{ ok: false, message: null }, formData({ userId })],
    );
    expect(anonymous.body).toContain("Sign in to manage users");
    expect(await db.signInThrottle.count({ where: { email: NINA.email } })).toBe(1);

    await row(NINA.email)
      .getByRole("button", { name: `Clear pause for ${NINA.email}` })
      .click();
    await expect
      .poll(() => row(NINA.email).getByRole("status").allInnerTexts())
      .toContain("Password sign-in for nina@example.com is open again; earlier failed sign-ins are forgotten.");
    expect(
      await row(NINA.email)
        .getByText(/Password sign-in paused until/)
        .count(),
    ).toBe(0);
    expect(await signInStatus(NINA.email, NINA_RESET)).toBe(200);
  });

  it("removes the user only once the admin ticks the confirmation: the row goes, and the account with it", async () => {
    const nina = row(NINA.email);
    const removeButton = nina.getByRole("button", { name: `Remove user ${NINA.email}` });
    await nina.getByText("Remove", { exact: true }).click();
    expect(await removeButton.isDisabled()).toBe(true);
    await screenshot(page, "users-remove-confirmation");

    // A form sent without the tick (the button's disabled state lifted, as a script would) is refused.
    await removeButton.evaluate((button) => button.removeAttribute("disabled"));
    await removeButton.click();
    await expect
      .poll(() => nina.getByRole("status").allInnerTexts())
      .toContain('Tick "Yes, remove nina@example.com" first; nothing was removed.');
    expect(await db.user.count({ where: { email: NINA.email } })).toBe(1);

    // A form pointed at the admin's own account, confirmation and all, is refused too. The fields are
    // rewritten after the tick, as React puts its own values back when it renders the ticked box.
    const admin = await db.user.findUniqueOrThrow({ where: { email: USERS.admin.email } });
    await nina.getByLabel(`Yes, remove ${NINA.email}`).check();
    await removeButton
      .locator("xpath=ancestor::form")
      .locator("input[name=userId]")
      .evaluate((input, id) => ((input as HTMLInputElement).value = id), admin.id);
    await nina
      .getByLabel(`Yes, remove ${NINA.email}`)
      .evaluate((input, email) => ((input as HTMLInputElement).value = email), admin.email);
    await removeButton.click();
    await expect
      .poll(() => nina.getByRole("status").allInnerTexts())
      .toContain("You cannot remove your own account; ask another admin.");
    expect(await db.user.count({ where: { email: USERS.admin.email } })).toBe(1);
    await page.reload();
    await waitForHydration(page, "[data-testid=create-user]");

    await nina.getByText("Remove", { exact: true }).click();
    await nina.getByLabel(`Yes, remove ${NINA.email}`).check();
    expect(await removeButton.isEnabled()).toBe(true);
    await removeButton.click();
    await expect.poll(() => row(NINA.email).count()).toBe(0);
    expect(await db.user.count({ where: { email: NINA.email } })).toBe(0);
    expect(await db.session.count({ where: { user: { email: NINA.email } } })).toBe(0);
  });

  it("has no removal for the admin's own account, and stays signed in", async () => {
    const admin = row(USERS.admin.email);
    expect(await admin.getByText("Remove", { exact: true }).count()).toBe(0);
    expect(await admin.getByText("You cannot remove your own account; ask another admin.").count()).toBe(1);
    await screenshot(page, "users-own-account");
    expect(await db.user.count({ where: { email: USERS.admin.email } })).toBe(1);
    await page.reload();
    await row(USERS.admin.email).waitFor();
    expect(page.url()).toBe(`${server.baseUrl}/admin/users`);
    expect(problems).toEqual([]);
  });
});
