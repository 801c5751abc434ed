// Browser test of the users page while sign-in is off: the local admin
// prepares accounts before turning sign-in on. The account added there, and
// the password reset there, are real Better Auth passwords: once the server
// restarts with a secret, that user signs in with the password the page set.
// Removing the only active admin is refused there too, with the reason.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { startAppServer, type AppServer } from "./appServer";
import { E2E_AUTH_SECRET } from "./authSession";
import { openApp, screenshot, waitForHydration, type OpenedApp } from "./helpers";

const RITA = { email: "rita@example.com", password: "rita first password", reset: "rita second password" };

let app: OpenedApp;
let server: AppServer;
let db: Db;
let page: Page;

beforeAll(async () => {
  app = await openApp();
  ({ server, db, page } = app);
}, 240_000);

afterAll(async () => {
  await app?.close();
});

const row = (email: string) => page.locator("[data-testid=users-table] tbody tr", { hasText: email });
const createForm = () => page.locator("[data-testid=create-user]");

describe("the local admin on the users page, sign-in off", () => {
  it("adds an admin and resets their password; with sign-in on, that password signs in", async () => {
    await page.goto(`${server.baseUrl}/admin/users`);
    await waitForHydration(page, "[data-testid=create-user]");
    await createForm().getByLabel("Email").fill(RITA.email);
    await createForm().getByLabel("Role").selectOption("admin");
    await createForm().getByLabel("Initial password").fill(RITA.password);
    await createForm().getByRole("button", { name: "Create user" }).click();
    await expect
      .poll(() => page.getByRole("status").allInnerTexts())
      .toContain("Created admin rita@example.com. Give them their password; they can sign in once sign-in is on.");
    await row(RITA.email).waitFor();
    // No name given: the part before the @, as npm run user:create does.
    expect(await db.user.findUniqueOrThrow({ where: { email: RITA.email } })).toMatchObject({
      name: "rita",
      role: "admin",
      emailVerified: true,
    });

    await row(RITA.email).getByText("Reset password").click();
    await row(RITA.email).getByLabel(`New password for ${RITA.email}`).fill(RITA.reset);
    await row(RITA.email).getByRole("button", { name: "Set password" }).click();
    await expect
      .poll(() => row(RITA.email).getByRole("status").innerText())
      .toBe("Password set for rita@example.com; they had no open session. Give them the new password.");
    await screenshot(page, "users-local-admin");

    // The same database served with sign-in on: the page's password is the one Better Auth checks.
    const signedIn = await startAppServer({
      env: { DATABASE_URL: server.databaseUrl, ASSAY_AUTH_SECRET: E2E_AUTH_SECRET },
    });
    try {
      const signIn = (password: string) =>
        fetch(`${signedIn.baseUrl}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: signedIn.baseUrl },
          body: JSON.stringify({ email: RITA.email, password }),
        });
      expect((await signIn(RITA.password)).status).toBe(401);
      expect((await signIn(RITA.reset)).status).toBe(200);
    } finally {
      await signedIn.stop();
    }
  });

  it("is refused removing the only active admin, with the reason, and nothing of theirs changes", async () => {
    await page.reload();
    await waitForHydration(page, "[data-testid=create-user]");
    const rita = row(RITA.email);
    await rita.getByText("Remove", { exact: true }).click();
    await rita.getByLabel(`Yes, remove ${RITA.email}`).check();
    await rita.getByRole("button", { name: `Remove user ${RITA.email}` }).click();
    await expect
      .poll(() => rita.getByRole("status").innerText())
      .toBe("rita@example.com is the only active admin and cannot be removed; make someone else admin first.");
    await screenshot(page, "users-last-admin-refused");
    expect(await db.user.count({ where: { email: RITA.email } })).toBe(1);
    expect(await db.account.count({ where: { user: { email: RITA.email }, providerId: "credential" } })).toBe(1);
  });
});
