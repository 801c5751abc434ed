// `npm start` checks where it may listen before it builds: a refused start
// (ASSAY_HOST=0.0.0.0 without ASSAY_AUTH_SECRET) says why within seconds,
// instead of after minutes of `next build`.
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

describe("npm start on a non-loopback address without a secret", () => {
  it("exits non-zero with the message within seconds, without building", { timeout: 60_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-npm-start-"));
    const stampBefore = buildStamp();
    const started = Date.now();
    // Detached, so a start that did go on to build is stopped whole (npm, next build and its workers).
    const child = spawn("npm", ["start"], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        NODE_ENV: "production",
        ASSAY_HOST: "0.0.0.0",
        DATABASE_URL: `file:${path.join(dir, "assay.db")}`,
        NEXT_TELEMETRY_DISABLED: "1",
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
    const elapsed = Date.now() - started;
    try {
      expect(output).toContain("[assay] Assay will not listen on 0.0.0.0 (ASSAY_HOST) without an auth secret");
      expect(output).toContain('export ASSAY_AUTH_SECRET="$(openssl rand -base64 32)"');
      expect(output).not.toContain("next build");
      expect(code).not.toBe(0);
      expect(code).not.toBeNull(); // null: it was still running (building) when the timer killed it
      expect(elapsed).toBeLessThan(REFUSAL_WITHIN_MS);
      expect(buildStamp()).toBe(stampBefore); // no new build output in .next
      expect(fs.existsSync(path.join(dir, "assay.db"))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
