import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { bundleEntry } from "../../scripts/bundleEntry.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** The eval CLI as one esbuild bundle, as `npm run eval` runs it: spawnEval.ts starts this file. */
    evalCliBundle: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/**
 * Vitest globalSetup of every project that spawns the CLI: bundles scripts/eval.ts once per run, the way
 * scripts/run-compiled.mjs does for `npm run eval`. Each CLI process then loads one file on plain Node instead
 * of compiling the sources through tsx as it starts: about 0.8 s of CPU a start instead of 2.4 s, over some 60
 * starts a run. Projects share one bundle.
 */
export default function setup(project: TestProject): () => void {
  const shared = ((globalThis as unknown as { assayEvalBundle?: SharedBundle }).assayEvalBundle ??= {
    file: null,
    users: 0,
  });
  shared.users += 1;
  shared.file ??= bundleEval();
  project.provide("evalCliBundle", shared.file);
  return () => {
    shared.users -= 1;
    if (shared.users > 0 || shared.file === null) return;
    fs.rmSync(path.dirname(shared.file), { recursive: true, force: true });
    shared.file = null;
  };
}

type SharedBundle = { file: string | null; users: number };

function bundleEval(): string {
  // Inside the checkout, so that the bundle finds the packages it leaves external in node_modules.
  const parent = path.join(ROOT, "node_modules", ".cache", "assay-test-cli");
  fs.mkdirSync(parent, { recursive: true });
  const dir = fs.mkdtempSync(path.join(parent, "run-"));
  const file = path.join(dir, "eval.mjs");
  if (bundleEntry("scripts/eval.ts", file, { root: ROOT }) !== 0)
    throw new Error("esbuild could not bundle scripts/eval.ts for the CLI tests (its errors are above)");
  return file;
}
