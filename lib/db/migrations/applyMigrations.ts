import fs from "node:fs";
import type { MigrationList } from "@prisma/schema-engine-wasm";
import Database from "better-sqlite3";
import { prepareDatabaseFile, sqliteFilePath } from "../databaseUrl";
import { contentHashesFilled, fillContentHashes } from "./contentHashes";
import pg from "pg";
import { dialectOfUrl } from "../store/dialect";
import { defaultMigrationsDirectory, readMigrationsDirectory } from "./migrationsDirectory";
import { describeEngineError, openSchemaEngine } from "./schemaEngine";

export const NO_FILTERS = { externalTables: [], externalEnums: [] };

/**
 * Applies the migrations in `migrationsDir` (default: the store's history,
 * prisma/sqlite/migrations or prisma/postgresql/migrations) that the database
 * has not run yet, as `prisma migrate deploy` does, and records them in
 * `_prisma_migrations`. Creates the SQLite file and its folder if missing. A
 * second call applies nothing.
 */
export async function applyPendingMigrations(
  databaseUrl: string,
  migrationsDir?: string,
): Promise<{ applied: string[] }> {
  const dialect = dialectOfUrl(databaseUrl);
  const migrationsList = readMigrationsDirectory(migrationsDir ?? defaultMigrationsDirectory(dialect));
  if (dialect === "postgresql") return applyPostgresMigrations(databaseUrl, migrationsList);
  prepareDatabaseFile(databaseUrl);
  // The hash columns exist once the label_content_hash migration is applied (a test may stop before it).
  const hashesToFill = () =>
    migrationsList.migrationDirectories.some((d) => d.path.endsWith(CONTENT_HASH_MIGRATION)) &&
    !contentHashesDone(databaseUrl);
  if (
    allApplied(
      databaseUrl,
      migrationsList.migrationDirectories.map((d) => d.path),
    )
  ) {
    // A process that died before the hash fill ended (or a store filled by an older fill) resumes it here.
    if (hashesToFill()) fillContentHashes(databaseUrl);
    return { applied: [] };
  }

  const applied = await applyWithEngine(databaseUrl, migrationsList);
  // Data a migration's SQL cannot compute (hashes), filled once its columns exist and until the fill has ended.
  if (hashesToFill()) fillContentHashes(databaseUrl);
  return { applied };
}

const CONTENT_HASH_MIGRATION = "_label_content_hash";

/** Whether the hash fill has ended on this store: one primary-key read of its Setting row, whatever the store's size. */
function contentHashesDone(databaseUrl: string): boolean {
  const connection = new Database(sqliteFilePath(databaseUrl), { readonly: true, fileMustExist: true });
  try {
    return contentHashesFilled(connection);
  } finally {
    connection.close();
  }
}

/**
 * The common case, an up-to-date database, answered by one read instead of
 * starting the wasm engine: faster start-up, and no schema-engine locking
 * while another process (a server, a CLI run) is writing to the same file.
 */
function allApplied(databaseUrl: string, names: string[]): boolean {
  const file = sqliteFilePath(databaseUrl);
  if (!fs.existsSync(file)) return false;
  const connection = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const table = connection
      .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`)
      .get();
    if (!table) return false;
    const rows = connection
      .prepare(`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`)
      .all() as { migration_name: string }[];
    const applied = new Set(rows.map((row) => row.migration_name));
    return names.every((name) => applied.has(name));
  } finally {
    connection.close();
  }
}

async function applyWithEngine(databaseUrl: string, migrationsList: MigrationList): Promise<string[]> {
  const { engine, close } = await openSchemaEngine(databaseUrl);
  try {
    const { appliedMigrationNames } = await engine
      .applyMigrations({ migrationsList, filters: NO_FILTERS })
      .catch((error: unknown) => {
        throw describeEngineError(error);
      });
    return appliedMigrationNames;
  } finally {
    await close();
  }
}

/**
 * PostgreSQL's history starts from today's models, so it has no data step:
 * the hash columns exist from its first migration and every writer fills them.
 */
async function applyPostgresMigrations(
  databaseUrl: string,
  migrationsList: MigrationList,
): Promise<{ applied: string[] }> {
  const names = migrationsList.migrationDirectories.map((d) => d.path);
  if (await allAppliedOnPostgres(databaseUrl, names)) return { applied: [] };
  return { applied: await applyWithEngine(databaseUrl, migrationsList) };
}

async function allAppliedOnPostgres(databaseUrl: string, names: string[]): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client
      .query<{ migration_name: string }>(
        `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL AND to_regclass('public._prisma_migrations') IS NOT NULL`,
      )
      .catch((error: { code?: string }) => {
        // 42P01: no _prisma_migrations yet (a new database).
        if (error.code === "42P01") return { rows: [] };
        throw error;
      });
    const applied = new Set(rows.map((row) => row.migration_name));
    return names.every((name) => applied.has(name));
  } finally {
    await client.end();
  }
}
