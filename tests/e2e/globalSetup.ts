// Vitest globalSetup: gives every e2e file of this run one shared scratch
// folder. The first startAppServer() of the run builds the app there under a
// lock (see appServer.ts), the others wait for it, so a run builds at most
// once, and a run without e2e files never builds at all.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    assayE2eRunDir: string;
  }
}

export default function setup(project: TestProject) {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-e2e-run-"));
  project.provide("assayE2eRunDir", runDir);
  return () => fs.rmSync(runDir, { recursive: true, force: true });
}
