// The browser for the browser tests: the headless Chromium that ships inside
// the @sparticuz/chromium npm package, so `npm install` is the whole set-up.
// CHROMIUM_PATH overrides it with another Chromium (e.g. Debian's /usr/bin/chromium).
import { z } from "zod";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sparticuzChromium from "@sparticuz/chromium";
import { chromium, type BrowserContext } from "playwright-core";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const PACKAGE_DIR = path.join(ROOT, "node_modules", "@sparticuz", "chromium");
/** Unpacked binaries live here, one folder per package version, never in the shared system temp folder. */
const CACHE_DIR = path.join(ROOT, "node_modules", ".cache", "assay-chromium");

/** Flags for a Chromium other than the npm one (CHROMIUM_PATH). */
const OVERRIDE_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The package's flags that switch off the web's security model. */
const SECURITY_OFF = new Set(["--disable-web-security", "--allow-running-insecure-content"]);
/** The package's flags that render through SwiftShader, a GPU emulated on the CPU (for WebGL on AWS Lambda). */
const EMULATED_GPU = /^--(use-gl|use-angle|enable-unsafe-swiftshader|in-process-gpu|ignore-gpu-blocklist)\b/;

/**
 * The package's own flags, minus two kinds, plus one:
 * - not the two that switch off the web's security model: the browser tests check what a user's browser does
 *   with uploaded HTML and links, so same-origin rules and mixed-content blocking stay on;
 * - not the emulated GPU, and --disable-gpu instead: Assay draws with HTML and SVG, never WebGL, and Chromium's
 *   own software compositing is far cheaper. Two browser test files on this 2-core machine took 128 s of CPU
 *   with SwiftShader and 96 s without; a full-page screenshot 2.6 s and 1.0 s.
 */
const NPM_CHROMIUM_ARGS = [
  ...sparticuzChromium.args.filter((flag) => !SECURITY_OFF.has(flag) && !EMULATED_GPU.test(flag)),
  "--disable-gpu",
];

export type ChromiumBinary = { executablePath: string; args: string[]; source: string };

/**
 * Where the browser is, unpacking the npm one on first use. Idempotent and safe
 * to call from several processes: the unpack goes to a private folder that is
 * renamed into place, so nobody ever sees half a binary.
 */
export async function prepareChromium(): Promise<ChromiumBinary> {
  const override = process.env.CHROMIUM_PATH;
  if (override) {
    if (!fs.existsSync(override))
      throw new Error(
        `CHROMIUM_PATH is set to ${override}, which does not exist; unset it to use the Chromium from npm (@sparticuz/chromium)`,
      );
    return { executablePath: override, args: OVERRIDE_ARGS, source: `CHROMIUM_PATH=${override}` };
  }
  const version = z
    .object({ version: z.string() })
    .parse(JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8"))).version;
  const dir = path.join(CACHE_DIR, version);
  const executablePath = path.join(dir, "chromium");
  if (!fs.existsSync(executablePath)) await unpackInto(dir);
  return { executablePath, args: NPM_CHROMIUM_ARGS, source: `@sparticuz/chromium ${version}` };
}

/**
 * The package unpacks next to os.tmpdir() and skips files that already exist
 * there, so a stale unpack of another version breaks the launch (SIGTRAP).
 * Run it in a child process whose TMPDIR is a fresh folder of ours, then move
 * that folder into place.
 */
async function unpackInto(dir: string): Promise<void> {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const staging = fs.mkdtempSync(`${dir}.unpacking-`);
  try {
    const script =
      "const { default: c } = await import('@sparticuz/chromium'); process.stdout.write(await c.executablePath());";
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: staging },
      timeout: 120_000,
    });
    if (path.resolve(stdout.trim()) !== path.join(staging, "chromium"))
      throw new Error(`@sparticuz/chromium unpacked to ${stdout.trim()}, expected ${staging}`);
    try {
      fs.renameSync(staging, dir);
    } catch (error) {
      // Another process finished first; its copy is as good as ours.
      if (!fs.existsSync(path.join(dir, "chromium"))) throw error;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** `args`: flags besides the binary's own, e.g. `--host-resolver-rules=MAP name 127.0.0.1` to point a name here. */
export async function launchChromium(
  options: { args?: string[] } = {},
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const browser = await prepareChromium();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "assay-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: browser.executablePath,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: [...browser.args, ...(options.args ?? [])],
    });
    return {
      context,
      close: async () => {
        await context.close();
        fs.rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(profile, { recursive: true, force: true });
    throw new Error(
      `Chromium (${browser.source}) did not start: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
