// Vitest globalSetup of the e2e project (vitest.config.ts). Vitest calls it
// once per run, before any worker starts, and only when e2e files are queued:
// `npm run test:unit` never builds. It unpacks the npm Chromium, builds the app
// once for every browser test file, prepares the store every app server starts
// from (preparedStores.ts), and at the end stops any app server a test file
// could not stop itself (a worker killed hard never runs its own cleanup).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { prepareChromium } from "../support/chromium";
import { ROOT, run } from "./appServer";
import { preparePostgresTemplate, prepareSqliteStore } from "./preparedStores";

declare module "vitest" {
  export interface ProvidedContext {
    assayE2eRunDir: string;
    /** A SQLite store as prepare-db leaves a new one (migrated, the sample loaded): app servers start from a copy. */
    assayE2ePreparedStore: string;
    /** The same on the run's PostgreSQL: a database app servers on PostgreSQL are created from (CREATE DATABASE … TEMPLATE). */
    assayE2ePostgresTemplate: string;
  }
}

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
    // Both stores side by side: prepare-db on each takes a few seconds.
    const [sqliteStore, postgresTemplate] = await Promise.all([
      prepareSqliteStore(runDir),
      preparePostgresTemplate(project.getProvidedContext().postgresUrl),
    ]);
    project.provide("assayE2ePreparedStore", sqliteStore);
    project.provide("assayE2ePostgresTemplate", postgresTemplate);
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
  // No type check of its own: `npm run typecheck` is CI's (next.config.mjs).
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ASSAY_BUILD_SKIP_TYPECHECK: "1" };
  const { code, output } = await run(path.join(ROOT, "node_modules", ".bin", "next"), ["build"], env, BUILD_TIMEOUT_MS);
  if (code !== 0) throw new Error(`next build failed (exit ${code}):\n${output}`);
  console.log(`[e2e] built the app in ${((Date.now() - started) / 1000).toFixed(1)} s`);
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
