import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { applyPendingMigrations } from "@/lib/db/migrations/applyMigrations";
import { startLocalPostgres, type LocalPostgres } from "@/lib/db/store/embeddedPostgres";
import { runStatement } from "@/lib/db/store/postgresAdmin";

export const TEMPLATE_DATABASE = "assay_template";

/**
 * A new database on the test server (`serverUrl` names its postgres database), a copy of `template`. By file
 * copy: PostgreSQL's default since 15 (WAL_LOG) copies the template page by page through the write-ahead log,
 * and 20 copies of the migrated template with their drops cost the server 5.0–5.9 s of CPU that way against
 * 1.8 s by file copy (210 ms against 55 ms a copy) on this 2-core machine. File copy's checkpoint first costs
 * next to nothing on this server, which never waits for the disk (fsync off, below).
 */
export async function createDatabaseFrom(serverUrl: string, name: string, template: string): Promise<void> {
  await runStatement(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}" STRATEGY FILE_COPY`);
}

/**
 * One real PostgreSQL (from npm) for the whole PostgreSQL project: started
 * once, migrated once into a template database, and cloned per test file
 * (tempDb.ts), which takes tens of milliseconds. The data folder is named
 * after the checkout, so a run killed with SIGKILL is cleaned up by the next
 * run of the same checkout, and two checkouts testing at once do not meet.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Two projects list this setup (postgresql and e2e) and vitest runs both in one process: one server serves both.
  const shared = ((globalThis as unknown as { assayTestPostgres?: SharedServer }).assayTestPostgres ??= {
    server: null,
    users: 0,
  });
  shared.users += 1;
  shared.server ??= startTemplateServer();
  const server = await shared.server;
  project.provide("postgresUrl", server.url("postgres"));
  return async () => {
    shared.users -= 1;
    if (shared.users === 0) {
      shared.server = null;
      await server.stop();
    }
  };
}

type SharedServer = { server: Promise<LocalPostgres> | null; users: number };

async function startTemplateServer(): Promise<LocalPostgres> {
  const checkout = createHash("sha256").update(process.cwd()).digest("hex").slice(0, 12);
  const server = await startLocalPostgres({
    dir: path.join(os.tmpdir(), `assay-test-postgres-${checkout}`),
    persistent: false,
    // A throwaway server: no write waits for the disk (commits stay atomic; only an OS crash could lose them,
    // and the server is thrown away with the run). The suite's many short transactions waited on fsync.
    settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
  });
  await server.query(`CREATE DATABASE "${TEMPLATE_DATABASE}"`);
  await applyPendingMigrations(server.url(TEMPLATE_DATABASE));
  return server;
}

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}
