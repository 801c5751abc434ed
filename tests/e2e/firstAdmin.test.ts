// The issue's start test, second half: `npm start`'s script (scripts/serve.ts
// over the build in .next) with ASSAY_AUTH_SECRET, on 127.0.0.1. Pages need a
// session; the first admin is created with `npm run user:create` and signs in,
// and the users page opens. A signed-out visitor sees neither the judge model
// nor its endpoint's host; a paused account is told on the sign-in page until
// when. (listenHost.test.ts covers the refusal without a secret and the
// network address.)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb } from "@/lib/db/client";
import { launchChromium } from "../support/chromium";
import { runUserCreate } from "../auth/authKit";
import { E2E_AUTH_SECRET, signInCookie, USERS } from "./authSession";
import { screenshot, waitForHydration } from "./helpers";
import { startServe } from "./serveProcess";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-e2e-first-admin-"));
const databaseUrl = `file:${path.join(dir, "assay.db")}`;
const JUDGE_HOST = "judge-host.internal:8123";
const JUDGE_MODEL = "private-judge-7b";
let baseUrl = "";
let output: () => string = () => "";
let stop: () => Promise<void> = async () => {};

beforeAll(async () => {
  const served = await startServe({
    DATABASE_URL: databaseUrl,
    ASSAY_AUTH_SECRET: E2E_AUTH_SECRET,
    ASSAY_HOST: "",
    HOSTNAME: "",
    // A judge endpoint whose model and host must not be shown to signed-out visitors (nothing calls it here).
    OPENAI_BASE_URL: `http://${JUDGE_HOST}/v1`,
    ASSAY_JUDGE_MODEL: JUDGE_MODEL,
  });
  baseUrl = `http://127.0.0.1:${served.port}`;
  output = served.output;
  stop = served.stop;
}, 150_000);

afterAll(async () => {
  await stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it("with a secret, npm start on 127.0.0.1 asks for sign-in; the first admin comes from the CLI and signs in", async () => {
  expect(output()).toContain("[assay] listening on 127.0.0.1");
  const signedOut = await fetch(`${baseUrl}/admin/users`, { redirect: "manual" });
  expect(signedOut.status).toBe(307);
  expect(signedOut.headers.get("location")).toContain("/signin?next=%2Fadmin%2Fusers");

  const admin = USERS.admin;
  const created = await runUserCreate(
    ["--admin", admin.email, "--name", admin.name, "--password-stdin"],
    { DATABASE_URL: databaseUrl, ASSAY_AUTH_SECRET: E2E_AUTH_SECRET },
    `${admin.password}\n`,
  );
  expect(created.code, created.stderr).toBe(0);
  expect(created.stdout + created.stderr).not.toContain(admin.password);
  const cookie = await signInCookie(baseUrl, USERS.admin);
  const users = await fetch(`${baseUrl}/admin/users`, { headers: { cookie }, redirect: "manual" });
  expect(users.status).toBe(200);
  const page = await users.text();
  expect(page).toContain(USERS.admin.email);
  expect(page).toContain("Turn sign-up on"); // sign-up stays off until an admin turns it on
});

it("shows the judge model and endpoint host to signed-in users only, not on the signed-out sign-in page", async () => {
  const signedOut = await fetch(`${baseUrl}/signin`);
  expect(signedOut.status).toBe(200);
  const signInPage = await signedOut.text();
  expect(signInPage).toContain("Sign in to Assay");
  expect(signInPage).not.toContain(JUDGE_MODEL);
  expect(signInPage).not.toContain("judge-host.internal");

  const cookie = await signInCookie(baseUrl, USERS.admin);
  const signedIn = await (await fetch(`${baseUrl}/admin/users`, { headers: { cookie } })).text();
  expect(signedIn).toContain(`${JUDGE_MODEL} via ${JUDGE_HOST}`);
});

it("tells an account whose password sign-in is paused, on the sign-in page, until when", async () => {
  // As if ten wrong guesses had just been made for this email, from whatever addresses. Unknown emails are paused
  // the same way as accounts, so the answer tells nothing about which exist.
  const db = createDb(databaseUrl);
  try {
    await db.signInThrottle.create({ data: { email: "paused@example.com", windowStart: new Date(), failures: 10 } });
  } finally {
    await db.$disconnect();
  }
  const { context, close } = await launchChromium();
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/signin`);
    await waitForHydration(page, "[data-testid=signin-form]");
    await page.getByLabel("Email").fill("paused@example.com");
    await page.getByLabel("Password").fill("whatever password it is");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect
      .poll(() => page.getByTestId("signin-error").innerText())
      .toMatch(/^Too many failed sign-ins for this account\. Password sign-in for it is paused until \d\d:\d\d UTC/);
    await screenshot(page, "signin-paused");
  } finally {
    await close();
  }
});
