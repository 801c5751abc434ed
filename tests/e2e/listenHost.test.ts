// npm start's decision on the real production server (scripts/serve.ts over
// the build in .next): 127.0.0.1 by default, so the machine's network address
// gets no answer; ASSAY_HOST=0.0.0.0 with a secret answers there too.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { launchChromium } from "../support/chromium";
import { E2E_AUTH_SECRET } from "./authSession";
import { answers, freePort, startServe } from "./serveProcess";

const networkAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((address) => address?.family === "IPv4" && !address.internal)?.address;

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

/** Runs `check` against npm start's server with this environment and a database of its own, then stops it. */
async function withServe(
  env: Record<string, string>,
  check: (port: number, output: () => string) => Promise<void>,
  chosenPort?: number,
) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-e2e-serve-"));
  try {
    const served = await startServe({ DATABASE_URL: `file:${path.join(dir, "assay.db")}`, ...env }, chosenPort);
    try {
      await check(served.port, served.output);
    } finally {
      await served.stop();
    }
  } finally {
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
    await withServe({ ASSAY_HOST: "0.0.0.0", ASSAY_AUTH_SECRET: E2E_AUTH_SECRET }, async (port, output) => {
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
          ASSAY_AUTH_SECRET: E2E_AUTH_SECRET,
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
