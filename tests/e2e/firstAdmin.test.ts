// The issue's start test, second half: `npm start`'s script (scripts/serve.ts
// over the build in .next) with ASSAY_AUTH_SECRET, on 127.0.0.1. Pages need a
// session; the first admin is created with `npm run user:create` and signs in,
// and the users page opens. (listenHost.test.ts covers the refusal without a
// secret and the network address.)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createUsersWithCli, E2E_AUTH_SECRET, signInCookie, USERS } from "./authSession";
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

  await createUsersWithCli(databaseUrl, [USERS.admin]);
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
