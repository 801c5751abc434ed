import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { applyPendingMigrations } from "@/lib/db/migrations/applyMigrations";
import { startLocalPostgres, type LocalPostgres } from "@/lib/db/store/embeddedPostgres";

export const TEMPLATE_DATABASE = "assay_template";

/**
 * One real PostgreSQL (from npm) for the whole PostgreSQL project: started
 * once, migrated once into a template database, and cloned per test file
 * (tempDb.ts), which takes tens of milliseconds. The data folder is named
 * after the checkout, so a run killed with SIGKILL is cleaned up by the next
 * run of the same checkout, and two checkouts testing at once do not meet.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const checkout = createHash("sha256").update(process.cwd()).digest("hex").slice(0, 12);
  const server: LocalPostgres = await startLocalPostgres({
    dir: path.join(os.tmpdir(), `assay-test-postgres-${checkout}`),
    persistent: false,
  });
  await server.query(`CREATE DATABASE "${TEMPLATE_DATABASE}"`);
  await applyPendingMigrations(server.url(TEMPLATE_DATABASE));
  project.provide("postgresUrl", server.url("postgres"));
  return () => server.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}
