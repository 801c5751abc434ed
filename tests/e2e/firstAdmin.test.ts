// The issue's start test, second half: `npm start`'s script (scripts/serve.ts
// over the build in .next) with ASSAY_AUTH_SECRET, on 127.0.0.1. Pages need a
// session; the first admin is created with `npm run user:create` and signs in,
// and the users page opens. (listenHost.test.ts covers the refusal without a
// secret and the network address.)
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { endWithThisProcess } from "../support/processCleanup";
import { ROOT } from "./appServer";
import { createUsersWithCli, E2E_AUTH_SECRET, signInCookie, USERS } from "./authSession";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-e2e-first-admin-"));
const databaseUrl = `file:${path.join(dir, "assay.db")}`;
let baseUrl = "";
let output = "";
let stop: () => Promise<void> = async () => {};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", "start", "-p", String(port)], {
    cwd: ROOT,
    env: {
      ...process.env,
      // As npm start runs it, not with the test runner's NODE_ENV=test.
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: databaseUrl,
      ASSAY_AUTH_SECRET: E2E_AUTH_SECRET,
      ASSAY_HOST: "",
      HOSTNAME: "",
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const untrack = endWithThisProcess(child, { group: true });
  child.stdout?.on("data", (data) => (output += data));
  child.stderr?.on("data", (data) => (output += data));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  stop = async () => {
    try {
      process.kill(-(child.pid ?? 0), "SIGTERM");
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid ?? 0), "SIGKILL");
      } catch {
        // already gone
      }
    }, 5_000);
    await exited;
    clearTimeout(timer);
    untrack();
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    const status = await fetch(`${baseUrl}/signin`, { signal: AbortSignal.timeout(10_000) })
      .then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      })
      .catch(() => 0);
    if (status === 200) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve.ts did not answer:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}, 150_000);

afterAll(async () => {
  await stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it("with a secret, npm start on 127.0.0.1 asks for sign-in; the first admin comes from the CLI and signs in", async () => {
  expect(output).toContain("[assay] listening on 127.0.0.1");
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
