import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isLoopbackHost } from "@/lib/auth/authMode";
import { debuggerArgumentIn, decideListenHost, hostArgumentIn } from "@/lib/server/listenHost";
import { TEST_SECRET as SECRET } from "../auth/authKit";
import { endWithThisProcess } from "../support/processCleanup";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("where npm start and npm run dev listen", () => {
  it("loopback by default, whatever else is set", () => {
    expect(decideListenHost({})).toEqual({ ok: true, host: "127.0.0.1", loopback: true, signIn: false });
    expect(decideListenHost({ ASSAY_HOST: "  " })).toMatchObject({ ok: true, host: "127.0.0.1" });
  });

  it("ASSAY_HOST, or else HOSTNAME, names another address", () => {
    expect(decideListenHost({ ASSAY_HOST: "::1" })).toEqual({ ok: true, host: "::1", loopback: true, signIn: false });
    expect(decideListenHost({ HOSTNAME: "localhost" })).toMatchObject({ ok: true, host: "localhost", loopback: true });
    expect(decideListenHost({ ASSAY_HOST: "10.0.0.5", HOSTNAME: "127.0.0.1", ASSAY_AUTH_SECRET: SECRET })).toEqual({
      ok: true,
      host: "10.0.0.5",
      loopback: false,
      signIn: true,
    });
  });

  it("refuses anything but loopback without a secret, saying how to make one", () => {
    const none = decideListenHost({ ASSAY_HOST: "0.0.0.0" });
    expect(none.ok).toBe(false);
    expect(!none.ok && none.message).toContain("ASSAY_AUTH_SECRET is not set.");
    expect(!none.ok && none.message).toContain('export ASSAY_AUTH_SECRET="$(openssl rand -base64 32)"');
    expect(!none.ok && none.message).toContain("Or unset ASSAY_HOST to listen on 127.0.0.1 only.");
    const short = decideListenHost({ HOSTNAME: "assay.internal", ASSAY_AUTH_SECRET: "s".repeat(31) });
    expect(!short.ok && short.message).toContain("ASSAY_AUTH_SECRET is 31 characters; it needs at least 32.");
    expect(!short.ok && short.message).toContain('export ASSAY_AUTH_SECRET="$(openssl rand -base64 32)"');
  });

  it("refuses a secret the server would refuse, on loopback too: one check for both", () => {
    // The server (decideAuthMode) answers 503 to everything with such a secret; starting it would only hide that.
    for (const secret of ["a".repeat(32), "password".repeat(4), ` ${SECRET.slice(0, 31)}${" ".repeat(8)}`]) {
      const decision = decideListenHost({ ASSAY_AUTH_SECRET: secret });
      expect(decision.ok, JSON.stringify(secret)).toBe(false);
      expect(!decision.ok && decision.message).toContain("Assay will not start with this ASSAY_AUTH_SECRET");
      expect(!decision.ok && decision.message).toContain(
        "Or unset ASSAY_AUTH_SECRET to use Assay on this machine only, without sign-in.",
      );
    }
    // A padded good secret is used trimmed, by both.
    expect(decideListenHost({ ASSAY_AUTH_SECRET: `  ${SECRET}  `, ASSAY_HOST: "0.0.0.0" })).toMatchObject({
      ok: true,
      signIn: true,
    });
  });

  it("finds every spelling of a host argument meant for next", () => {
    for (const args of [["-H", "0.0.0.0"], ["-H0.0.0.0"], ["--hostname", "0.0.0.0"], ["--hostname=0.0.0.0"]])
      expect(hostArgumentIn(["-p", "4000", ...args]), args.join(" ")).toBe(args[0]);
    expect(hostArgumentIn(["-p", "4000", "--", "x"])).toBe("--");
    expect(hostArgumentIn(["-p", "4000", "--keepAliveTimeout", "5000", "-h"])).toBeNull();
  });

  it("finds a debugger argument meant for next, which would open a port that runs any code", () => {
    for (const arg of ["--inspect", "--inspect=0.0.0.0:9229", "--inspect-brk", "--inspect-wait=9229"])
      expect(debuggerArgumentIn(["-p", "4000", arg]), arg).toBe(arg);
    expect(debuggerArgumentIn(["-p", "4000", "--keepAliveTimeout", "5000"])).toBeNull();
    expect(debuggerArgumentIn(["--inspector-of-nothing"])).toBeNull();
  });

  it("knows loopback addresses", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "::ffff:127.0.0.1"])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.4", "example.com", "127.0.0.1.nip.io"])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it("package.json's start and dev go through scripts/serve.ts", () => {
    const { scripts } = z
      .object({ scripts: z.record(z.string(), z.string()) })
      .parse(JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")));
    // npm start builds inside serve.ts, after its checks: npm hands `npm start -- …` arguments to the start
    // script only, so a check in prestart could never see `-H`.
    expect(scripts.start).toBe("node --import tsx scripts/serve.ts start --build");
    expect(scripts.prestart).toBeUndefined();
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

  it("the start script refuses -H or --hostname meant for next, whatever the environment: message, exit 1, nothing prepared", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-serve-"));
    try {
      const env: NodeJS.ProcessEnv = {
        NODE_ENV: "production",
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        DATABASE_URL: `file:${path.join(dir, "assay.db")}`,
        NEXT_TELEMETRY_DISABLED: "1",
      };
      for (const args of [
        ["start", "--build", "-p", "4000", "-H", "0.0.0.0"],
        ["dev", "--hostname=0.0.0.0"],
      ]) {
        const { code, stderr, stdout } = await runServe(args, env);
        expect(stderr, args.join(" ")).toContain(
          `[assay] Assay does not pass "${args.at(-1)?.startsWith("--") ? "--hostname=0.0.0.0" : "-H"}" to Next.js`,
        );
        expect(stderr).toContain("Start it with ASSAY_HOST instead, e.g. ASSAY_HOST=0.0.0.0 npm start");
        expect(stdout).not.toContain("listening on");
        expect(code).toBe(1);
        expect(fs.existsSync(path.join(dir, "assay.db"))).toBe(false);
      }
      const debug = await runServe(["start", "--build", "--inspect=0.0.0.0:9229"], env);
      expect(debug.stderr).toContain('[assay] Assay does not pass "--inspect=0.0.0.0:9229" to Next.js');
      expect(debug.stdout).not.toContain("listening on");
      expect(debug.code).toBe(1);
      expect(fs.existsSync(path.join(dir, "assay.db"))).toBe(false);
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
