// npm start's decision on the real production server (scripts/serve.ts over
// the build in .next): 127.0.0.1 by default, so the machine's network address
// gets no answer; ASSAY_HOST=0.0.0.0 with a secret answers there too.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { launchChromium } from "../support/chromium";
import { endWithThisProcess } from "../support/processCleanup";
import { ROOT } from "./appServer";

const networkAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((address) => address?.family === "IPv4" && !address.internal)?.address;

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

async function answers(host: string, port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://${host}:${port}/datasets`, { signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** Whether the sign-in page, opened in Chromium at this address, warns that the browser will drop the cookie. */
async function signInWarnsOfCookie(host: string, port: number): Promise<boolean> {
  const { context, close } = await launchChromium();
  try {
    const page = await context.newPage();
    await page.goto(`http://${host}:${port}/signin`);
    // The check runs in the browser, after hydration: one of the two markers appears.
    const checked = page.locator("[data-testid=insecure-origin], [data-testid=cookie-context-checked]");
    await checked.first().waitFor({ state: "attached", timeout: 20_000 });
    return (await page.getByTestId("insecure-origin").count()) > 0;
  } finally {
    await close();
  }
}

/** `node --import tsx scripts/serve.ts start -p PORT` (what `npm start` runs after its build), until stopped. */
async function withServe(
  env: Record<string, string>,
  check: (port: number, output: () => string) => Promise<void>,
  chosenPort?: number,
) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-e2e-serve-"));
  const port = chosenPort ?? (await freePort());
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", "start", "-p", String(port)], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: `file:${path.join(dir, "assay.db")}`,
      ...env,
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const untrack = endWithThisProcess(child, { group: true });
  let output = "";
  child.stdout?.on("data", (data) => (output += data));
  child.stderr?.on("data", (data) => (output += data));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const deadline = Date.now() + 90_000;
    while (!(await answers("127.0.0.1", port))) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve.ts did not answer:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await check(port, () => output);
  } finally {
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
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!networkAddress)(`npm start's listening address (network address ${networkAddress})`, () => {
  it("by default answers on 127.0.0.1 only", { timeout: 150_000 }, async () => {
    await withServe({}, async (port, output) => {
      expect(output()).toContain("[assay] listening on 127.0.0.1 (this machine only; set ASSAY_HOST to expose it)");
      expect(await answers(networkAddress ?? "", port)).toBe(false);
    });
  });

  it("with ASSAY_HOST=0.0.0.0 and a secret, answers on the network address too", { timeout: 150_000 }, async () => {
    await withServe({ ASSAY_HOST: "0.0.0.0", ASSAY_AUTH_SECRET: "x".repeat(44) }, async (port, output) => {
      expect(output()).toContain("[assay] listening on 0.0.0.0");
      expect(await answers(networkAddress ?? "", port)).toBe(true);
      // Its sign-in cookie is for HTTPS only (no ASSAY_BASE_URL, production): over plain HTTP on the network
      // address a browser would drop it, and the sign-in page says so before anyone tries; on loopback it is kept.
      expect(await signInWarnsOfCookie(networkAddress ?? "", port)).toBe(true);
      expect(await signInWarnsOfCookie("127.0.0.1", port)).toBe(false);
    });
  });

  it(
    "with ASSAY_BASE_URL on plain http, the sign-in page does not warn about the cookie",
    { timeout: 150_000 },
    async () => {
      const port = await freePort();
      await withServe(
        {
          ASSAY_HOST: "0.0.0.0",
          ASSAY_AUTH_SECRET: "x".repeat(44),
          ASSAY_BASE_URL: `http://${networkAddress ?? ""}:${port}`,
        },
        async (served) => {
          expect(await signInWarnsOfCookie(networkAddress ?? "", served)).toBe(false);
        },
        port,
      );
    },
  );
});
