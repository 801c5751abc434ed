import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { closeDb, createDb, type Db } from "@/lib/db/client";
import type { Dialect } from "@/lib/db/store/dialect";
import { runStatement } from "@/lib/db/store/postgresAdmin";
import { createDatabaseFrom, TEMPLATE_DATABASE } from "./postgresGlobalSetup";
import { applyPendingMigrations } from "@/lib/db/migrations/applyMigrations";

export type TempDb = { db: Db; url: string; cleanup: () => Promise<void> };

/**
 * The store this test process runs against: the `unit` project tests on
 * SQLite, the `postgresql` project runs the same files on PostgreSQL
 * (vitest.config.ts sets ASSAY_TEST_STORE).
 */
export function testStore(): Dialect {
  return process.env.ASSAY_TEST_STORE === "postgresql" ? "postgresql" : "sqlite";
}

/** A real, migrated store of the kind testStore() names: what repository tests run against. */
export async function createTempDb(): Promise<TempDb> {
  return testStore() === "postgresql" ? createTempPostgres() : createTempSqlite();
}

/**
 * A real SQLite file in a temp folder with every migration applied: a copy of the run's migrated template
 * (sqliteTemplateGlobalSetup.ts), or migrated here in a project that has no template.
 */
export async function createTempSqlite(): Promise<TempDb> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-db-"));
  const file = path.join(dir, "test.db");
  const url = `file:${file}`;
  const template = sqliteTemplate();
  if (template) fs.copyFileSync(template, file);
  else await applyPendingMigrations(url);
  const db = createDb(url);
  return {
    db,
    url,
    cleanup: async () => {
      await closeDb(db);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function sqliteTemplate(): string | null {
  try {
    return inject("sqliteTemplate") ?? null;
  } catch {
    return null;
  }
}

let created = 0;

/** A new database cloned from the migrated template on the project's PostgreSQL (postgresGlobalSetup.ts). */
export async function createTempPostgres(): Promise<TempDb> {
  const serverUrl = inject("postgresUrl");
  const name = `test_${process.pid}_${++created}_${Date.now() % 100000}`;
  await createDatabaseFrom(serverUrl, name, TEMPLATE_DATABASE);
  const url = serverUrl.replace(/\/postgres$/, `/${name}`);
  const db = createDb(url);
  return {
    db,
    url,
    cleanup: async () => {
      await closeDb(db);
      await runStatement(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
