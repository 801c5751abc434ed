import fs from "node:fs";
import path from "node:path";
import type { MigrationDirectory, MigrationList } from "@prisma/schema-engine-wasm";
import type { Dialect } from "../store/dialect";

export const MIGRATION_FILE = "migration.sql";
export const LOCKFILE = "migration_lock.toml";

/** Each store's migration history, under the current directory: prisma/sqlite/migrations, prisma/postgresql/migrations. */
export function defaultMigrationsDirectory(dialect: Dialect = "sqlite"): string {
  return path.resolve("prisma", dialect, "migrations");
}

/** A store's Prisma schema: its datasource file and the shared models file linked beside it. */
export function schemaFilesFor(dialect: Dialect, root = "."): { path: string; content: string }[] {
  const folder = path.resolve(root, "prisma", dialect);
  return ["schema.prisma", "models.prisma"].map((name) => {
    const file = path.join(folder, name);
    return { path: file, content: fs.readFileSync(file, "utf8") };
  });
}

/**
 * Reads the migrations folder the way the Prisma CLI does: every sub-folder
 * is a migration, sorted by name. A missing folder is an empty history.
 */
export function readMigrationsDirectory(migrationsDir: string = defaultMigrationsDirectory()): MigrationList {
  const baseDir = path.resolve(migrationsDir);
  const entries = fs.existsSync(baseDir) ? fs.readdirSync(baseDir, { withFileTypes: true }) : [];

  const migrationDirectories: MigrationDirectory[] = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    // Same comparison as the Prisma CLI's listMigrations, so both replay the history in one order.
    .sort((a, b) => a.localeCompare(b))
    .map((name) => ({
      path: name,
      migrationFile: { path: MIGRATION_FILE, content: readText(path.join(baseDir, name, MIGRATION_FILE)) },
    }));

  const lockfilePath = path.join(baseDir, LOCKFILE);
  return {
    baseDir,
    lockfile: { path: LOCKFILE, content: fs.existsSync(lockfilePath) ? fs.readFileSync(lockfilePath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

// The engine reports an unreadable migration file itself, with its name.
function readText(file: string): MigrationDirectory["migrationFile"]["content"] {
  try {
    return { tag: "ok", value: fs.readFileSync(file, "utf8") };
  } catch (error) {
    return { tag: "error", value: error instanceof Error ? error.message : String(error) };
  }
}
