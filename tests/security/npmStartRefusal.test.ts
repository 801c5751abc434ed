// `npm start` checks where it may listen, and the single sign-on settings,
// before it builds: a refused start (ASSAY_HOST=0.0.0.0 without
// ASSAY_AUTH_SECRET, `-H` passed through to next, an http:// OpenID Connect
// issuer beyond loopback, single sign-on without ASSAY_BASE_URL) says why
// within seconds, instead of after minutes of `next build`.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { endWithThisProcess } from "../support/processCleanup";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Far below a build (20 s cold on 2 cores, plus prisma generate); npm and tsx start in about 2 s. */
const REFUSAL_WITHIN_MS = 15_000;

function buildStamp(): number | null {
  try {
    return fs.statSync(path.join(ROOT, ".next", "BUILD_ID")).mtimeMs;
  } catch {
    return null;
  }
}

/** `npm start` with these arguments and environment, killed if still running after REFUSAL_WITHIN_MS. */
async function npmStart(args: string[], env: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-npm-start-"));
  const stampBefore = buildStamp();
  // Detached, so a start that did go on to build is stopped whole (npm, next build and its workers).
  const child = spawn("npm", ["start", ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      NODE_ENV: "production",
      DATABASE_URL: `file:${path.join(dir, "assay.db")}`,
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const untrack = endWithThisProcess(child, { group: true });
  let output = "";
  child.stdout.on("data", (data) => (output += data));
  child.stderr.on("data", (data) => (output += data));
  const killer = setTimeout(() => {
    try {
      process.kill(-(child.pid ?? 0), "SIGKILL");
    } catch {
      // already gone
    }
  }, REFUSAL_WITHIN_MS);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
  clearTimeout(killer);
  untrack();
  const databaseMade = fs.existsSync(path.join(dir, "assay.db"));
  fs.rmSync(dir, { recursive: true, force: true });
  return { code, output, rebuilt: buildStamp() !== stampBefore, databaseMade };
}

function expectRefusedQuickly(result: Awaited<ReturnType<typeof npmStart>>) {
  expect(result.output).not.toContain("next build");
  expect(result.code).not.toBe(0);
  expect(result.code).not.toBeNull(); // null: it was still running (building) when the timer killed it
  expect(result.rebuilt).toBe(false); // no new build output in .next
  expect(result.databaseMade).toBe(false);
}

describe("npm start on a non-loopback address without a secret", () => {
  it("exits non-zero with the message within seconds, without building", { timeout: 60_000 }, async () => {
    const result = await npmStart([], { ASSAY_HOST: "0.0.0.0" });
    expect(result.output).toContain("[assay] Assay will not listen on 0.0.0.0 (ASSAY_HOST) without an auth secret");
    expect(result.output).toContain('export ASSAY_AUTH_SECRET="$(openssl rand -base64 32)"');
    expectRefusedQuickly(result);
  });

  it(
    "npm start -- -H 0.0.0.0 is refused the same way: next never gets an address the check did not see",
    { timeout: 60_000 },
    async () => {
      const result = await npmStart(["--", "-H", "0.0.0.0"], {});
      expect(result.output).toContain('[assay] Assay does not pass "-H" to Next.js');
      expect(result.output).toContain("Start it with ASSAY_HOST instead");
      expectRefusedQuickly(result);
    },
  );
});

describe("npm start with single sign-on misconfigured", () => {
  const oidc = {
    ASSAY_AUTH_SECRET: "Q2x8vT1mP9zR4kW7yB3nD6hF0jL5sA2cE8gU1iO4",
    ASSAY_OIDC_ISSUER: "https://id.example.com",
    ASSAY_OIDC_CLIENT_ID: "assay",
    ASSAY_OIDC_CLIENT_SECRET: "s3cret",
    ASSAY_BASE_URL: "https://assay.example.com",
  };

  it("refuses an http:// issuer beyond loopback, naming the variable", { timeout: 60_000 }, async () => {
    const result = await npmStart([], { ...oidc, ASSAY_OIDC_ISSUER: "http://id.example.com" });
    expect(result.output).toContain(
      "[assay] ASSAY_OIDC_ISSUER is http://id.example.com: an OpenID Connect issuer must use https://",
    );
    expectRefusedQuickly(result);
  });

  it("refuses single sign-on without ASSAY_BASE_URL", { timeout: 60_000 }, async () => {
    const result = await npmStart([], { ...oidc, ASSAY_BASE_URL: "" });
    expect(result.output).toContain(
      "[assay] ASSAY_BASE_URL is missing: single sign-on needs the public URL people open",
    );
    expectRefusedQuickly(result);
  });
});
