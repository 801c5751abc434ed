// Vitest globalSetup of the e2e project (vitest.config.ts). Vitest calls it
// once per run, before any worker starts, and only when e2e files are queued:
// `npm run test:unit` never builds. It unpacks the npm Chromium, builds the app
// once for every browser test file, prepares one SQLite store that every app
// server on SQLite starts from (a copy each), and at the end stops any app server
// a test file could not stop itself (a worker killed hard never runs its own cleanup).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { prepareChromium } from "../support/chromium";

declare module "vitest" {
  export interface ProvidedContext {
    assayE2eRunDir: string;
    /** A SQLite store as prepare-db leaves a new one (migrated, the sample loaded): app servers start from a copy. */
    assayE2ePreparedStore: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const BUILD_TIMEOUT_MS = 5 * 60_000;

export default async function setup(project: TestProject) {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-e2e-run-"));
  const serverRegistry = path.join(runDir, "servers");
  fs.mkdirSync(serverRegistry);
  const teardown = () => {
    stopLeftoverServers(serverRegistry);
    fs.rmSync(runDir, { recursive: true, force: true });
  };
  try {
    const browser = await prepareChromium();
    console.log(`[e2e] browser: ${browser.source} (${browser.executablePath})`);
    await buildApp();
    project.provide("assayE2eRunDir", runDir);
    project.provide("assayE2ePreparedStore", prepareStore(runDir));
  } catch (error) {
    teardown();
    throw error;
  }
  return teardown;
}

/**
 * `next build` of this checkout into its .next, as `npm start` does, so the
 * tests run exactly the files in front of them. A running `next dev` is not
 * disturbed (Next 16 keeps its output in .next/dev). ASSAY_E2E_SKIP_BUILD=1
 * uses the build already in .next.
 */
async function buildApp(): Promise<void> {
  if (process.env.ASSAY_E2E_SKIP_BUILD === "1") {
    if (!fs.existsSync(path.join(ROOT, ".next", "BUILD_ID")))
      throw new Error("ASSAY_E2E_SKIP_BUILD=1 but there is no build in .next; run npm run build first");
    console.log("[e2e] ASSAY_E2E_SKIP_BUILD=1: using the existing build in .next");
    return;
  }
  const started = Date.now();
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(path.join(ROOT, "node_modules", ".bin", "next"), ["build"], {
      cwd: ROOT,
      // No type check of its own: `npm run typecheck` is CI's (next.config.mjs).
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ASSAY_BUILD_SKIP_TYPECHECK: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    child.stdout.on("data", (data) => {
      text += data;
    });
    child.stderr.on("data", (data) => {
      text += data;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      text += `\n[killed after ${BUILD_TIMEOUT_MS / 1000} s]`;
    }, BUILD_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (exitCode) => {
      clearTimeout(timer);
      resolve({ code: exitCode, output: text });
    });
  });
  if (code !== 0) throw new Error(`next build failed (exit ${code}):\n${output}`);
  console.log(`[e2e] built the app in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * prepare-db on a new SQLite file, once: each app server's own run of it cost
 * about 3 s of CPU (tsx, 21 migrations, the sample's import), 30 times a run.
 * The tests of prepare-db itself run it (tests/db/prepareDb.test.ts), as does
 * every server started on an existing store or on PostgreSQL.
 */
function prepareStore(runDir: string): string {
  const file = path.join(runDir, "prepared", "assay.db");
  fs.mkdirSync(path.dirname(file));
  const prepared = spawnSync(path.join(ROOT, "node_modules", ".bin", "tsx"), ["scripts/prepare-db.ts"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", DATABASE_URL: `file:${file}` },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (prepared.status !== 0)
    throw new Error(`prepare-db failed (exit ${prepared.status}):\n${prepared.stdout}${prepared.stderr}`);
  // Closed by prepare-db, the store is whole in its one file (SQLite folds the write-ahead log in on close).
  if (fs.existsSync(`${file}-wal`)) throw new Error(`prepare-db left ${file}-wal: the store is not whole in one file`);
  return file;
}

/**
 * Each file in the registry is named after the process group of a server that
 * was started and not stopped, and holds the path of its temporary database folder.
 */
function stopLeftoverServers(serverRegistry: string): void {
  for (const name of fs.readdirSync(serverRegistry)) {
    try {
      process.kill(-Number(name), "SIGKILL");
      console.warn(`[e2e] stopped app server ${name}, which its test file left running`);
    } catch {
      // already gone (its worker's exit handler ended it)
    }
    const dbDir = fs.readFileSync(path.join(serverRegistry, name), "utf8");
    if (dbDir.startsWith(os.tmpdir())) fs.rmSync(dbDir, { recursive: true, force: true });
  }
}
