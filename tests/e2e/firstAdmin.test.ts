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
let baseUrl = "";
let output: () => string = () => "";
let stop: () => Promise<void> = async () => {};

beforeAll(async () => {
  const served = await startServe({
    DATABASE_URL: databaseUrl,
    ASSAY_AUTH_SECRET: E2E_AUTH_SECRET,
    ASSAY_HOST: "",
    HOSTNAME: "",
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
