import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { decideListenHost, isLoopback } from "@/lib/server/listenHost";
import { endWithThisProcess } from "../support/processCleanup";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SECRET = "s".repeat(32);

describe("where npm start and npm run dev listen", () => {
  it("loopback by default, whatever else is set", () => {
    expect(decideListenHost({})).toEqual({ ok: true, host: "127.0.0.1", loopback: true });
    expect(decideListenHost({ ASSAY_HOST: "  " })).toMatchObject({ ok: true, host: "127.0.0.1" });
  });

  it("ASSAY_HOST, or else HOSTNAME, names another address", () => {
    expect(decideListenHost({ ASSAY_HOST: "::1" })).toEqual({ ok: true, host: "::1", loopback: true });
    expect(decideListenHost({ HOSTNAME: "localhost" })).toMatchObject({ ok: true, host: "localhost", loopback: true });
    expect(decideListenHost({ ASSAY_HOST: "10.0.0.5", HOSTNAME: "127.0.0.1", ASSAY_AUTH_SECRET: SECRET })).toEqual({
      ok: true,
      host: "10.0.0.5",
      loopback: false,
    });
  });

  it("refuses anything but loopback without a secret of 32+ characters, saying how to make one", () => {
    const none = decideListenHost({ ASSAY_HOST: "0.0.0.0" });
    expect(none.ok).toBe(false);
    expect(!none.ok && none.message).toContain("ASSAY_AUTH_SECRET is not set.");
    expect(!none.ok && none.message).toContain('export ASSAY_AUTH_SECRET="$(openssl rand -base64 32)"');
    const short = decideListenHost({ HOSTNAME: "assay.internal", ASSAY_AUTH_SECRET: "s".repeat(31) });
    expect(!short.ok && short.message).toContain("ASSAY_AUTH_SECRET is 31 characters; it needs at least 32.");
    expect(!short.ok && short.message).toContain("Or unset HOSTNAME to listen on 127.0.0.1 only.");
  });

  it("knows loopback addresses", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "::ffff:127.0.0.1"])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.4", "example.com", "127.0.0.1.nip.io"])
      expect(isLoopback(host), host).toBe(false);
  });

  it("package.json's start and dev go through scripts/serve.ts", () => {
    const { scripts } = z
      .object({ scripts: z.record(z.string(), z.string()) })
      .parse(JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")));
    expect(scripts.start).toBe("node --import tsx scripts/serve.ts start");
    expect(scripts.dev).toBe("node --import tsx scripts/serve.ts dev");
  });

  it("the start script, as a real process, refuses ASSAY_HOST=0.0.0.0 without a secret: message, exit 1, nothing prepared", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-serve-"));
    try {
      const env: NodeJS.ProcessEnv = {
        NODE_ENV: "production",
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        ASSAY_HOST: "0.0.0.0",
        DATABASE_URL: `file:${path.join(dir, "assay.db")}`,
        NEXT_TELEMETRY_DISABLED: "1",
      };
      const { code, stderr, stdout } = await runServe(["start"], env);
      expect(stderr).toContain("[assay] Assay will not listen on 0.0.0.0 (ASSAY_HOST) without an auth secret");
      expect(stderr).toContain('export ASSAY_AUTH_SECRET="$(openssl rand -base64 32)"');
      expect(stdout).not.toContain("listening on");
      expect(code).toBe(1);
      expect(fs.existsSync(path.join(dir, "assay.db"))).toBe(false); // refused before touching the database
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

function runServe(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", ...args], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const untrack = endWithThisProcess(child, { group: false });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data) => (stdout += data));
    child.stderr.on("data", (data) => (stderr += data));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      untrack();
      resolve({ code, stdout, stderr });
    });
  });
}
