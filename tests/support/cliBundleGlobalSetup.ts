import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { bundleEntry } from "../../scripts/bundleEntry.mjs";

/** The command-line programs the tests spawn, each as `npm run <name>` runs it (scripts/run-compiled.mjs). */
const ENTRIES = {
  /** npm run eval */
  eval: "scripts/eval.ts",
  /** npm run user:create */
  userCreate: "scripts/userCreate.ts",
  /** npm run user:key */
  userKey: "scripts/userKey.ts",
  /** npm run worker */
  worker: "scripts/worker.ts",
  /** What `npm start` runs first: the migrations and the sample dataset (the browser tests' PostgreSQL stores). */
  prepareDb: "scripts/prepare-db.ts",
} as const;

export type CliBundles = Record<keyof typeof ENTRIES, string>;

declare module "vitest" {
  export interface ProvidedContext {
    /** Each program as one esbuild bundle: the tests start these files with plain Node (spawnEval.ts, authKit.ts). */
    cliBundles: CliBundles;
  }
}

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/**
 * Vitest globalSetup of every project that spawns a command-line program: bundles each once per run, the way
 * scripts/run-compiled.mjs does for `npm run eval`, `user:create`, `user:key` and `worker`. Each process then
 * loads one file on plain Node instead of compiling the sources through tsx as it starts: the eval CLI took
 * about 0.8 s of CPU a start instead of 2.4 s, user:create about 5 s through tsx (24 starts in the browser
 * suite alone). Projects share one set of bundles.
 */
export default function setup(project: TestProject): () => void {
  const shared = ((globalThis as unknown as { assayCliBundles?: SharedBundles }).assayCliBundles ??= {
    dir: null,
    bundles: null,
    users: 0,
  });
  shared.users += 1;
  if (shared.bundles === null) ({ dir: shared.dir, bundles: shared.bundles } = bundleAll());
  project.provide("cliBundles", shared.bundles);
  return () => {
    shared.users -= 1;
    if (shared.users > 0 || shared.dir === null) return;
    fs.rmSync(shared.dir, { recursive: true, force: true });
    shared.dir = null;
    shared.bundles = null;
  };
}

type SharedBundles = { dir: string | null; bundles: CliBundles | null; users: number };

function bundleAll(): { dir: string; bundles: CliBundles } {
  // Inside the checkout, so that the bundles find the packages they leave external in node_modules.
  const parent = path.join(ROOT, "node_modules", ".cache", "assay-test-cli");
  fs.mkdirSync(parent, { recursive: true });
  const dir = fs.mkdtempSync(path.join(parent, "run-"));
  try {
    const bundles = Object.fromEntries(
      Object.entries(ENTRIES).map(([name, entry]) => {
        const file = path.join(dir, `${name}.mjs`);
        if (bundleEntry(entry, file, { root: ROOT }) !== 0)
          throw new Error(`esbuild could not bundle ${entry} for the tests (its errors are above)`);
        return [name, file];
      }),
    ) as CliBundles;
    return { dir, bundles };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
