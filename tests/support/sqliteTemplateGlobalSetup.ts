import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { applyPendingMigrations } from "@/lib/db/migrations/applyMigrations";

declare module "vitest" {
  export interface ProvidedContext {
    /** A SQLite file with every migration applied, whole in its one file: tempDb.ts copies it per test store. */
    sqliteTemplate: string;
  }
}

/**
 * Vitest globalSetup of the SQLite projects: migrates one store per run, which every SQLite test store is a
 * copy of (tests/support/tempDb.ts), as the browser suite copies its prepared store. Migrating through the
 * wasm schema engine takes about 0.6 s a store; a copy, a few milliseconds. Both projects that list this
 * setup share one template.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const shared = ((globalThis as unknown as { assaySqliteTemplate?: SharedTemplate }).assaySqliteTemplate ??= {
    file: null,
    users: 0,
  });
  shared.users += 1;
  shared.file ??= migrateTemplate();
  const file = await shared.file;
  project.provide("sqliteTemplate", file);
  return () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    shared.file = null;
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  };
}

type SharedTemplate = { file: Promise<string> | null; users: number };

async function migrateTemplate(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-sqlite-template-"));
  const file = path.join(dir, "template.db");
  await applyPendingMigrations(`file:${file}`);
  // Closed by the migrator, the store is whole in its one file (SQLite folds the write-ahead log in on close).
  if (fs.existsSync(`${file}-wal`)) throw new Error(`migrating ${file} left a -wal file: the template is not whole`);
  return file;
}
