// Browser test of the API keys page with accounts on: a runner makes a key (shown once, only its hash
// stored, no role above theirs offered), uses it on /api/v1, and revokes it; the next request with it is
// refused. The actions refuse a role above the account's and a key revoking another's key.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import type { AppServer } from "./appServer";
import {
  callAction,
  createUsers,
  E2E_AUTH_SECRET,
  formData,
  serverActionIds,
  signInCookie,
  USERS,
} from "./authSession";
import { openApp, screenshot, waitForHydration, type OpenedApp } from "./helpers";
import { signInThroughPage } from "./signInPage";

let app: OpenedApp;
let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];

beforeAll(async () => {
  app = await openApp({ env: { ASSAY_AUTH_SECRET: E2E_AUTH_SECRET } });
  ({ server, db, page, problems } = app);
  await createUsers(server.databaseUrl, [USERS.runner, USERS.viewer]);
}, 240_000);

afterAll(async () => {
  await app?.close();
});

const runsWith = (key: string) =>
  fetch(`${server.baseUrl}/api/v1/runs`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);

describe("the API keys page", () => {
  it("makes a key shown once, that works on the API until it is revoked there", async () => {
    await signInThroughPage(page, server.baseUrl, USERS.runner, { from: "/settings/keys", problems });
    await waitForHydration(page, "[data-testid=create-api-key]");
    // A runner is offered no role above their own.
    const roles = await page.getByLabel("Role").locator("option").allInnerTexts();
    expect(roles).toEqual(["viewer", "runner"]);
    await page.getByLabel("Name").fill("CI on main");
    await page.getByLabel("Role").selectOption("runner");
    await page.getByRole("button", { name: "Create key" }).click();
    const shown = page.locator("[data-testid=new-api-key]");
    await shown.waitFor();
    const key = (await shown.innerText()).trim();
    expect(key).toMatch(/^assay_\S{20,}$/);
    await screenshot(page, "api-keys-created");
    // Only the hash is kept.
    const stored = await db.apiKey.findFirstOrThrow({ where: { name: "CI on main" } });
    expect(JSON.stringify(stored)).not.toContain(key.slice("assay_".length));
    expect(await runsWith(key)).toBe(200);
    // Shown once: a reload lists the key by its first characters only.
    await page.reload();
    await waitForHydration(page, "[data-testid=create-api-key]");
    expect(await page.locator("body").innerText()).not.toContain(key);
    await expect.poll(() => page.locator("table").innerText()).toContain("CI on main");

    await page.getByRole("button", { name: "Revoke the key CI on main" }).click();
    await page.getByRole("button", { name: "Yes, revoke" }).click();
    await expect.poll(() => runsWith(key)).toBe(401);
    await expect.poll(() => page.locator("main").innerText()).not.toContain("CI on main");
    expect(problems).toEqual([]);
  });

  it("refuses, in the actions themselves, a role above the account's and a revoke by another user", async () => {
    const ids = serverActionIds();
    const viewerCookie = await signInCookie(server.baseUrl, USERS.viewer);
    const above = await callAction(
      server.baseUrl,
      "/settings/keys",
      ids.get("createApiKey")!,
      [{ ok: false, message: null }, formData({ name: "sneaky", role: "runner", expiresInDays: "30" })],
      { cookie: viewerCookie },
    );
    expect(above.status).toBe(200);
    expect(above.body).toContain("A key cannot have a higher role than its creator");
    expect(await db.apiKey.count({ where: { name: "sneaky" } })).toBe(0);

    const runnerCookie = await signInCookie(server.baseUrl, USERS.runner);
    const made = await callAction(
      server.baseUrl,
      "/settings/keys",
      ids.get("createApiKey")!,
      [{ ok: false, message: null }, formData({ name: "runner's own", role: "viewer", expiresInDays: "30" })],
      { cookie: runnerCookie },
    );
    expect(made.body).toContain("Created");
    const own = await db.apiKey.findFirstOrThrow({ where: { name: "runner's own" } });
    const theft = await callAction(
      server.baseUrl,
      "/settings/keys",
      ids.get("revokeApiKey")!,
      [{ ok: false, message: null }, formData({ keyId: own.id })],
      { cookie: viewerCookie },
    );
    expect(theft.body).toContain("not yours to revoke");
    expect(await db.apiKey.count({ where: { id: own.id } })).toBe(1);
  });
});
